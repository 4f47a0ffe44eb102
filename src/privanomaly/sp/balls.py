"""Ball counts B_x(i, r) for every record of a dataset (paper A, Sec. 2: the (beta, r)-anomaly count).

A dataset X (n rows) is the histogram of its distinct rows; ``B[i]`` = number of rows j with
d(X_j, X_i) <= r, i itself and its exact duplicates included, and ``duplicate_counts(X)[i]`` = x_i,
the multiplicity of row i's value.

Distance semantics (the same in every code path, so all agree bit for bit on the boundary):
  euclidean: sum_k (a_k - b_k)^2 <= r*r   (float64, summed over k = 0..d-1 in order)
  manhattan: sum_k |a_k - b_k| <= r       (same order)
  chebyshev: max_k |a_k - b_k| <= r
The Euclidean test runs on the coordinates and r multiplied by a power of two s with r s in [1/2, 1)
(:func:`euclidean_scale`): the same comparisons bit for bit wherever r*r and the squares neither overflow nor
underflow, and the right ones where they would (r ~ 1e-200: r*r = 0 put every pair within r; r ~ 1e200:
r*r = inf did too); at r = 0 it is "every coordinate equal" (the chebyshev test at 0).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "METRICS",
    "minkowski_p",
    "unit_scale",
    "euclidean_scale",
    "pairwise_within",
    "unique_rows",
    "duplicate_counts",
    "ball_counts",
    "ball_counts_at",
    "ball_counts_radii",
    "ball_counts_at_radii",
    "record_counts_radii",
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


def _max_abs(arrays) -> float:
    """The largest |coordinate| of ``arrays`` (0 when all are empty)."""
    return max((float(np.max(np.abs(A))) for A in arrays if np.size(A)), default=0.0)


def unit_scale(X: np.ndarray) -> float:
    """A power of two s with max |X| s in [1/2, 1) (1 when X is all zero or empty): k-NN distances computed on
    X s and divided by s are the unscaled floats bit for bit wherever those neither under- nor overflow
    (scaling by a power of two is exact), and right where they would (data ~1e-200: squared distances
    underflow to 0; ~1e200: they overflow to inf)."""
    big = _max_abs([X])
    return math.ldexp(1.0, -math.frexp(big)[1]) if big > 0 else 1.0


def euclidean_scale(r: float, *arrays: np.ndarray, max_exponent: int = 1000) -> float:
    """A power of two s with r s in [1/2, 1), lowered where a coordinate times s would pass 2^max_exponent:
    multiplying coordinates and r by s is exact, so every Euclidean comparison is that of the unscaled float
    arithmetic wherever it neither overflows nor underflows, and r*r can no longer round to 0 or inf. 1 for
    r = 0. (Paper B's degrees use ``max_exponent`` 500: scipy's KD-tree raises on an infinite distance.)"""
    if r == 0:
        return 1.0
    exp = -math.frexp(r)[1]
    big = _max_abs(arrays)
    if big > 0:
        exp = min(exp, max_exponent - math.frexp(big)[1])
    return math.ldexp(1.0, exp)


def _euclidean_args(metric: str, r: float, *arrays: np.ndarray) -> tuple[str, float, list[np.ndarray]]:
    """(metric, r, arrays) as the kernels compare them: Euclidean coordinates and r scaled by
    :func:`euclidean_scale`, and r = 0 decided by the chebyshev test (exact: distance 0 iff every coordinate is
    equal, where squared differences of ~1e-170 would underflow to 0)."""
    if metric != "euclidean":
        return metric, r, list(arrays)
    if r == 0:
        return "chebyshev", r, list(arrays)
    s = euclidean_scale(r, *arrays)
    return metric, r * s, [A * s for A in arrays]


def pairwise_within(P, Q, r: float, metric: str = "euclidean") -> np.ndarray:
    """Brute force: bool (len(P), len(Q)), True iff d(P_a, Q_b) <= r (module docstring semantics)."""
    _check_metric(metric)
    P = _as_points(P, "P")
    Q = _as_points(Q, "Q")
    r = _check_r(r)
    metric, r, (P, Q) = _euclidean_args(metric, r, P, Q)
    acc = np.zeros((P.shape[0], Q.shape[0]))
    with np.errstate(over="ignore"):  # a square past 1e308 is inf: farther than r, rightly
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
    metric, r, (Qa, U) = _euclidean_args(metric, r, Qa, U)
    return capped_counts(Qa, U, w, r, metric, cap)


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
    metric, r, (V,) = _euclidean_args(metric, r, U)
    return capped_counts(V, V, w, r, metric, cap, workers=workers), inv, w


# Radii searched with one Euclidean scale span less than this factor: the smallest one times the scale (that of
# the largest, in [1/2, 1)) is at least 2^-256, so its square (>= 2^-512) and every square that decides a
# comparison stay normal floats; a wider grid is searched once per such group.
_RADII_SPAN = 2.0**256


def _scale_groups(radii: list[float]) -> list[list[int]]:
    """Indices of the positive ``radii``, in groups (ascending) whose largest is < ``_RADII_SPAN`` x smallest."""
    order = sorted((i for i, r in enumerate(radii) if r > 0), key=lambda i: radii[i])
    groups: list[list[int]] = []
    for i in order:
        if groups and radii[i] < radii[groups[-1][0]] * _RADII_SPAN:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def ball_counts_radii(X, radii, *, metric: str = "euclidean", cap: int, workers: int = 1) -> np.ndarray:
    """``ball_counts(X, r, metric=metric, cap=cap)`` at every r of ``radii`` (rows, int64 (len(radii), n)),
    from one walk of the tree per distinct row for every radius together instead of one count per radius
    (:func:`privanomaly.sp._fastradii.capped_counts_radii`): the same integers. Euclidean: r = 0 counts the
    exact duplicates (distance 0 iff every coordinate is equal); positive radii are searched with the scale of
    the largest of their group (:func:`_scale_groups`: one group unless the radii span more than 2^256), so a
    small radius beside a large one is compared without its square underflowing."""
    _check_metric(metric)
    A = _as_points(X)
    U, inv, w = unique_rows(A)
    return _counts_radii(None, U, w, radii, metric, cap, workers)[:, inv]


def record_counts_radii(X, radii, *, metric: str = "euclidean", cap: int, workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(x_i, B)`` of :func:`record_counts` at every r of ``radii`` (B: int64 (len(radii), n)), from one dedupe
    and one walk per distinct row (:func:`ball_counts_radii`); x_i capped at ``cap`` as there."""
    _check_metric(metric)
    U, inv, w = unique_rows(_as_points(X))
    B = _counts_radii(None, U, w, radii, metric, cap, workers)[:, inv]
    return np.minimum(w, _check_cap(cap))[inv].astype(np.int64), B


def ball_counts_at_radii(Q, X, radii, *, metric: str = "euclidean", cap: int, workers: int = 1) -> np.ndarray:
    """``ball_counts_at(Q, X, r, metric=metric, cap=cap)`` at every r of ``radii`` (rows, int64
    (len(radii), len(Q))), searched as :func:`ball_counts_radii` searches them: the same integers."""
    _check_metric(metric)
    Qa = _as_points(Q, "Q")
    A = _as_points(X)
    if Qa.shape[1] != A.shape[1]:
        raise ValueError(f"Q has {Qa.shape[1]} columns but X has {A.shape[1]}")
    U, _, w = unique_rows(A)
    return _counts_radii(Qa, U, w, radii, metric, cap, workers)


def _counts_radii(Q, U, w, radii, metric: str, cap, workers: int) -> np.ndarray:
    """Capped weighted counts of the queries ``Q`` (None: the distinct rows ``U`` themselves) among ``U`` at
    every radius, (len(radii), len(Q)); the radii grouped and scaled as :func:`ball_counts_radii` says."""
    radii = [_check_r(r) for r in np.asarray(radii, dtype=float).reshape(-1)]
    cap = _check_cap(cap)
    if cap is None:
        raise ValueError("counting at many radii needs a cap (where each count may stop)")
    from ._fastballs import capped_counts
    from ._fastradii import capped_counts_radii

    same = Q is None
    if metric != "euclidean":
        return capped_counts_radii(U if same else Q, U, w, radii, metric, cap, workers=workers)
    out = np.empty((len(radii), U.shape[0] if same else Q.shape[0]), dtype=np.int64)
    zero = [i for i, r in enumerate(radii) if r == 0]
    if zero:  # the distinct rows are the equality classes: a row's ball of radius 0 is its own copies
        out[zero] = np.minimum(w, cap) if same else capped_counts(Q, U, w, 0.0, "chebyshev", cap)
    for group in _scale_groups(radii):
        s = euclidean_scale(max(radii[i] for i in group), U, *(() if same else (Q,)))
        V = U * s
        out[group] = capped_counts_radii(V if same else Q * s, V, w, [radii[i] * s for i in group], metric, cap,
                                         workers=workers)
    return out


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
