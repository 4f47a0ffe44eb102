# Paper B - Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers" (issue 7).
# Every figure and table of the paper, computed from {RESULTS}/data/{dataset}.parquet; outputs under
# {RESULTS}/paper_b/{tables,figures}/ and {RESULTS}/paper_b/comparison.md. Compute rules write tidy CSV;
# figures are catalogue items (generic plot rule, plots.smk). Parameters: config["paper_b"], through params.

PB = config["paper_b"]
PB_OUT = f"{RESULTS}/paper_b"
PB_TAB = f"{PB_OUT}/tables"


from privanomaly.paper_b import readings as _pb_readings
from privanomaly.paper_b import workflow as _pb_wf

_pb_wf.check_config(PB)
check_dataset_names(list(PB["datasets"]), "paper_b.datasets")
# the dataset/method sets the catalogue's paper-B items expand over (privanomaly.paper_b.workflow.sets)
PB_SETS = _pb_wf.sets(PB, available_datasets(list(PB["datasets"])))
PB_S1, PB_S2 = PB_SETS["paper_b.scenario1"], PB_SETS["paper_b.scenario2"]
PB_TABLE1, PB_TABLE2 = PB_SETS["paper_b.table1"], PB_SETS["paper_b.table2"]
PB_TABLE_SETS, PB_METHODS = PB_SETS["paper_b.table_sets"], PB_SETS["paper_b.methods"]
PB_CAPTION = "../report/paper_b_{}.rst"
# Readings (issue 18): ours writes {PB_OUT}/{tables,figures}; each variant (paper's r, printed exponent)
# writes the same files under {PB_OUT}/<reading>/ - wildcard pb_reading is that prefix ("" = ours).
PB_PAPER_R = PB["paper_reported"].get("r", {})
PB_READINGS = [_pb_readings.OURS, *_pb_readings.variants(list(PB.get("readings", [])))]
PB_R_READINGS = [rd for rd in PB_READINGS if rd.r_only]
pb_reading = lambda wc: _pb_readings.by_prefix(wc.pb_reading)
# where a reading's r lives: our tuning (paper_b_tune_r) or the paper's printed r (paper_b_paper_r)
pb_choice = lambda wc: f"{PB_OUT}/{pb_reading(wc).r_prefix}tuning/{wc.pb_dataset}.json"
pb_table_sets = lambda wc, names: _pb_readings.with_r(pb_reading(wc), names, PB_PAPER_R)
# per reading: what it is and the tables paper_b_comparison reads of it (privanomaly.paper_b.workflow)
PB_READINGS_PLAN = _pb_wf.readings_plan(PB_OUT, PB, PB_SETS)
pb_subcategory = lambda name: lambda wc: name + pb_reading(wc).suffix

# Every final paper-B file: the catalogue's paper-B items over PB_SETS; called by `rule all` in the Snakefile.
paper_b_targets = lambda: [
    f"{RESULTS}/{f}" for f in _catalogue.paper_files(CATALOGUE_ITEMS, "B", PB_SETS)
]


wildcard_constraints:
    pb_dataset="[A-Za-z][A-Za-z0-9_]*",
    pb_method="paper|fast",
    pb_reading=_pb_readings.regex(PB_READINGS),


rule paper_b_all:
    """Everything of paper B from the data: `snakemake --cores 2 paper_b_all`."""
    input:
        paper_b_targets(),
        run_records(),
    localrule: True


rule paper_b_tune_r:
    """Radius r maximising eq. (53) accuracy on the r grid (Tables 1-2); feeds every later rule."""
    input:
        data=f"{RESULTS}/data/{{pb_dataset}}.parquet",
    output:
        curve=f"{PB_OUT}/tuning/{{pb_dataset}}.csv",
        choice=f"{PB_OUT}/tuning/{{pb_dataset}}.json",
    log:
        f"{LOGS}/paper_b_tune_r/{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_tune_r/{{pb_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        k=PB["k"],
        r_grid=PB["tuning"]["r_grid"],
        tie_break=PB["tuning"]["tie_break"],
        space=lambda wc: PB["tuning"]["space"].get(wc.pb_dataset, "full"),
        paper_r=lambda wc: PB["paper_reported"].get("r", {}).get(wc.pb_dataset),
    script:
        "../../scripts/paper_b_tune_r.py"


rule paper_b_paper_r:
    """The paper's printed r (paper_b.paper_reported.r) as a tuning record: the r of the 'paper_r' readings."""
    input:
        data=f"{RESULTS}/data/{{pb_dataset}}.parquet",
    output:
        choice=f"{PB_OUT}/{_pb_readings.R_PREFIX['paper']}tuning/{{pb_dataset}}.json",
    log:
        f"{LOGS}/paper_b_paper_r/{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_paper_r/{{pb_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        k=PB["k"],
        space=lambda wc: PB["tuning"]["space"].get(wc.pb_dataset, "full"),
        r=lambda wc: PB_PAPER_R.get(wc.pb_dataset),
    script:
        "../../scripts/paper_b_paper_r.py"


rule paper_b_tables:
    """Tables 1 and 2: sizes, dimension, k and our tuned r (or, per reading, the paper's r) next to the paper's."""
    input:
        data=lambda wc: expand(
            f"{RESULTS}/data/{{d}}.parquet", d=pb_table_sets(wc, PB_TABLE_SETS)
        ),
        choices=lambda wc: expand(
            f"{PB_OUT}/{wc.pb_reading}tuning/{{d}}.json",
            d=pb_table_sets(wc, PB_TABLE_SETS),
        ),
    output:
        csv1=report(
            f"{PB_OUT}/{{pb_reading}}tables/table1.csv",
            caption=PB_CAPTION.format("tables"),
            category="Paper B",
            subcategory=pb_subcategory("Tables 1-2"),
        ),
        md1=f"{PB_OUT}/{{pb_reading}}tables/table1.md",
        csv2=report(
            f"{PB_OUT}/{{pb_reading}}tables/table2.csv",
            caption=PB_CAPTION.format("tables"),
            category="Paper B",
            subcategory=pb_subcategory("Tables 1-2"),
        ),
        md2=f"{PB_OUT}/{{pb_reading}}tables/table2.md",
    log:
        f"{LOGS}/paper_b_tables/{{pb_reading}}all.log",
    benchmark:
        f"{BENCH}/paper_b_tables/{{pb_reading}}all.tsv"
    wildcard_constraints:
        pb_reading=_pb_readings.regex(PB_R_READINGS),
    conda:
        "../../envs/privanomaly.yaml"
    params:
        datasets=lambda wc: pb_table_sets(wc, PB_TABLE_SETS),
        table1=lambda wc: pb_table_sets(wc, PB_TABLE1),
        table2=lambda wc: pb_table_sets(wc, PB_TABLE2),
        names=PB["datasets"],
        k=PB["k"],
        paper=PB["paper_reported"],
    script:
        "../../scripts/paper_b_tables.py"


rule paper_b_gs_bounds:
    """Figure 1 data: lower/upper bounds of GS_{q_count,d}(k) (eq. 18) for d = 1..d_max."""
    output:
        csv=f"{PB_TAB}/fig1_gs_bounds.csv",
        md=f"{PB_TAB}/fig1_gs_bounds.md",
    log:
        f"{LOGS}/paper_b_gs_bounds/all.log",
    benchmark:
        f"{BENCH}/paper_b_gs_bounds/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        k=PB["k"],
        d_max=PB["fig1"]["d_max"],
        N=PB["fig1"]["N"],
    script:
        "../../scripts/paper_b_gs_bounds.py"


rule paper_b_kissing:
    """Figure 2 data: the 2-D kissing construction placed and its outliers counted before/after."""
    output:
        counts=f"{PB_TAB}/fig2_kissing_counts.csv",
        counts_md=f"{PB_TAB}/fig2_kissing_counts.md",
        points=f"{PB_TAB}/fig2_kissing_points.csv",
    log:
        f"{LOGS}/paper_b_kissing/all.log",
    benchmark:
        f"{BENCH}/paper_b_kissing/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        k_values=PB["fig2"]["k_values"],
        plot_k=PB["fig2"]["plot_k"],
    script:
        "../../scripts/paper_b_kissing.py"


rule paper_b_scenario1:
    """Figures 3/4 data: true count, sigma_Global, sigma_Smooth per eps and noise convention (at the reading's r)."""
    input:
        data=f"{RESULTS}/data/{{pb_dataset}}.parquet",
        choice=pb_choice,
    output:
        csv=f"{PB_OUT}/{{pb_reading}}tables/scenario1_{{pb_dataset}}_{{pb_method}}.csv",
        md=f"{PB_OUT}/{{pb_reading}}tables/scenario1_{{pb_dataset}}_{{pb_method}}.md",
    log:
        f"{LOGS}/paper_b_scenario1/{{pb_reading}}{{pb_dataset}}_{{pb_method}}.log",
    benchmark:
        f"{BENCH}/paper_b_scenario1/{{pb_reading}}{{pb_dataset}}_{{pb_method}}.tsv"
    wildcard_constraints:
        pb_reading=_pb_readings.regex(PB_R_READINGS),
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        k=PB["k"],
        delta=PB["delta"],
        eps=PB["scenario1"]["eps"],
        conventions=PB["scenario1"]["conventions"],
        max_work=PB["scenario1"]["max_work"],
        fast_exact_max=PB["fast_exact_max"],
        timeout=PB["scenario1"]["timeout_seconds"],
    script:
        "../../scripts/paper_b_scenario1.py"


rule paper_b_scenario2:
    """Figures 5-7 data: per-subspace counts and truth, then precision/recall of Algorithm 3."""
    input:
        data=f"{RESULTS}/data/{{pb_dataset}}.parquet",
        choice=pb_choice,
    output:
        subspaces=f"{PB_OUT}/{{pb_reading}}tables/scenario2_subspaces_{{pb_dataset}}.csv",
        subspaces_md=f"{PB_OUT}/{{pb_reading}}tables/scenario2_subspaces_{{pb_dataset}}.md",
        sweep=f"{PB_OUT}/{{pb_reading}}tables/scenario2_pr_{{pb_dataset}}.csv",
        sweep_md=f"{PB_OUT}/{{pb_reading}}tables/scenario2_pr_{{pb_dataset}}.md",
    log:
        f"{LOGS}/paper_b_scenario2/{{pb_reading}}{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_scenario2/{{pb_reading}}{{pb_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        seed=config["seed"],
        k=PB["k"],
        dim=PB["scenario2"]["subspace_dim"],
        eps=PB["scenario2"]["eps"],
        h=PB["scenario2"]["h"],
        n_trials=PB["scenario2"]["n_trials"],
        true_subspace=PB["scenario2"]["true_subspace"],
        sensitivity=PB["scenario2"]["utility_sensitivity"],
        exact=PB["scenario2"]["exact"],
        exponent=lambda wc: pb_reading(wc).exponent,
    script:
        "../../scripts/paper_b_scenario2.py"


rule paper_b_timing:
    """Beyond the paper, a benchmark (machine-dependent): Algorithm 2 (under a time budget) vs the fast bound."""
    input:
        data=f"{RESULTS}/data/{{pb_dataset}}.parquet",
        choice=f"{PB_OUT}/tuning/{{pb_dataset}}.json",
    output:
        csv=f"{PB_OUT}/timing/{{pb_dataset}}.csv",
    log:
        f"{LOGS}/paper_b_timing/{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_timing/{{pb_dataset}}.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        k=PB["k"],
        delta=PB["delta"],
        eps=PB["timing"]["eps"],
        budget=PB["timing"]["budget_seconds"],
        fast_exact_max=PB["fast_exact_max"],
    script:
        "../../scripts/paper_b_timing.py"


rule paper_b_comparison:
    """comparison.md: every number and claim of the paper next to ours, MATCH / DIFFERS with the reason."""
    input:
        table1=f"{PB_TAB}/table1.csv",
        table2=f"{PB_TAB}/table2.csv",
        fig1=f"{PB_TAB}/fig1_gs_bounds.csv",
        fig2=f"{PB_TAB}/fig2_kissing_counts.csv",
        scenario1=expand(f"{PB_TAB}/scenario1_{{d}}_{{m}}.csv", d=PB_S1, m=PB_METHODS),
        scenario2=expand(f"{PB_TAB}/scenario2_pr_{{d}}.csv", d=PB_S2),
        subspaces=expand(f"{PB_TAB}/scenario2_subspaces_{{d}}.csv", d=PB_S2),
        timing=f"{PB_TAB}/smooth_timing.csv",
        # every table of every reading (ours included: its tuning JSONs), as listed in params.readings
        readings=[
            f
            for rd in PB_READINGS_PLAN.values()
            for f in _pb_wf.flat_files(rd["inputs"])
        ],
    output:
        md=report(
            f"{PB_OUT}/comparison.md",
            caption=PB_CAPTION.format("comparison"),
            category="Paper B",
            subcategory="Comparison",
        ),
        csv=f"{PB_TAB}/comparison.csv",
        table_md=f"{PB_TAB}/comparison.md",
        readings_csv=report(
            f"{PB_TAB}/comparison_readings.csv",
            caption=PB_CAPTION.format("comparison_readings"),
            category="Paper B",
            subcategory="Comparison",
        ),
        readings_md=f"{PB_TAB}/comparison_readings.md",
    log:
        f"{LOGS}/paper_b_comparison/all.log",
    benchmark:
        f"{BENCH}/paper_b_comparison/all.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        k=PB["k"],
        names=PB["datasets"],
        scenario1=PB_S1,
        scenario2=PB_S2,
        paper=PB["paper_reported"],
        delta=PB["delta"],
        readings=PB_READINGS_PLAN,
    script:
        "../../scripts/paper_b_comparison.py"
