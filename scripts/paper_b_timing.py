"""Rule paper_b_timing: Algorithm 2 (paper, under a time budget) vs the fast smooth bound on one dataset."""

import numpy as np
import pandas as pd

from privanomaly import io, outliers, runlog
from privanomaly.paper_b import common, smooth

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    X, y, _ = common.load_xy(snakemake.input.data)  # noqa: F821
    choice = common.read_choice(snakemake.input.choice)  # noqa: F821
    # the full-space query: the r tuned for the full space (Scenario 1's setting) for every dataset
    r = choice["r_by_space"]["full"]
    beta = outliers.smooth_parameters(p.eps, p.delta)[1]
    fast = smooth.smooth_bound(X, p.k, r, beta, "fast", None, p.fast_exact_max, p.budget)
    paper = smooth.smooth_bound(X, p.k, r, beta, "paper", p.budget, fallback=False)
    row = {
        "dataset": snakemake.wildcards.pb_dataset,  # noqa: F821
        "N": len(X),
        "d": X.shape[1],
        "k": p.k,
        "r": r,
        "eps": p.eps,
        "beta": beta,
        "true_count": outliers.q_count(X, p.k, r),
        "paper_completed": not paper["cut"],
        "paper_seconds": paper["seconds_paper"],
        "paper_value": np.nan if paper["cut"] else paper["value"],
        "paper_t_max": np.nan if paper["cut"] else paper["t_max"],
        "paper_t_stop": np.nan if paper["cut"] else paper["t_stop"],
        "fast_completed": not fast["cut"],
        "fast_seconds": fast["seconds"],
        "fast_value": fast["value"],
        "fast_t_max": fast["t_max"],
        "budget_seconds": p.budget,
        "fast_exact_max": p.fast_exact_max,
    }
    log.info("%s", row)
    io.write_table(pd.DataFrame([row]), snakemake.output.csv)  # noqa: F821
