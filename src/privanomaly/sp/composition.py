"""Composition of sensitive privacy (paper A, Sec. 3.1 and Appendix A.9).

All mechanisms are assumed to use independent randomness. SP is with respect to a graph: composing
mechanisms that are SP for G_S1 and G_S2 gives SP for (D, E(G_S1) cap E(G_S2)) (Observation 1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["sequential", "parallel", "claim5", "claim5_graph"]


def _eps_list(eps) -> np.ndarray:
    e = np.asarray(eps, dtype=float).ravel()
    if e.size == 0:
        raise ValueError("need at least one eps")
    if np.any(~np.isfinite(e)) or np.any(e < 0):
        raise ValueError(f"eps values must be finite and >= 0, got {eps!r}")
    return e


def sequential(*eps) -> float:
    """Claim 3 (sequential, also adaptive): eps_1-SP and eps_2-SP mechanisms give (eps_1 + eps_2)-SP."""
    return float(np.sum(_eps_list(eps)))


def parallel(*eps) -> float:
    """Claim 4 (parallel): Y_1- and Y_2-dependent mechanisms on a partition of X give max(eps_t)-SP."""
    return float(np.max(_eps_list(eps)))


def claim5(eps_list, m: int) -> float:
    """Claim 5: n (beta_t, r_t)-AIQs, each eps_t-SP and Y(i_t, r_t)-dependent, are m * max(eps_t)-SP.

    m is the largest number of queried records i_t inside any ball of radius max(r_t) (so m = 1 when
    all queried records are more than 2 r apart). The graph is the k-sensitive graph of the
    (beta, r)-anomaly with k = min k_t, beta = max beta_t, r = min r_t (:func:`claim5_graph`).
    """
    m = int(m)
    if m < 1:
        raise ValueError("m must be >= 1")
    return m * float(np.max(_eps_list(eps_list)))


def claim5_graph(betas, rs, ks) -> tuple[int, float, int]:
    """(beta, r, k) = (max beta_t, min r_t, min k_t): the graph for which Claim 5's guarantee holds."""
    return int(np.max(betas)), float(np.min(rs)), int(np.min(ks))
