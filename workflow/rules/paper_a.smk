# Paper A - Asif, Papakonstantinou, Vaidya, "How to Accurately and Privately Identify Anomalies" (CCS'19),
# issue 6. Every figure and table of the paper from {RESULTS}/data/{dataset}.parquet; outputs under
# {RESULTS}/paper_a/{tables,figures}/ and {RESULTS}/paper_a/claims.md. Parameters come from config["paper_a"]
# through params. Compute rules write tidy CSV/Parquet under {RESULTS}/paper_a/work/; plot rules only read them.
#
#   paper_a_select (per dataset) -> (beta, r) choice: feeds every later rule (no hand-copied values)
#   paper_a_records (per dataset) -> x_i, B, g per record     paper_a_errors -> exact + sampled errors
#   paper_a_detection -> Table 3 rows    paper_a_growth -> error vs data size    toy figures 1, 2, 3, 4, compiler
#   paper_a_claims -> claims.md          `snakemake paper_a_all` builds all of it.
# Figures: the generic plot rule (workflow/rules/plots.smk) builds every catalogue item with a `plot:` section
# (workflow/report/catalogue.yaml); their rules keep the names the catalogue gives (paper_a_fig1, ...).

PA = config["paper_a"]
PA_OUT = f"{RESULTS}/paper_a"
PA_TAB = f"{PA_OUT}/tables"
PA_WORK = f"{PA_OUT}/work"
PA_CAPTION = "../report/paper_a_{}.rst"


from privanomaly.paper_a import workflow_checks as _pa_checks

check_dataset_names(PA["datasets"], "paper_a.datasets")
check_dataset_names([PA["fig2"]["dataset"]], "paper_a.fig2.dataset")
check_dataset_names([PA["compiler"]["dataset"]], "paper_a.compiler.dataset")
_pa_checks.check_config(PA, unavailable_datasets())

# dataset sets of paper A (privanomaly.paper_a.workflow_checks.sets); the catalogue names them too
PA_SETS = _pa_checks.sets(
    PA, available_datasets(PA["datasets"]), unavailable_datasets()
)
PA_DATASETS, PA_MISSING = PA_SETS["paper_a.tables"], PA_SETS["paper_a.missing"]
PA_PAPER_DATASETS = PA_SETS["paper_a.paper_datasets"]
PA_YOURS = PA_SETS["paper_a.yours"]
PA_GROWTH, PA_SELECTED = PA_SETS["paper_a.growth"], PA_SETS["paper_a.selected"]
PA_COMPILER_SETS = PA_SETS["paper_a.compiler_sets"]
PA_FIG2_DATA = PA["fig2"]["dataset"]
PA_K_SENSITIVE = sorted(set(PA["k_grid"]) | set(PA["fig3"]["k_values"]))
# scale runs only (.scale/config.yaml): {dataset: "stand-in data: ..."} carried by every table/figure/claim
PA_STAND_IN = stand_in_notes(PA_SELECTED)
PA_EPS_MIN = min(PA["eps_grid"] + [PA["fig2"]["eps"], PA["compiler"]["eps"]])

for _n, _why in PA_MISSING.items():
    print(f"paper_a: {_n} left out of the tables ({_why})", file=sys.stderr)


wildcard_constraints:
    pa_dataset="[A-Za-z][A-Za-z0-9_]*",


# Every final paper-A file (tables, figures, claims.md): the files of the catalogue's paper-A items
# (CATALOGUE_ITEMS: common.smk); called by `rule all` in the Snakefile.
paper_a_targets = lambda: [
    f"{RESULTS}/{f}" for f in _catalogue.paper_files(CATALOGUE_ITEMS, "A")
]


rule paper_a_all:
    """Everything of paper A: `snakemake --cores 8 paper_a_all`."""
    input:
        paper_a_targets(),
        run_records(),
    localrule: True


rule paper_a_select:
    """(beta, r) by the documented selection protocol (max F1 vs labels); feeds every later rule."""
    input:
        data=f"{RESULTS}/data/{{pa_dataset}}.parquet",
    output:
        surface=f"{PA_WORK}/selection/{{pa_dataset}}.csv",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    log:
        f"{LOGS}/paper_a_select/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_select/{{pa_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    threads: 2
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        selection=PA["selection"],
        betas=lambda wc: (
            PA["fig2"]["betas"]
            if wc.pa_dataset == PA_FIG2_DATA
            else PA["selection"]["betas"]
        ),
        metric=PA["metric"],
        seed=config["seed"],
    script:
        "../../scripts/paper_a_select.py"


rule paper_a_records:
    """Per record: duplicates x_i, ball count B (capped where errors are < 2^-60) and g(i, x)."""
    input:
        data=f"{RESULTS}/data/{{pa_dataset}}.parquet",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    output:
        records=f"{PA_WORK}/records/{{pa_dataset}}.parquet",
    log:
        f"{LOGS}/paper_a_records/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_records/{{pa_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    threads: 2
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        eps_min=PA_EPS_MIN,
        metric=PA["metric"],
    script:
        "../../scripts/paper_a_records.py"


rule paper_a_errors:
    """Exact SP/DP errors over the eps and k grids, their summaries, sampled trials, ranked anomalies."""
    input:
        records=f"{PA_WORK}/records/{{pa_dataset}}.parquet",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    output:
        exact=f"{PA_WORK}/errors/{{pa_dataset}}_exact.parquet",
        summary=f"{PA_WORK}/errors/{{pa_dataset}}_summary.csv",
        trials=f"{PA_WORK}/errors/{{pa_dataset}}_trials.csv",
        ranked=f"{PA_WORK}/errors/{{pa_dataset}}_ranked.csv",
        sensitive=f"{PA_WORK}/errors/{{pa_dataset}}_sensitive.csv",
    log:
        f"{LOGS}/paper_a_errors/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_errors/{{pa_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        eps_grid=PA["eps_grid"],
        k_grid=PA["k_grid"],
        eps_ref=PA["eps_ref"],
        k_main=PA["k_main"],
        mechanisms=PA["mechanisms"]["errors"],
        k_sensitive=PA_K_SENSITIVE,
        n_trials=PA["n_trials"],
        ci_level=PA["ci_level"],
        seed=config["seed"],
    script:
        "../../scripts/paper_a_errors.py"


rule paper_a_detection:
    """Table 3 rows of one dataset: private mechanisms (exact) + PyOD references."""
    input:
        data=f"{RESULTS}/data/{{pa_dataset}}.parquet",
        records=f"{PA_WORK}/records/{{pa_dataset}}.parquet",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    output:
        csv=f"{PA_WORK}/detection/{{pa_dataset}}.csv",
    log:
        f"{LOGS}/paper_a_detection/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_detection/{{pa_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=60,
    params:
        eps_ref=PA["eps_ref"],
        k_main=PA["k_main"],
        mechanisms=PA["mechanisms"]["detection"],
        pyod=PA["pyod"],
        pyod_max_fit_rows=PA["pyod_max_fit_rows"],
        seed=config["seed"],
    script:
        "../../scripts/paper_a_detection.py"


rule paper_a_growth:
    """Exact SP/DP error on anomalies for nested subsamples of one dataset."""
    input:
        data=f"{RESULTS}/data/{{pa_dataset}}.parquet",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    output:
        csv=f"{PA_WORK}/growth/{{pa_dataset}}.csv",
    log:
        f"{LOGS}/paper_a_growth/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_growth/{{pa_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    threads: 2
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        sizes=PA["growth"]["sizes"],
        eps_ref=PA["eps_ref"],
        k_main=PA["k_main"],
        metric=PA["metric"],
        seed=config["seed"],
    script:
        "../../scripts/paper_a_growth.py"


rule paper_a_fig1_data:
    """Figure 1 data: feasible (error on x, error on y) under eps-DP; 1/(1+e^eps) against eps."""
    output:
        frontier=f"{PA_WORK}/fig1/frontier.csv",
        minerr=f"{PA_WORK}/fig1/min_worst_error.csv",
    log:
        f"{LOGS}/paper_a_fig1_data/all.log",
    benchmark:
        f"{BENCH}/paper_a_fig1_data/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        eps_values=PA["fig1"]["eps_values"],
        eps_max=PA["fig1"]["eps_max"],
    script:
        "../../scripts/paper_a_fig1_data.py"


rule paper_a_fig23_data:
    """Figures 2-3 data: per-record accuracy and privacy level on the 2-D mixture, density grid."""
    input:
        data=f"{RESULTS}/data/{PA_FIG2_DATA}.parquet",
        records=f"{PA_WORK}/records/{PA_FIG2_DATA}.parquet",
        choice=f"{PA_WORK}/selection/{PA_FIG2_DATA}.json",
    output:
        records=f"{PA_WORK}/fig23/records.csv",
        density=f"{PA_WORK}/fig23/density.csv",
        sensitive=f"{PA_WORK}/fig23/sensitive.csv",
    log:
        f"{LOGS}/paper_a_fig23_data/all.log",
    benchmark:
        f"{BENCH}/paper_a_fig23_data/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        dataset=PA_FIG2_DATA,
        eps=PA["fig2"]["eps"],
        k=PA["fig2"]["k"],
        k_values=PA["fig3"]["k_values"],
        density_grid=PA["fig2"]["density_grid"],
    script:
        "../../scripts/paper_a_fig23_data.py"


rule paper_a_fig4_data:
    """Figure 4 data: databases around a centre histogram, edges of G and of the k-sensitive G_S."""
    output:
        nodes=f"{PA_WORK}/fig4/nodes.csv",
        edges=f"{PA_WORK}/fig4/edges.csv",
    log:
        f"{LOGS}/paper_a_fig4_data/all.log",
    benchmark:
        f"{BENCH}/paper_a_fig4_data/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        center=PA["fig4"]["center"],
        beta=PA["fig4"]["beta"],
        r=PA["fig4"]["r"],
        k=PA["fig4"]["k"],
        hops=PA["fig4"]["hops"],
    script:
        "../../scripts/paper_a_fig4_data.py"


rule paper_a_compiler_data:
    """Compiler data of one dataset: constant-error eps/2-DP input vs compiled SP error, every record."""
    input:
        records=f"{PA_WORK}/records/{{pa_dataset}}.parquet",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    output:
        csv=f"{PA_WORK}/compiler/{{pa_dataset}}.csv",
    log:
        f"{LOGS}/paper_a_compiler_data/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_compiler_data/{{pa_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        dataset=lambda wc: wc.pa_dataset,
        eps=PA["compiler"]["eps"],
        k=PA["compiler"]["k"],
    script:
        "../../scripts/paper_a_compiler_data.py"


rule paper_a_claims:
    """claims.md: each claim of paper A with this run's evidence and PASS/FAIL."""
    input:
        summaries=expand(f"{PA_WORK}/errors/{{d}}_summary.csv", d=PA_DATASETS),
        trials=expand(f"{PA_WORK}/errors/{{d}}_trials.csv", d=PA_DATASETS),
        sensitive=[
            *expand(f"{PA_WORK}/errors/{{d}}_sensitive.csv", d=PA_DATASETS),
            f"{PA_WORK}/fig23/sensitive.csv",
        ],
        detection=expand(f"{PA_WORK}/detection/{{d}}.csv", d=PA_DATASETS),
        growth=f"{PA_TAB}/growth.csv",
        compiler=expand(f"{PA_WORK}/compiler/{{d}}.csv", d=PA_COMPILER_SETS),
        sweep=lambda wc: claims_sweep_table(),
    output:
        md=report(
            f"{PA_OUT}/claims.md",
            caption=PA_CAPTION.format("claims"),
            category="Paper A",
            subcategory="Claims",
        ),
        csv=f"{PA_TAB}/claims.csv",
        tmd=f"{PA_TAB}/claims.md",
    log:
        f"{LOGS}/paper_a_claims/all.log",
    benchmark:
        f"{BENCH}/paper_a_claims/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        stand_in=PA_STAND_IN,
        cfg=PA,
        datasets=PA_DATASETS,
        paper_datasets=PA_PAPER_DATASETS,
        missing=PA_MISSING,
        not_evaluated={
            "A4": {
                n: "not in paper_a.growth.datasets (no growth curve in this run)"
                for n in PA_DATASETS
                if n not in PA_GROWTH
            }
        },
        sweep=lambda wc: claims_sweep_name(),
    script:
        "../../scripts/paper_a_claims.py"
