"""Rule paper_b_timing: Algorithm 2 (paper, under a work budget) vs the fast smooth bound on one dataset."""

import pandas as pd

from privanomaly import experiment, io, outliers
from privanomaly.run import log as runlog
from privanomaly.paper_b import timing

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    choice = experiment.read_choice(snakemake.input.choice)
    # the full-space query: the r tuned for the full space (Scenario 1's setting) for every dataset
    r = choice["r_by_space"]["full"]
    beta = outliers.smooth_parameters(p.eps, p.delta)[1]
    # a benchmark: wall-clock times (machine-dependent); Algorithm 2 cut by Algorithm 1's work budget (not by time)
    with runlog.steps(snakemake.wildcards.pb_dataset, ["fast bound", "Algorithm 2"]) as step:
        step("fast bound")
        fast = timing.timed_bound(X, p.k, r, beta, "fast", p.max_work, p.fast_exact_max)
        step("Algorithm 2")
        paper = timing.timed_bound(X, p.k, r, beta, "paper", p.max_work)
    row = {
        "dataset": snakemake.wildcards.pb_dataset,
        "N": len(X),
        "d": X.shape[1],
        "k": p.k,
        "r": r,
        "eps": p.eps,
        "beta": beta,
        "true_count": outliers.q_count(X, p.k, r),
        "paper_completed": paper["completed"],
        "paper_seconds": paper["seconds"],
        "paper_value": paper["value"],
        "paper_t_max": paper["t_max"],
        "paper_t_stop": paper["t_stop"],
        "paper_work": paper["work"],
        "fast_completed": fast["completed"],
        "fast_seconds": fast["seconds"],
        "fast_value": fast["value"],
        "fast_t_max": fast["t_max"],
        "max_work": p.max_work,
        "fast_exact_max": p.fast_exact_max,
    }
    log.info("%s", row)
    io.write_table(pd.DataFrame([row]), snakemake.output.csv)
