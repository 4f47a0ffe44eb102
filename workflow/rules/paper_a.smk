# Paper A - Asif, Papakonstantinou, Vaidya, "How to Accurately and Privately Identify Anomalies" (CCS'19):
# every figure and table from the prepared tables, under {RESULTS}/paper_a/. Compute rules write tidy tables
# under {RESULTS}/paper_a/work/; the figures and tables built from them are catalogue items
# (workflow/report/catalogue.yaml, rules made in report.smk). Parameters: config["paper_a"] (PA).
#
#   paper_a_select (per dataset) -> (beta, r): feeds every later rule   paper_a_records -> x_i, B, g per record
#   paper_a_errors, paper_a_detection, paper_a_growth, paper_a_compiler_data   figure data: fig1, fig23, fig4
#   paper_a_claims -> claims.md   `snakemake paper_a_all` builds all of it.


wildcard_constraints:
    pa_dataset="[A-Za-z][A-Za-z0-9_]*",


rule paper_a_all:
    """Everything of paper A: `snakemake --cores 8 paper_a_all`."""
    input:
        paper_a_targets(),
        latex.tex_paths(paper_a_targets()),
        run_records(),
    localrule: True


rule paper_a_select:
    """(beta, r) by the documented selection protocol (max F1 vs labels); feeds every later rule."""
    input:
        data=get_data_table,
    output:
        surface=f"{PA_WORK}/selection/{{pa_dataset}}.csv",
        choice=f"{PA_WORK}/selection/{{pa_dataset}}.json",
    log:
        f"{LOGS}/paper_a_select/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_select/{{pa_dataset}}.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    threads: KNN_THREADS
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        library=library_code("paper_a_select"),
        fractions=PA["selection"]["fractions"],
        max_query_rows=PA["selection"]["max_query_rows"],
        betas=get_paper_a_betas,
        metric=PA["metric"],
        seed=config["seed"],
    script:
        "../../scripts/paper_a_select.py"


rule paper_a_records:
    """Per record: duplicates x_i, ball count B (capped where errors are < 2^-60) and g(i, x)."""
    input:
        data=get_data_table,
        choice=rules.paper_a_select.output.choice,
    output:
        records=f"{PA_WORK}/records/{{pa_dataset}}.parquet",
    log:
        f"{LOGS}/paper_a_records/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_records/{{pa_dataset}}.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    threads: KNN_THREADS
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        library=library_code("paper_a_records"),
        eps_min=get_records_eps_min,
        metric=PA["metric"],
    script:
        "../../scripts/paper_a_records.py"


rule paper_a_errors:
    """Exact SP/DP errors over the eps and k grids, their summaries, sampled trials, ranked anomalies."""
    input:
        records=rules.paper_a_records.output.records,
        choice=rules.paper_a_select.output.choice,
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
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        library=library_code("paper_a_errors"),
        eps_grid=PA["eps_grid"],
        k_grid=PA["k_grid"],
        eps_ref=PA["eps_ref"],
        k_main=PA["k_main"],
        mechanisms=PA["mechanisms"]["errors"],
        k_sensitive=pa_plan.k_sensitive(PA),
        n_trials=PA["n_trials"],
        ci_level=PA["ci_level"],
        seed=config["seed"],
    script:
        "../../scripts/paper_a_errors.py"


rule paper_a_detection:
    """Table 3 rows of one dataset: private mechanisms (exact) + PyOD references."""
    input:
        data=get_data_table,
        records=rules.paper_a_records.output.records,
        choice=rules.paper_a_select.output.choice,
    output:
        csv=f"{PA_WORK}/detection/{{pa_dataset}}.csv",
    log:
        f"{LOGS}/paper_a_detection/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_detection/{{pa_dataset}}.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=60,
    params:
        library=library_code("paper_a_detection"),
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
        data=get_data_table,
        choice=rules.paper_a_select.output.choice,
    output:
        csv=f"{PA_WORK}/growth/{{pa_dataset}}.csv",
        grid=f"{PA_WORK}/growth_grid/{{pa_dataset}}.csv",
    log:
        f"{LOGS}/paper_a_growth/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_growth/{{pa_dataset}}.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    threads: KNN_THREADS
    resources:
        mem_mb=8000,
        runtime=30,
    params:
        library=library_code("paper_a_growth"),
        sizes=PA["growth"]["sizes"],
        grid=lambda wc: SW.growth_points(SW_CLAIMS, wc.pa_dataset),
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
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_a_fig1_data"),
        eps_values=PA["fig1"]["eps_values"],
        eps_max=PA["fig1"]["eps_max"],
    script:
        "../../scripts/paper_a_fig1_data.py"


rule paper_a_fig23_data:
    """Figures 2-3 data: per-record accuracy and privacy level on the 2-D mixture, density grid."""
    input:
        data=one_file(rules.prepare.output.parquet, dataset=PA["fig2"]["dataset"]),
        records=one_file(
            rules.paper_a_records.output.records, pa_dataset=PA["fig2"]["dataset"]
        ),
        choice=one_file(
            rules.paper_a_select.output.choice, pa_dataset=PA["fig2"]["dataset"]
        ),
    output:
        records=f"{PA_WORK}/fig23/records.csv",
        density=f"{PA_WORK}/fig23/density.csv",
        sensitive=f"{PA_WORK}/fig23/sensitive.csv",
    log:
        f"{LOGS}/paper_a_fig23_data/all.log",
    benchmark:
        f"{BENCH}/paper_a_fig23_data/all.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_a_fig23_data"),
        dataset=PA["fig2"]["dataset"],
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
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_a_fig4_data"),
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
        records=rules.paper_a_records.output.records,
        choice=rules.paper_a_select.output.choice,
    output:
        csv=f"{PA_WORK}/compiler/{{pa_dataset}}.csv",
    log:
        f"{LOGS}/paper_a_compiler_data/{{pa_dataset}}.log",
    benchmark:
        f"{BENCH}/paper_a_compiler_data/{{pa_dataset}}.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_a_compiler_data"),
        dataset=lambda wc: wc.pa_dataset,
        eps=PA["compiler"]["eps"],
        k=PA["compiler"]["k"],
    script:
        "../../scripts/paper_a_compiler_data.py"


rule paper_a_claims:
    """claims.md: each claim of paper A with this run's evidence and PASS/FAIL."""
    input:
        summaries=expand(rules.paper_a_errors.output.summary, pa_dataset=PA_SETS.tables),
        trials=expand(rules.paper_a_errors.output.trials, pa_dataset=PA_SETS.tables),
        sensitive=[
            *expand(
                rules.paper_a_errors.output.sensitive,
                pa_dataset=PA_SETS.tables,
            ),
            rules.paper_a_fig23_data.output.sensitive,
        ],
        detection=expand(rules.paper_a_detection.output.csv, pa_dataset=PA_SETS.tables),
        growth=f"{RESULTS}/paper_a/tables/growth.csv",
        growth_grid=expand(rules.paper_a_growth.output.grid, pa_dataset=PA_SETS.growth),
        compiler=expand(
            rules.paper_a_compiler_data.output.csv,
            pa_dataset=PA_SETS.compiler_sets,
        ),
        sweep=get_claims_sweep_table,
    output:
        md=report(
            f"{RESULTS}/paper_a/claims.md",
            caption="../report/paper_a_claims.rst",
            category="Paper A",
            subcategory="Claims",
        ),
        csv=f"{RESULTS}/paper_a/tables/claims.csv",
        tmd=f"{RESULTS}/paper_a/tables/claims.md",
    log:
        f"{LOGS}/paper_a_claims/all.log",
    benchmark:
        f"{BENCH}/paper_a_claims/all.tsv"
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("paper_a_claims"),
        stand_in=PA_STAND_IN,
        cfg=pa_plan.claims_settings(PA),
        datasets=PA_SETS.tables,
        paper_datasets=PA_SETS.paper_datasets,
        missing=PA_SETS.missing,
        not_evaluated=pa_plan.not_evaluated(
            PA_SETS,
            SW.claims_sweep(SW_CLAIMS),
            SW.datasets.get(SW.claims_sweep(SW_CLAIMS)),
        ),
        sweep=SW.claims_sweep(SW_CLAIMS),
    script:
        "../../scripts/paper_a_claims.py"
