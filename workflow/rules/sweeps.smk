# Sweeps over eps, k, beta and r (issue 14): a named sweep in config `sweeps:` = datasets x mechanisms x grid.
# Outputs under {RESULTS}/sweeps/<sweep>/: sweep.parquet (+ .csv), the tidy long table, and figures.
#
#   paper_a kind: sweep_counts (per dataset, r, metric: ball counts of every record + absent query points,
#                 shared by every eps, k, beta, mechanism) -> sweep_point (one job per grid point
#                 dataset x beta x r x k x eps, snakemake.utils.Paramspace; every mechanism inside it)
#                 -> sweep_collect -> sweep_plot (error_vs_eps, gain)
#   paper_b kind: sweep_b_point (one job per dataset x k x r: sigma over eps/convention/bound, top-h over
#                 h/eps/subspace dim) -> sweep_collect -> sweep_plot (sigma_ratio, top_h)
# The steps are in workflow/steps.yaml. Adding a value to a grid adds jobs and leaves every finished one
# untouched (file names carry only the point's own values; tests/test_sweeps_workflow.py checks the dry-run).
# Design and per-job overhead: benchmarks/bench_sweeps.md. Plan: privanomaly.sweeps.plan.SweepPlan.


include: "sweeps_common.smk"


rule sweeps_all:
    """Every sweep of config `sweeps:`: `snakemake --cores 2 sweeps_all`."""
    input:
        sweep_targets(),
    localrule: True
