"""Does the SP error on anomalies fall as the data grow? (paper A, Sec. 5: "as data increase ... the error
of the SP mechanism reduces".)

Protocol: nested seeded subsamples of a dataset (each a prefix of one random permutation, so larger
samples contain smaller ones). β and the flagged fraction f stay those chosen on the full data; r is
re-derived on each subsample by the same quantile rule as the selection protocol (so every size flags
about the same fraction of records). The exact mean SP and DP errors over the subsample's (β, r)-anomalies
are recorded.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from privanomaly import sp
from privanomaly.paper_a.records import record_table
from privanomaly.paper_a.selection import knn_radius_table, radius_for_fraction


def growth_curve(X: np.ndarray, labels: np.ndarray, beta: int, fraction: float, sizes: list[float],
                 rng: np.random.Generator, eps: float, k: int, cap: int | None, workers: int = 1, metric: str = "euclidean",
                 r_kind: str = "fraction",
                 resolve_r: Callable[[np.ndarray, str, float, int, str], float] | None = None) -> pd.DataFrame:
    """One row per subsample size (fractions of the dataset in ``sizes``); a size that leaves at most β+1
    records (no (β+1)-NN radius: a small dataset) has no row, and no size left is an error. ``r_kind`` other than
    "fraction" reads r on each subsample with ``resolve_r(X, r_kind, value, β, metric)`` (``fraction`` is then
    its value), as a sweep's grid point does (:func:`privanomaly.sweeps.growth.growth_grid` passes
    :func:`privanomaly.sweeps.counts.resolve_r`)."""
    if r_kind != "fraction" and resolve_r is None:
        raise ValueError(f"r kind {r_kind!r} needs resolve_r (how r is read on each subsample)")
    n = len(X)
    perm = rng.permutation(n)
    rows = []
    if all(int(round(s * n)) <= beta + 1 for s in sizes):
        raise ValueError(f"every subsample fraction of {sorted(sizes)} leaves at most β+1={beta + 1} of the {n} "
                         "records: give larger fractions (paper_a.growth.sizes)")
    for s in sorted(sizes):
        m = int(round(s * n))
        if m <= beta + 1:
            continue
        idx = np.sort(perm[:m])
        Xs, ys = X[idx], labels[idx]
        if r_kind == "fraction":
            d = knn_radius_table(Xs, [beta], p=sp.minkowski_p(metric), workers=workers)[:, 0]
            r = radius_for_fraction(d, fraction)
        else:
            r = resolve_r(Xs, r_kind, fraction, beta, metric)
        rec = record_table(Xs, ys, beta, r, cap=cap, workers=workers, metric=metric)
        g = rec["anomaly"].to_numpy()
        x_i, B = rec["x_i"].to_numpy()[g], rec["B"].to_numpy()[g]
        e_sp = np.asarray(sp.sp_error(x_i, B, beta, k, eps, cap=cap), float)
        e_dp = np.asarray(sp.optimal_dp_error(x_i, B, beta, eps, cap=cap), float)
        rows.append(dict(size_fraction=float(s), n_records=m, beta=beta, r=r, n_anomalies=int(g.sum()), eps=eps, k=k,
                         mean_error_sp=float(e_sp.mean()) if len(e_sp) else np.nan,
                         median_error_sp=float(np.median(e_sp)) if len(e_sp) else np.nan,
                         mean_error_dp=float(e_dp.mean()) if len(e_dp) else np.nan))
    return pd.DataFrame(rows)
