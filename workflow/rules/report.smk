# What a researcher looks at after a run (issue 8):
#
#   report_index    {RESULTS}/index.md   one line per figure/table: paper item, file, rule, this run's verdicts
#   report_gallery  {RESULTS}/gallery/*.png  small copies of key figures for the README; `make gallery` (default
#                   config only) publishes them to docs/gallery (committed) - no run writes outside RESULTS
#   provenance      {RESULTS}/provenance.json (issue 9)
#
# `snakemake --report results/report.html` shows every output marked report(...): the global description
# below (workflow/report/workflow.rst), then "Overview", "Data", "Paper A", "Paper B", "Provenance".
# The item -> file -> rule mapping lives in workflow/report/catalogue.yaml only (tests check it against
# paper_a_targets() + paper_b_targets() and the rules' outputs). Helpers and report_targets(): report_common.smk.
from os.path import relpath

from privanomaly.provenance import config_sha256, git_commit


report: "../report/workflow.rst"


include: "report_common.smk"


rule report_index:
    """results/index.md: one line per figure/table with its file, rule and this run's PASS/FAIL, MATCH/DIFFERS."""
    input:
        targets=paper_targets(),
        claims=list(REPORT_CLAIMS.values()),
        catalogue=REPORT_CATALOGUE,
        sweeps=sweep_targets(),
    output:
        md=report(
            f"{RESULTS}/index.md",
            caption="../report/index.rst",
            category="Overview",
            subcategory="Index",
        ),
    log:
        f"{LOGS}/report_index/index.log",
    benchmark:
        f"{BENCH}/report_index/index.tsv"
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        entries=[e.as_dict() for e in REPORT_MATCH.entries],
        uncovered=REPORT_MATCH.uncovered,
        papers=list(REPORT_CLAIMS),
        sources={p: relpath(f, RESULTS) for p, f in REPORT_CLAIMS.items()},
        dataset_names=config["paper_b"].get("datasets", {}),
        unavailable=unavailable_datasets(),
        your_datasets={"A": PA_YOURS} if "A" in REPORT_CLAIMS else {},
        sweeps=sweep_index_entries(),
    script:
        "../../scripts/report_index.py"


rule report_gallery:
    """A small PNG of one key figure for the README gallery."""
    input:
        figure=lambda wc: REPORT_GALLERY[f"{REPORT_GALLERY_DIR}/{wc.name}.png"],
    output:
        png=report(
            f"{REPORT_GALLERY_DIR}/{{name}}.png",
            caption="../report/gallery.rst",
            category="Overview",
            subcategory="Gallery",
        ),
    log:
        f"{LOGS}/report_gallery/{{name}}.log",
    benchmark:
        f"{BENCH}/report_gallery/{{name}}.tsv"
    wildcard_constraints:
        name=wildcard_choice([Path(p).stem for p in REPORT_GALLERY]),
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        width=REPORT_CFG["gallery_width"],
    script:
        "../../scripts/report_gallery.py"


# The run's effective configuration (issue 17): config.yaml + overlays + --config, recorded where the results
# are. `snakemake --report` reads it back (workflow/rules/run_config.smk), so the report always describes the
# run in results/. Re-run only when the configuration changes (params); nothing depends on it.
rule effective_config:
    output:
        yaml=f"{RESULTS}/{RUN_CONFIG_RECORD}",
    log:
        f"{LOGS}/effective_config/effective_config.log",
    benchmark:
        f"{BENCH}/effective_config/effective_config.tsv"
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        config=lambda wc: dict(config),
    script:
        "../../scripts/report_effective_config.py"


# Provenance (issue 9): versions, config hash, dataset sha256s, git commit. Re-run when the config, the
# commit or a dataset's provenance changes (params and inputs).
rule provenance:
    input:
        datasets=lambda wc: sorted(
            t for t in data_targets() if str(t).endswith(".json")
        ),
    output:
        json=report(
            f"{RESULTS}/provenance.json",
            caption="../report/provenance.rst",
            category="Provenance",
        ),
    log:
        f"{LOGS}/provenance/provenance.log",
    benchmark:
        f"{BENCH}/provenance/provenance.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        config=lambda wc: dict(config),
        config_sha256=config_sha256(config),
        commit=git_commit(workflow.basedir),
    script:
        "../../scripts/provenance.py"


onsuccess:
    print(
        f"\nprivanomaly: results in {RESULTS}/ - start with {RESULTS}/index.md "
        f"(claims: {RESULTS}/paper_a/claims.md, {RESULTS}/paper_b/comparison.md); "
        f"HTML report: make report, or snakemake --report {RESULTS}/report.html (it uses the configuration "
        f"recorded in {RESULTS}/{RUN_CONFIG_RECORD})",
        file=sys.stderr,
    )
