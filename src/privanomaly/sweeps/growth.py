"""Claim A4 across a sweep's grid: paper A's growth curve (:func:`privanomaly.paper_a.growth.growth_curve`) at
every (β, r) point of the claim sweep, r read on each subsample as the sweep reads it."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly.paper_a.growth import growth_curve
from privanomaly.sweeps.counts import resolve_r
from privanomaly.sweeps.spec import Ball


def growth_grid(X: np.ndarray, labels: np.ndarray, points: list[Ball], sizes: list[float], rng_of,
                eps: float, k: int, cap_of, workers: int = 1, metric: str = "euclidean") -> pd.DataFrame:
    """The growth curve at every (β, r) of ``points`` (a sweep's grid,
    :meth:`privanomaly.sweeps.plan.SweepPlan.growth_points`), each on the same nested subsamples: ``rng_of()``
    gives a fresh generator of one seed per curve; ``cap_of(β)`` the ball-count cap. Columns: ``beta``,
    ``r_kind``, ``r_spec`` (as a sweep's tidy table) and those of :func:`growth_curve`."""
    parts = []
    for pt in points:
        beta, kind, value = int(pt["beta"]), pt["r_kind"], float(pt["r_spec"])
        c = growth_curve(X, labels, int(beta), value, sizes, rng_of(), eps, k, cap_of(int(beta)), workers, metric, kind,
                         resolve_r)
        parts.append(c.drop(columns="beta").assign(beta=int(beta), r_kind=kind, r_spec=value))
    cols = ["beta", "r_kind", "r_spec", "size_fraction", "n_records", "r", "n_anomalies", "eps", "k", "mean_error_sp",
            "median_error_sp", "mean_error_dp"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)
