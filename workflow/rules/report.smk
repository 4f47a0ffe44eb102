# What a researcher looks at after a run:
#
#   <catalogue items>  every figure/table of workflow/report/catalogue.yaml with a `plot:` or `table:` section,
#                   one rule each (named by the item) running its registered function (scripts/render.py)
#   report_index    {RESULTS}/index.md   one line per figure/table: paper item, file, rule, this run's verdicts
#   report_gallery  {RESULTS}/gallery/*.png  small copies of key figures for the README; `make gallery` (default
#                   config only) publishes them to docs/gallery (committed) - no run writes outside RESULTS
#   provenance      {RESULTS}/provenance.json: versions, config hash, dataset sha256s, git commit
#   effective_config  {RESULTS}/effective_config.yaml: config.yaml + overlays + --config; `snakemake --report`
#                   reads it back (config.smk), so the report always describes the run in results/
#
# `snakemake --report results/report.html` shows every output marked for the report: the global description
# below (workflow/report/workflow.rst), then "Overview", "Data", "Paper A", "Paper B", "Privacy audit", "Sweeps",
# "Provenance".


report: "../report/workflow.rst"


# The catalogue is the one registry of the papers' figures and tables: its uniform items are one loop.
# A catalogue rule joins the SLURM group of the part whose directory it writes (privacy/: the price of honest
# tuning, computed from the data alone, is in the data group); profiles/slurm submits each group as one job.
ITEM_GROUPS = {"paper_a": "paper_a", "paper_b": "paper_b", "privacy": "data"}

for _item in (it for it in CATALOGUE_ITEMS if it.plot is not None):

    rule:
        """A figure or table of workflow/report/catalogue.yaml: the item whose `rule:` is this rule's name."""
        name:
            _item.rule
        input:
            **catalogue.plot_inputs(_item.plot, RESULTS, CATALOGUE_SETS),
        output:
            **item_outputs(_item),
        log:
            item_log(_item, LOGS, ".log"),
        benchmark:
            item_log(_item, BENCH, ".tsv")
        wildcard_constraints:
            **{n: ITEM_WILDCARDS[n] for n in catalogue.WILDCARD.findall(_item.files[0])},
        group:
            ITEM_GROUPS.get(_item.files[0].split("/", 1)[0])
        conda:
            "../../envs/privanomaly.yaml"
        params:
            library=library_code("render"),
            kind=_item.plot.kind,
            function=_item.plot.function,
            plot_params=item_params(_item),
            # the datasets it shows (its `datasets` set in this run): its caption names them
            datasets=catalogue.plot_datasets(_item.plot, CATALOGUE_SETS),
            stand_in=ITEM_STAND_IN.get(_item.paper) if _item.plot.stand_in else None,
        script:
            "../../scripts/render.py"


rule report_index:
    """results/index.md: one line per figure/table with its file, rule and this run's PASS/FAIL, MATCH/DIFFERS."""
    input:
        targets=paper_targets(),
        claims=list(REPORT_CLAIMS.values()),
        catalogue=CATALOGUE,
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
        library=library_code("report_index"),
        entries=[e.as_dict() for e in REPORT_MATCH.entries],
        uncovered=REPORT_MATCH.uncovered,
        papers=list(REPORT_CLAIMS),
        sources={p: relpath(f, RESULTS) for p, f in REPORT_CLAIMS.items()},
        dataset_names=PB.get("datasets", {}),
        unavailable=PLAN.unavailable(),
        your_datasets={"A": PA_SETS.yours} if "A" in REPORT_CLAIMS else {},
        sweeps=SW.index_entries(),
    script:
        "../../scripts/report_index.py"


rule report_gallery:
    """A small PNG of one key figure for the README gallery."""
    input:
        figure=get_gallery_figure,
    output:
        png=report(
            f"{GALLERY_DIR}/{{name}}.png",
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
        library=library_code("report_gallery"),
        width=config["report"]["gallery_width"],
    script:
        "../../scripts/report_gallery.py"


rule effective_config:
    """The run's effective configuration (config.yaml + overlays + --config), recorded where the results are."""
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
        library=library_code("report_effective_config"),
        config=get_config,
    script:
        "../../scripts/report_effective_config.py"


rule provenance:
    """Versions, config hash, dataset sha256s, git commit; re-run when any of them changes."""
    input:
        datasets=get_dataset_provenance,
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
    group:
        "data"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("provenance"),
        config=get_config,
        config_sha256=config_sha256(config),
        commit=git_commit(WORKFLOW_ROOT),
    script:
        "../../scripts/provenance.py"


onsuccess:
    print(finished_message(RESULTS), file=sys.stderr)


# Tables for a paper: every CSV table of tex_targets() also as LaTeX (booktabs), the CSV's cells as text
# (privanomaly.report.latex). A conversion takes milliseconds, so it runs inside Snakemake's own process (run:,
# a local rule) instead of starting a job process for each table; no rule writes its own .tex. In a thread of
# that process only with `force-use-threads` (profiles/default): else each run: job is a new Snakemake (~2 s).
TEX_TABLES = [relpath(f, RESULTS)[: -len(".tex")] for f in tex_targets()]


rule table_tex:
    """A CSV table of the run as a LaTeX tabular (booktabs), cell for cell the CSV's text."""
    input:
        csv=f"{RESULTS}/{{table}}.csv",
    output:
        tex=f"{RESULTS}/{{table}}.tex",
    log:
        f"{LOGS}/table_tex/{{table}}.log",
    benchmark:
        f"{BENCH}/table_tex/{{table}}.tsv"
    wildcard_constraints:
        table=wildcard_choice(TEX_TABLES),
    localrule: True
    params:
        library=module_digest("privanomaly.report.latex"),
    run:
        latex.write_tex(input.csv, output.tex, log[0])
