# Sweeps over eps, k, beta and r (issue 14): a named sweep in config `sweeps:` = datasets x mechanisms x grid.
# Outputs under {RESULTS}/sweeps/<sweep>/: sweep.parquet (+ .csv), the tidy long table, and figures.
#
#   paper_a kind: sweep_counts (per dataset, r, metric: ball counts of every record + absent query points,
#                 shared by every eps, k, beta, mechanism) -> sweep_point (one job per grid point
#                 dataset x beta x r x k x eps, snakemake.utils.Paramspace; every mechanism inside it)
#                 -> sweep_collect -> sweep_plot (error_vs_eps, gain)
#   paper_b kind: sweep_b_point (one job per dataset x k x r: sigma over eps/convention/bound, top-h over
#                 h/eps/subspace dim) -> sweep_collect -> sweep_plot (sigma_ratio, top_h)
# Adding a value to a grid adds jobs and leaves every finished one untouched (file names carry only the
# point's own values; tests/test_sweeps_workflow.py checks the dry-run). Design and per-job overhead:
# benchmarks/bench_sweeps.md. Helpers: privanomaly.sweeps.


include: "sweeps_common.smk"


rule sweeps_all:
    """Every sweep of config `sweeps:`: `snakemake --cores 2 sweeps_all`."""
    input:
        sweep_targets(),
    localrule: True


rule sweep_counts:
    """Ball counts of every record and of the absent query points at one r: shared by the whole grid."""
    input:
        data=f"{RESULTS}/data/{{dataset}}.parquet",
    output:
        counts=f"{SW_OUT}/{{sweep}}/counts/{{dataset}}/{{ballkey}}.parquet",
    log:
        f"{LOGS}/sweep_counts/{{sweep}}/{{dataset}}/{{ballkey}}.log",
    benchmark:
        f"{BENCH}/sweep_counts/{{sweep}}/{{dataset}}/{{ballkey}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW_A),
        dataset="[A-Za-z][A-Za-z0-9_]*",
        ballkey=f"(beta~[0-9]+_)?r~{_sw_spec.R_TOKEN}",
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        r_kind=lambda wc: SWEEPS[wc.sweep].r_kind,
        metric=lambda wc: SWEEPS[wc.sweep].metric,
        n_absent=lambda wc: SWEEPS[wc.sweep].n_absent,
        cap=lambda wc: sweep_cap(wc.sweep),
        seed=config["seed"],
    script:
        "../../scripts/sweep_counts.py"


rule sweep_point:
    """One grid point (dataset, beta, r, k, eps): exact errors, precision/recall and claim of every mechanism."""
    input:
        counts=sweep_counts_file,
    output:
        point=f"{SW_OUT}/{{sweep}}/points/{SW_POINT_PATTERN}.parquet",
    log:
        f"{LOGS}/sweep_point/{{sweep}}/{SW_POINT_PATTERN}.log",
    benchmark:
        f"{BENCH}/sweep_point/{{sweep}}/{SW_POINT_PATTERN}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW_A),
        dataset="[A-Za-z][A-Za-z0-9_]*",
        beta="[0-9]+",
        r=_sw_spec.R_TOKEN,
        k="[0-9]+",
        eps=_sw_spec.NUMBER,
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        mechanisms=lambda wc: list(SWEEPS[wc.sweep].mechanisms),
        cap=lambda wc: sweep_cap(wc.sweep),
    script:
        "../../scripts/sweep_point.py"


rule sweep_b_point:
    """Paper B at one (dataset, k, r): sigma_Global/sigma_Smooth over eps, bounds, conventions; top-h P/R."""
    input:
        data=f"{RESULTS}/data/{{dataset}}.parquet",
    output:
        point=f"{SW_OUT}/{{sweep}}/bpoints/{SW_BPOINT_PATTERN}.parquet",
    log:
        f"{LOGS}/sweep_b_point/{{sweep}}/{SW_BPOINT_PATTERN}.log",
    benchmark:
        f"{BENCH}/sweep_b_point/{{sweep}}/{SW_BPOINT_PATTERN}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW_B),
        dataset="[A-Za-z][A-Za-z0-9_]*",
        r=_sw_spec.R_TOKEN,
        k="[0-9]+",
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        eps=lambda wc: list(SWEEPS[wc.sweep].eps),
        delta=lambda wc: SWEEPS[wc.sweep].delta,
        conventions=lambda wc: list(SWEEPS[wc.sweep].conventions),
        methods=lambda wc: list(SWEEPS[wc.sweep].methods),
        h=lambda wc: list(SWEEPS[wc.sweep].h),
        subspace_dims=lambda wc: list(SWEEPS[wc.sweep].subspace_dims),
        max_subspaces=lambda wc: SWEEPS[wc.sweep].max_subspaces,
        r_kind=lambda wc: SWEEPS[wc.sweep].r_kind,
        fast_exact_max=config["paper_b"]["fast_exact_max"],
        max_work=lambda wc: sweep_or_scenario1(wc.sweep, "max_work"),
        timeout=config["paper_b"]["scenario1"]["timeout_seconds"],
        true_subspace=config["paper_b"]["scenario2"]["true_subspace"],
        sensitivity=config["paper_b"]["scenario2"]["utility_sensitivity"],
    script:
        "../../scripts/sweep_b_point.py"


rule sweep_collect:
    """One tidy long table per sweep: every point's rows with the grid values as columns."""
    input:
        points=sweep_point_files,
    output:
        parquet=report(
            f"{SW_OUT}/{{sweep}}/sweep.parquet",
            caption=SW_CAPTION.format("table"),
            category="Sweeps",
            subcategory="{sweep}",
        ),
        csv=f"{SW_OUT}/{{sweep}}/sweep.csv",
    log:
        f"{LOGS}/sweep_collect/{{sweep}}.log",
    benchmark:
        f"{BENCH}/sweep_collect/{{sweep}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW_A + SW_B),
    conda:
        "../../envs/privanomaly.yaml"
    params:
        sweep=lambda wc: wc.sweep,
        kind=lambda wc: SWEEPS[wc.sweep].kind,
        r_kind=lambda wc: SWEEPS[wc.sweep].r_kind,
    script:
        "../../scripts/sweep_collect.py"


rule sweep_plot:
    """Figures of one sweep from its tidy table only (paper A: error vs eps, SP's gain; paper B: sigma, top-h)."""
    input:
        table=f"{SW_OUT}/{{sweep}}/sweep.parquet",
    output:
        png=report(
            f"{SW_OUT}/{{sweep}}/figures/{{figure}}.png",
            caption=SW_CAPTION.format("figure"),
            category="Sweeps",
            subcategory="{sweep}",
        ),
        pdf=f"{SW_OUT}/{{sweep}}/figures/{{figure}}.pdf",
    log:
        f"{LOGS}/sweep_plot/{{sweep}}/{{figure}}.log",
    benchmark:
        f"{BENCH}/sweep_plot/{{sweep}}/{{figure}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW_A + SW_B),
        figure="error_vs_eps|gain|sigma_ratio|top_h",
    conda:
        "../../envs/privanomaly.yaml"
    params:
        figure=lambda wc: wc.figure,
    script:
        "../../scripts/sweep_plot.py"
