"""Ball counts B_x(i, r) for every record of a dataset (paper A, Sec. 2: the (beta, r)-anomaly count).

A dataset X (n rows) is the histogram of its distinct rows; ``B[i]`` = number of rows j with
d(X_j, X_i) <= r, i itself and its exact duplicates included, and ``duplicate_counts(X)[i]`` = x_i,
the multiplicity of row i's value.

Distance semantics (the same in every code path, so all agree bit for bit on the boundary):
  euclidean: sum_k (a_k - b_k)^2 <= r*r   (float64, summed over k = 0..d-1 in order)
  manhattan: sum_k |a_k - b_k| <= r       (same order)
  chebyshev: max_k |a_k - b_k| <= r
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "METRICS",
    "minkowski_p",
    "pairwise_within",
    "unique_rows",
    "duplicate_counts",
    "ball_counts",
    "ball_counts_at",
    "ball_counts_radii",
    "ball_counts_bruteforce",
    "ball_counts_scipy",
]

METRICS = ("euclidean", "manhattan", "chebyshev")
_P = {"euclidean": 2.0, "manhattan": 1.0, "chebyshev": np.inf}


def _check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")


def minkowski_p(metric: str) -> float:
    """The Minkowski order p of ``metric`` (euclidean 2, manhattan 1, chebyshev inf), as scipy's KD-tree takes it:
    every k-NN distance read off the data (d_β of the (β, r) selection, a fraction or quantile r) must be
    measured in the metric of the ball counts it is used with."""
    _check_metric(metric)
    return _P[metric]


def _as_points(X, name="X") -> np.ndarray:
    A = np.asarray(X, dtype=np.float64)
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (rows = records), got shape {np.shape(X)}")
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return np.ascontiguousarray(A)


def _check_r(r) -> float:
    r = float(r)
    if not np.isfinite(r) or r < 0:
        raise ValueError(f"radius r must be finite and >= 0, got {r!r}")
    return r


def _check_cap(cap):
    if cap is None:
        return None
    c = int(cap)
    if c < 1:
        raise ValueError(f"cap must be >= 1, got {cap!r}")
    return c


def pairwise_within(P, Q, r: float, metric: str = "euclidean") -> np.ndarray:
    """Brute force: bool (len(P), len(Q)), True iff d(P_a, Q_b) <= r (module docstring semantics)."""
    _check_metric(metric)
    P = _as_points(P, "P")
    Q = _as_points(Q, "Q")
    r = _check_r(r)
    acc = np.zeros((P.shape[0], Q.shape[0]))
    for k in range(P.shape[1]):
        diff = P[:, k][:, None] - Q[:, k][None, :]
        if metric == "euclidean":
            acc += diff * diff
        elif metric == "manhattan":
            acc += np.abs(diff)
        else:
            np.maximum(acc, np.abs(diff), out=acc)
    return acc <= (r * r if metric == "euclidean" else r)


def unique_rows(X) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(U, inverse, counts): distinct rows U, X == U[inverse], counts[m] = multiplicity of U[m]."""
    A = _as_points(X)
    A = A + 0.0  # -0.0 -> +0.0 so equal values compare equal bytewise
    U, inv, cnt = np.unique(A, axis=0, return_inverse=True, return_counts=True)
    return U, inv.reshape(-1), cnt.astype(np.int64)


def duplicate_counts(X) -> np.ndarray:
    """x_i: the multiplicity of row i's exact value among the rows of X (int64 (n,))."""
    _, inv, cnt = unique_rows(X)
    return cnt[inv]


def ball_counts_bruteforce(X, r: float, metric: str = "euclidean", *, block: int = 2048) -> np.ndarray:
    """Reference O(n^2) ball counts (blocked :func:`pairwise_within`). For tests and small data."""
    A = _as_points(X)
    out = np.empty(A.shape[0], dtype=np.int64)
    for s in range(0, A.shape[0], block):
        out[s : s + block] = pairwise_within(A[s : s + block], A, r, metric).sum(axis=1)
    return out


def ball_counts_at(Q, X, r: float, *, metric: str = "euclidean", cap=None) -> np.ndarray:
    """Number of rows of X within r of each query row of Q (int64 (m,)); min(count, cap) if cap."""
    _check_metric(metric)
    Qa = _as_points(Q, "Q")
    A = _as_points(X)
    if Qa.shape[1] != A.shape[1]:
        raise ValueError(f"Q has {Qa.shape[1]} columns but X has {A.shape[1]}")
    r = _check_r(r)
    cap = _check_cap(cap)
    from ._fastballs import capped_counts

    U, _, w = unique_rows(A)
    c = capped_counts(Qa, U, w, r, metric, cap)
    return c


def ball_counts(X, r: float, *, metric: str = "euclidean", cap=None, workers: int = 1) -> np.ndarray:
    """B[i] = #rows j of X with d(X_j, X_i) <= r (i and its duplicates included), int64 (n,).

    With ``cap``: min(B, cap), computed with early termination (much faster when most balls are
    dense). Exact duplicates are merged first (a histogram, as in the paper); the count kernel is a
    compiled KD-tree with capped, weighted counts (:mod:`privanomaly.sp._fastballs`); ``workers``
    threads (numba; -1 = all). Results equal :func:`ball_counts_bruteforce` exactly (same float
    semantics). Note: a capped count can be below ``duplicate_counts`` for a value with more than
    ``cap`` copies; the mdd functions accept that (such a record is normal, B > beta).
    """
    cu, inv, _ = _distinct_counts(X, r, metric, cap, workers)
    return cu[inv]


def _distinct_counts(X, r: float, metric: str, cap, workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The capped ball count of every distinct row of X (the rows weighted by their multiplicity), with the
    map of X's rows to them and the multiplicities: ``(cu, inv, w)``, X's counts being ``cu[inv]``."""
    _check_metric(metric)
    A = _as_points(X)
    r = _check_r(r)
    cap = _check_cap(cap)
    from ._fastballs import capped_counts

    U, inv, w = unique_rows(A)
    return capped_counts(U, U, w, r, metric, cap, workers=workers), inv, w


def ball_counts_radii(X, radii, *, metric: str = "euclidean", cap: int, workers: int = 1) -> np.ndarray:
    """``ball_counts(X, r, metric=metric, cap=cap)`` at every r of ``radii`` (rows, int64 (len(radii), n)),
    from one search of each distinct row's ``cap`` nearest distinct rows instead of one count per radius:
    the same integers (same float distances and comparisons), for many radii at about the cost of one."""
    _check_metric(metric)
    A = _as_points(X)
    radii = [_check_r(r) for r in np.asarray(radii, dtype=float).reshape(-1)]
    cap = _check_cap(cap)
    if cap is None:
        raise ValueError("ball_counts_radii needs a cap (the number of nearest rows searched)")
    from ._fastballs import capped_counts_radii

    U, inv, w = unique_rows(A)
    return capped_counts_radii(U, U, w, radii, metric, cap, workers=workers)[:, inv]


def ball_counts_scipy(X, r: float, *, metric: str = "euclidean", workers: int = 1) -> np.ndarray:
    """Baseline: scipy ``cKDTree.query_ball_point(return_length=True)`` (no cap, no dedupe)."""
    _check_metric(metric)
    A = _as_points(X)
    from scipy.spatial import cKDTree  # lazy: importing scipy.spatial costs ~0.3 s per job

    tree = cKDTree(A)
    return np.asarray(tree.query_ball_point(A, r, p=_P[metric], return_length=True, workers=workers), dtype=np.int64)


def record_counts(X, r: float, *, metric: str = "euclidean", cap=None, workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(x_i, B)`` of every record, the one count kernel of paper A's record tables and the sweeps' count
    tables: multiplicities :func:`duplicate_counts` and ball counts :func:`ball_counts`, both capped at
    ``cap`` when given (x_i <= B always, and capping both at the same cap changes no mdd: an anomaly has
    x_i <= B <= β < cap, a normal record's mdd does not depend on x_i). int64 (n,) each."""
    cap = _check_cap(cap)  # an int (x_i is capped with it below)
    cu, inv, w = _distinct_counts(X, r, metric, cap, workers)  # one dedupe for both counts
    x_i = w[inv]
    B = np.asarray(cu[inv], dtype=np.int64)
    if cap is not None:
        x_i = np.minimum(x_i, cap)
    return x_i, B
