# Paper B - Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers": every figure and
# table from the prepared tables, under {RESULTS}/paper_b/; figures are catalogue items (report.smk).
# Readings: each variant (the paper's r, its printed exponent) writes the same files under
# {RESULTS}/paper_b/<reading>/ - wildcard pb_reading is that prefix ("" = ours). Parameters: config["paper_b"].
#
#   paper_b_tune_r (per dataset) -> r by eq. (53) accuracy   paper_b_paper_r -> the paper's printed r
#   paper_b_tables -> Tables 1-2   paper_b_gs_bounds, paper_b_kissing -> Figures 1-2
#   paper_b_scenario1 -> Figures 3-4   paper_b_scenario2 -> Figures 5-7   paper_b_timing   paper_b_comparison


wildcard_constraints:
    pb_dataset="[A-Za-z][A-Za-z0-9_]*",
    pb_method=PB_METHOD_REGEX,
    pb_reading=pb_readings.regex(pb_plan.readings(PB)),


rule paper_b_all:
    """Everything of paper B from the data: `snakemake --cores 2 paper_b_all`."""
    input:
        paper_b_targets(),
        latex.tex_paths(paper_b_targets()),
        run_records(),
    localrule: True


rule paper_b_tune_r:
    """Radius r maximising eq. (53) accuracy on the r grid (Tables 1-2); feeds every later rule."""
    input:
        data=get_data_table,
    output:
        curve=f"{PB_OUT}/tuning/{{pb_dataset}}.csv",
        choice=f"{PB_OUT}/tuning/{{pb_dataset}}.json",
    log:
        f"{LOGS}/paper_b_tune_r/{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_tune_r/{{pb_dataset}}.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        library=library_code("paper_b_tune_r"),
        k=PB["k"],
        r_grid=PB["tuning"]["r_grid"],
        tie_break=PB["tuning"]["tie_break"],
        space=get_tuning_space,
    script:
        "../../scripts/paper_b_tune_r.py"


rule paper_b_paper_r:
    """The paper's printed r (paper_b.paper_reported.r) as a tuning record: the r of the 'paper_r' readings."""
    input:
        data=get_data_table,
    output:
        choice=f"{PB_OUT}/{pb_readings.R_PREFIX['paper']}tuning/{{pb_dataset}}.json",
    log:
        f"{LOGS}/paper_b_paper_r/{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_paper_r/{{pb_dataset}}.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_b_paper_r"),
        k=PB["k"],
        space=get_tuning_space,
        r=get_paper_r,
    script:
        "../../scripts/paper_b_paper_r.py"


rule paper_b_tables:
    """Tables 1 and 2: sizes, dimension, k and our tuned r (or, per reading, the paper's r) next to the paper's."""
    input:
        data=get_tables_data,
        choices=get_tables_choices,
    output:
        csv1=report(
            f"{PB_OUT}/{{pb_reading}}tables/table1.csv",
            caption="../report/paper_b_tables.rst",
            category="Paper B",
            subcategory=get_tables_subcategory,
        ),
        md1=f"{PB_OUT}/{{pb_reading}}tables/table1.md",
        csv2=report(
            f"{PB_OUT}/{{pb_reading}}tables/table2.csv",
            caption="../report/paper_b_tables.rst",
            category="Paper B",
            subcategory=get_tables_subcategory,
        ),
        md2=f"{PB_OUT}/{{pb_reading}}tables/table2.md",
    log:
        f"{LOGS}/paper_b_tables/{{pb_reading}}all.log",
    benchmark:
        f"{BENCH}/paper_b_tables/{{pb_reading}}all.tsv"
    wildcard_constraints:
        pb_reading=pb_plan.r_readings_regex(PB),
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_b_tables"),
        datasets=reading_datasets(PB_SETS.table_sets),
        table1=reading_datasets(PB_SETS.table1),
        table2=reading_datasets(PB_SETS.table2),
        names=PB["datasets"],
        k=PB["k"],
        paper=PB["paper_reported"],
    script:
        "../../scripts/paper_b_tables.py"


rule paper_b_gs_bounds:
    """Figure 1 data: lower/upper bounds of GS_{q_count,d}(k) (eq. 18) for d = 1..d_max."""
    output:
        csv=f"{PB_OUT}/tables/fig1_gs_bounds.csv",
        md=f"{PB_OUT}/tables/fig1_gs_bounds.md",
    log:
        f"{LOGS}/paper_b_gs_bounds/all.log",
    benchmark:
        f"{BENCH}/paper_b_gs_bounds/all.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_b_gs_bounds"),
        k=PB["k"],
        d_max=PB["fig1"]["d_max"],
        N=PB["fig1"]["N"],
    script:
        "../../scripts/paper_b_gs_bounds.py"


rule paper_b_kissing:
    """Figure 2 data: the 2-D kissing construction placed and its outliers counted before/after."""
    output:
        counts=f"{PB_OUT}/tables/fig2_kissing_counts.csv",
        counts_md=f"{PB_OUT}/tables/fig2_kissing_counts.md",
        points=f"{PB_OUT}/tables/fig2_kissing_points.csv",
    log:
        f"{LOGS}/paper_b_kissing/all.log",
    benchmark:
        f"{BENCH}/paper_b_kissing/all.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_b_kissing"),
        k_values=PB["fig2"]["k_values"],
        plot_k=PB["fig2"]["plot_k"],
    script:
        "../../scripts/paper_b_kissing.py"


# paper_b.scenario1.timeout_seconds is read from snakemake.config in the script, not passed as a param: a
# safety net that fails a job, never changes a table, so raising it must not rerun the tables that finished.
rule paper_b_scenario1:
    """Figures 3/4 data: true count, sigma_Global, sigma_Smooth per eps and noise convention (at the reading's r)."""
    input:
        data=get_data_table,
        choice=get_choice,
        provenance=get_data_provenance,
    output:
        csv=f"{PB_OUT}/{{pb_reading}}tables/scenario1_{{pb_dataset}}_{{pb_method}}.csv",
        md=f"{PB_OUT}/{{pb_reading}}tables/scenario1_{{pb_dataset}}_{{pb_method}}.md",
    log:
        f"{LOGS}/paper_b_scenario1/{{pb_reading}}{{pb_dataset}}_{{pb_method}}.log",
    benchmark:
        f"{BENCH}/paper_b_scenario1/{{pb_reading}}{{pb_dataset}}_{{pb_method}}.tsv"
    wildcard_constraints:
        pb_reading=pb_plan.r_readings_regex(PB),
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        library=library_code("paper_b_scenario1"),
        k=PB["k"],
        delta=PB["delta"],
        eps=PB["scenario1"]["eps"],
        conventions=PB["scenario1"]["conventions"],
        bound=get_scenario1_bound,
    script:
        "../../scripts/paper_b_scenario1.py"


rule paper_b_scenario2:
    """Figures 5-7 data: per-subspace counts and truth, then precision/recall of Algorithm 3."""
    input:
        data=get_data_table,
        choice=get_choice,
    output:
        subspaces=f"{PB_OUT}/{{pb_reading}}tables/scenario2_subspaces_{{pb_dataset}}.csv",
        subspaces_md=f"{PB_OUT}/{{pb_reading}}tables/scenario2_subspaces_{{pb_dataset}}.md",
        sweep=f"{PB_OUT}/{{pb_reading}}tables/scenario2_pr_{{pb_dataset}}.csv",
        sweep_md=f"{PB_OUT}/{{pb_reading}}tables/scenario2_pr_{{pb_dataset}}.md",
    log:
        f"{LOGS}/paper_b_scenario2/{{pb_reading}}{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_scenario2/{{pb_reading}}{{pb_dataset}}.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        library=library_code("paper_b_scenario2"),
        seed=config["seed"],
        k=PB["k"],
        dim=PB["scenario2"]["subspace_dim"],
        eps=PB["scenario2"]["eps"],
        h=PB["scenario2"]["h"],
        n_trials=PB["scenario2"]["n_trials"],
        true_subspace=PB["scenario2"]["true_subspace"],
        sensitivity=PB["scenario2"]["utility_sensitivity"],
        exact=PB["scenario2"]["exact"],
        max_subspaces=PB["scenario2"]["max_subspaces"],
        exponent=get_exponent,
    script:
        "../../scripts/paper_b_scenario2.py"


rule paper_b_timing:
    """Beyond the paper, a benchmark (times machine-dependent): Algorithm 2 (under a work budget) vs the fast bound."""
    input:
        data=get_data_table,
        choice=rules.paper_b_tune_r.output.choice,
    output:
        csv=f"{PB_OUT}/timing/{{pb_dataset}}.csv",
    log:
        f"{LOGS}/paper_b_timing/{{pb_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_b_timing/{{pb_dataset}}.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        library=library_code("paper_b_timing"),
        k=PB["k"],
        delta=PB["delta"],
        eps=PB["timing"]["eps"],
        max_work=PB["timing"]["max_work"],
        fast_exact_max=PB["fast_exact_max"],
    script:
        "../../scripts/paper_b_timing.py"


rule paper_b_comparison:
    """comparison.md: every number and claim of the paper next to ours, MATCH / DIFFERS with the reason."""
    input:
        table1=one_file(rules.paper_b_tables.output.csv1, pb_reading=""),
        table2=one_file(rules.paper_b_tables.output.csv2, pb_reading=""),
        fig1=rules.paper_b_gs_bounds.output.csv,
        fig2=rules.paper_b_kissing.output.counts,
        scenario1=[
            one_file(
                rules.paper_b_scenario1.output.csv,
                pb_reading="",
                pb_dataset=d,
                pb_method=m,
            )
            for d, m in PB_SETS.scenario1_jobs
        ],
        scenario2=expand(
            rules.paper_b_scenario2.output.sweep,
            pb_reading="",
            pb_dataset=PB_SETS.scenario2,
        ),
        subspaces=expand(
            rules.paper_b_scenario2.output.subspaces,
            pb_reading="",
            pb_dataset=PB_SETS.scenario2,
        ),
        timing=f"{PB_OUT}/tables/smooth_timing.csv",
        # every table of every reading (ours: its tuning JSONs)
        readings=pb_plan.readings_files(PB_READINGS_PLAN),
    output:
        md=report(
            f"{PB_OUT}/comparison.md",
            caption="../report/paper_b_comparison.rst",
            category="Paper B",
            subcategory="Comparison",
        ),
        csv=f"{PB_OUT}/tables/comparison.csv",
        table_md=f"{PB_OUT}/tables/comparison.md",
        readings_csv=report(
            f"{PB_OUT}/tables/comparison_readings.csv",
            caption="../report/paper_b_comparison_readings.rst",
            category="Paper B",
            subcategory="Comparison",
        ),
        readings_md=f"{PB_OUT}/tables/comparison_readings.md",
    log:
        f"{LOGS}/paper_b_comparison/all.log",
    benchmark:
        f"{BENCH}/paper_b_comparison/all.tsv"
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_b_comparison"),
        k=PB["k"],
        names=PB["datasets"],
        scenario1=PB_SETS.scenario1,
        scenario2=PB_SETS.scenario2,
        paper=PB["paper_reported"],
        delta=PB["delta"],
        readings=PB_READINGS_PLAN,
    script:
        "../../scripts/paper_b_comparison.py"
