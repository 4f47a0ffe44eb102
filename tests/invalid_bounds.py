"""Invalid smooth bounds, kept in the tests only: each documents (and lets a test show) why the library does
not use it. Not part of ``privanomaly``."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from privanomaly.outliers.distance import RADIUS_RTOL, _check_k, _counts_scaled, subspace_coords
from privanomaly.outliers.smooth import SmoothResult, _check_beta


def smooth_sensitivity_naive_2r(X: np.ndarray, k: int, r: float, beta: float, S=None) -> SmoothResult:
    """NOT a valid smooth bound - kept only to document (and test) why it is not used: replaces M(P) by
    ``max_{p in P} |B(p, 2r) ∩ P|``, an upper bound on M that is not stable under replacing the centre
    record (property (b) of the module docstring fails)."""
    _check_k(k)
    _check_beta(beta)
    Z = subspace_coords(X, S)
    N = len(Z)
    deg = _counts_scaled(Z, r)
    n_t = N + 1
    tt = np.arange(n_t)
    G = {}
    for c in (k, k - 1):
        key = np.abs(deg - c)
        g = np.zeros(n_t, dtype=np.int64)
        for t in range(int(min(key.max(), n_t - 1)) + 1):
            P = Z[key <= t]
            rr = 2 * r * (1 + RADIUS_RTOL)
            g[t] = np.asarray(cKDTree(P).query_ball_point(P, rr, return_length=True)).max() if len(P) else 0
        g[int(min(key.max(), n_t - 1)) :] = g[int(min(key.max(), n_t - 1))]
        G[c] = g
    B = np.minimum(N, np.maximum(G[k], G[k - 1]) + tt + 1)
    vals = np.exp(-tt * beta) * B
    t_max = int(np.argmax(vals))
    return SmoothResult(float(vals[t_max]), t_max, n_t, B, "naive_2r", float(beta), G[k], G[k - 1])
