# Sweeps over eps, k, beta and r: a named sweep in config `sweeps:` = datasets x mechanisms x grid. Outputs
# under {RESULTS}/sweeps/<sweep>/: sweep.parquet (+ .csv), the tidy long table, and figures. The plan is
# privanomaly.sweeps.plan.SweepPlan (SW, common.smk); the grids are privanomaly.sweeps.spec.
#
#   paper_a kind: sweep_counts (one job per batch: ball counts of every record + absent query points at
#                 every (beta, r), shared by every eps, k, mechanism) -> sweep_chunk (one job per batch x part:
#                 blocks of whole eps values, at most sweep_points_per_job (eps, beta, r, k) points, every
#                 mechanism inside: privanomaly.sweeps.partition) -> sweep_collect -> sweep_plot. A batch is
#                 one dataset, or the datasets the sweep's `batches` puts in the same jobs (names joined by '+').
#   paper_b kind: sweep_b_dataset (one job per dataset, every k and r inside: sigma over eps/convention/
#                 bound, the named count mechanisms' noise, top-h over h/eps/subspace dim) -> sweep_collect
#                 -> sweep_plot (sigma_ratio, noise_vs_eps, top_h)
# Appending an eps reruns only each dataset's last block (or adds one); adding a beta, r or k reruns the
# chunks whose point list changed (their params). tests/test_sweeps_workflow.py checks the dry-run.
# On a cluster a sweep is part of its paper's submission (group paper_a or paper_b, get_sweep_group).


rule sweeps_all:
    """Every sweep of config `sweeps:`: `snakemake --cores 2 sweeps_all` (with the run's configuration recorded)."""
    input:
        sweep_targets(),
        latex.tex_paths(sweep_targets()),
        run_records(),
    localrule: True


rule sweep_counts:
    """Ball counts of every record and absent query point at every (beta, r) of a sweep, for each dataset of a batch."""
    input:
        data=get_batch_tables,
    output:
        counts=f"{SW_OUT}/{{sweep}}/counts/{{batch}}.parquet",
    log:
        f"{LOGS}/sweep_counts/{{sweep}}/{{batch}}.log",
    benchmark:
        f"{BENCH}/sweep_counts/{{sweep}}/{{batch}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW.a),
        batch=BATCH_WILDCARD,
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        library=library_code("sweep_counts"),
        datasets=get_batch_datasets,
        balls=get_sweep_balls,
        settings=get_sweep_counts_settings,
        seed=config["seed"],
    script:
        "../../scripts/sweep_counts.py"


rule sweep_chunk:
    """A chunk of (eps, beta, r, k) grid points on each dataset of a batch, every mechanism: exact errors, P/R, claims."""
    input:
        counts=rules.sweep_counts.output.counts,
        provenance=get_batch_provenance,
    output:
        rows=f"{SW_OUT}/{{sweep}}/chunks/{{batch}}/part~{{part}}.parquet",
    log:
        f"{LOGS}/sweep_chunk/{{sweep}}/{{batch}}/part~{{part}}.log",
    benchmark:
        f"{BENCH}/sweep_chunk/{{sweep}}/{{batch}}/part~{{part}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW.a),
        batch=BATCH_WILDCARD,
        part="[0-9]+",
    group:
        "paper_a"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        library=library_code("sweep_chunk"),
        datasets=get_batch_datasets,
        points=get_chunk_points,
        settings=get_sweep_chunk_settings,
    script:
        "../../scripts/sweep_chunk.py"


# paper_b.scenario1.timeout_seconds is read from snakemake.config in the script, not passed as a param (as
# for rule paper_b_scenario1): a safety net that fails a job, never changes its rows.
rule sweep_b_dataset:
    """Paper B on one dataset, every (k, r) inside: sigma_Global/sigma_Smooth over eps, bounds, conventions; top-h P/R."""
    input:
        data=get_data_table,
        provenance=get_data_provenance,
    output:
        rows=f"{SW_OUT}/{{sweep}}/bdatasets/{{dataset}}.parquet",
    log:
        f"{LOGS}/sweep_b_dataset/{{sweep}}/{{dataset}}.log",
    benchmark:
        f"{BENCH}/sweep_b_dataset/{{sweep}}/{{dataset}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW.b),
        dataset="[A-Za-z][A-Za-z0-9_]*",
    group:
        "paper_b"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        library=library_code("sweep_b_dataset"),
        settings=get_sweep_b_settings,
        fast_exact_max=PB["fast_exact_max"],
        true_subspace=PB["scenario2"]["true_subspace"],
        sensitivity=PB["scenario2"]["utility_sensitivity"],
    script:
        "../../scripts/sweep_b_dataset.py"


rule sweep_collect:
    """One tidy long table per sweep: every point's rows with the grid values as columns."""
    input:
        points=get_sweep_points,
    output:
        parquet=f"{SW_OUT}/{{sweep}}/sweep.parquet",
        # the CSV is the report's item: the HTML report shows a table it can open (a Parquet file is binary)
        csv=report(
            f"{SW_OUT}/{{sweep}}/sweep.csv",
            caption="../report/sweep_table.rst",
            category="Sweeps",
            subcategory="{sweep}",
        ),
    log:
        f"{LOGS}/sweep_collect/{{sweep}}.log",
    benchmark:
        f"{BENCH}/sweep_collect/{{sweep}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW.a + SW.b),
    group:
        get_sweep_group
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("sweep_collect"),
        sweep=lambda wc: wc.sweep,
        settings=get_sweep_table_settings,
        # the datasets of its rows (the configured ones less the unavailable): for the caption
        datasets=get_sweep_datasets,
    script:
        "../../scripts/sweep_collect.py"


rule sweep_plot:
    """Figures of one sweep from its tidy table only (paper A: error vs eps, SP's gain; paper B: sigma, top-h)."""
    input:
        table=rules.sweep_collect.output.parquet,
    output:
        png=report(
            f"{SW_OUT}/{{sweep}}/figures/{{figure}}.png",
            caption="../report/sweep_figure.rst",
            category="Sweeps",
            subcategory="{sweep}",
        ),
        pdf=f"{SW_OUT}/{{sweep}}/figures/{{figure}}.pdf",
    log:
        f"{LOGS}/sweep_plot/{{sweep}}/{{figure}}.log",
    benchmark:
        f"{BENCH}/sweep_plot/{{sweep}}/{{figure}}.tsv"
    wildcard_constraints:
        sweep=wildcard_choice(SW.a + SW.b),
        figure=wildcard_choice(SW.figures()),
    group:
        get_sweep_group
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("sweep_plot"),
        figure=lambda wc: wc.figure,
        # the datasets of its table (the configured ones less the unavailable): for the caption
        datasets=get_sweep_datasets,
    script:
        "../../scripts/sweep_plot.py"


# One target rule per sweep that runs: `snakemake --cores 2 sweep_<name>` builds that sweep alone (its table,
# figures and LaTeX table) with the run's configuration recorded; listed by `snakemake --list-target-rules`.
for _rule, _sweep in SW.target_rules().items():

    rule:
        name:
            _rule
        input:
            SW.targets(SW_OUT, [_sweep]),
            latex.tex_paths(SW.targets(SW_OUT, [_sweep])),
            run_records(),
        localrule: True

    getattr(rules, _rule).rule.docstring = (
        f"Sweep {_sweep} of config `sweeps:` alone ({SW_OUT}/{_sweep}/)."
    )
