# Stand-in raw files for scale runs (issue 15): `make scale`, overlay .scale/config.yaml.
#
#   standin              {RESOURCES}/standin_mirror/<relpath>   generated file of the real format (seeded)
#   standin_mirror_link  {RESOURCES}/standin_mirror/<relpath>   symlink to the real data_mirror's file
#   standin_mirror       all of the above: the mirror a scale run reads with data_mirror = that directory
#   scale_all            the whole paper-A pipeline + data tables + STAND-IN-DATA.md of a scale run
#
# Datasets with `stand_in` in their entry get their file from rule `standin`; the download rule then copies it
# from the stand-in mirror and checks the sha256 pinned in the overlay, and prepare reads it with the real
# loader and preprocessing. Nothing of this is in the DAG of a normal run (no dataset has `stand_in`).
from privanomaly.datasets import standins as _standins

_standins.check_isolation(stand_in_notes(), RESULTS, RESOURCES)


rule standin:
    """A stand-in raw file: the real format and size, values generated from the seed (never real data)."""
    output:
        f"{STANDIN_MIRROR}/{{relpath}}",
    log:
        f"{LOGS}/standin/{{relpath}}.log",
    benchmark:
        f"{BENCH}/standin/{{relpath}}.tsv"
    wildcard_constraints:
        relpath=wildcard_choice(standin_files()),
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=10,
    params:
        generator=lambda wc: standin_files()[wc.relpath],
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
        relpath=wildcard_choice(standin_mirror_links()),
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        source=lambda wc: os.path.abspath(
            os.path.join(config["data_mirror"], wc.relpath)
        ),
    shell:
        "ln -sv {params.source:q} {output:q} > {log:q} 2>&1"


rule standin_mirror:
    """Every file of the stand-in mirror (run with data_mirror = the real mirror, before the scale run)."""
    input:
        expand(
            f"{STANDIN_MIRROR}/{{relpath}}",
            relpath=[*standin_files(), *standin_mirror_links()],
        ),
    localrule: True


rule standin_readme:
    """STAND-IN-DATA.md at the top of a scale run's results: which datasets are stand-ins and why."""
    output:
        f"{RESULTS}/STAND-IN-DATA.md",
    log:
        f"{LOGS}/standin_readme/all.log",
    benchmark:
        f"{BENCH}/standin_readme/all.tsv"
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        notes=stand_in_notes(),
        files=standin_files(),
        seed=config["seed"],
    script:
        "../../scripts/standin_readme.py"


rule scale_all:
    """A scale run: data tables + the whole of paper A + STAND-IN-DATA.md (`make scale`)."""
    input:
        data_targets(),
        paper_a_targets(),
        f"{RESULTS}/STAND-IN-DATA.md",
    localrule: True
