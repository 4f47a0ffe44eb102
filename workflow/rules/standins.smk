# Stand-in raw files for scale runs: `make scale`, overlay .scale/config.yaml.
#
#   standin              {RESOURCES}/standin_mirror/<relpath>   generated file of the real format (seeded)
#   standin_mirror_link  {RESOURCES}/standin_mirror/<relpath>   symlink to the real data_mirror's file
#   standin_mirror       all of the above: the mirror a scale run reads with data_mirror = that directory
#   standin_readme       STAND-IN-DATA.md: which datasets of a scale run are stand-ins and why
#   scale_all            the whole paper-A pipeline + paper B on the stand-ins + data tables + STAND-IN-DATA.md
#
# Datasets with `stand_in` in their entry get their file from rule standin; rule download then copies it from
# the stand-in mirror and checks the sha256 pinned in the overlay, and prepare reads it with the real loader
# and preprocessing. Nothing of this is in the DAG of a normal run.
from privanomaly.datasets import standins

standins.check_isolation(PLAN.stand_in_notes(), RESULTS, RESOURCES)


rule standin:
    """A stand-in raw file: the real format and size, values generated from the seed (never real data)."""
    output:
        file=f"{STANDIN_MIRROR}/{{relpath}}",
    log:
        f"{LOGS}/standin/{{relpath}}.log",
    benchmark:
        f"{BENCH}/standin/{{relpath}}.tsv"
    wildcard_constraints:
        relpath=wildcard_choice(PLAN.standin_files()),
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=10,
    params:
        library=library_code("standin"),
        generator=get_standin_generator,
        seed=config["seed"],
    script:
        "../../scripts/standin.py"


rule standin_mirror_link:
    """The stand-in mirror serves the real files of the other datasets too: a symlink into data_mirror."""
    output:
        f"{STANDIN_MIRROR}/{{relpath}}",
    log:
        f"{LOGS}/standin_mirror_link/{{relpath}}.log",
    benchmark:
        f"{BENCH}/standin_mirror_link/{{relpath}}.tsv"
    wildcard_constraints:
        relpath=wildcard_choice(PLAN.standin_mirror_links()),
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        source=get_mirror_source,
    shell:
        "ln -sv {params.source:q} {output:q} > {log:q} 2>&1"


rule standin_mirror:
    """Every file of the stand-in mirror (run with data_mirror = the real mirror, before the scale run)."""
    input:
        expand(
            f"{STANDIN_MIRROR}/{{relpath}}",
            relpath=[*PLAN.standin_files(), *PLAN.standin_mirror_links()],
        ),
    localrule: True


rule standin_readme:
    """STAND-IN-DATA.md at the top of a scale run's results: which datasets are stand-ins and why."""
    output:
        md=f"{RESULTS}/STAND-IN-DATA.md",
    log:
        f"{LOGS}/standin_readme/all.log",
    benchmark:
        f"{BENCH}/standin_readme/all.tsv"
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("standin_readme"),
        notes=PLAN.stand_in_notes(),
        files=PLAN.standin_files(),
        seed=config["seed"],
    script:
        "../../scripts/standin_readme.py"


rule scale_all:
    """A scale run: data tables + the whole of paper A + paper B's Scenario 1 and sweep on the stand-ins + STAND-IN-DATA.md (`make scale`)."""
    input:
        data_targets(),
        paper_a_targets(),
        scale_paper_b_targets(),
        rules.standin_readme.output.md,
    localrule: True
