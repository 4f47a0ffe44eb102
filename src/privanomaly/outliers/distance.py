"""Distance-based outliers in subspaces (paper B, Section 3.1, Definitions 7-8, eq. 14).

Conventions fixed here and used by the whole :mod:`privanomaly.outliers` package:

* ``dist_S(x, y) = sqrt(sum_{i in S} (x_i - y_i)^2 / |S|)`` (Sec. 3.1, after HiCS [14]).  It is the plain
  Euclidean distance between the *scaled* coordinates ``x_S / sqrt(|S|)`` (:func:`subspace_coords`), so
  KD-trees, balls and smallest enclosing balls are all computed on those coordinates.
* Neighbourhoods use the closed ball ``dist_S <= r`` (eq. 12) and exclude the point itself; other rows at
  distance 0 (duplicates) *are* neighbours.  Eq. (12) as printed reads ``{x in X | dist(x, y) <= r, x != y,
  y in X}``; the intended set is ``{y in X : y != x, dist_S(x, y) <= r}`` (record identity, not value, is
  what is excluded - see ``docs/paper_b_resolutions.md``).
* Outlier (Def. 8, eq. 13): fewer than ``k`` neighbours, i.e. degree ``<= k - 1``.
* Floating-point ties: "``dist_S <= r``" is evaluated as ``dist_S <= r (1 + RADIUS_RTOL)`` with
  ``RADIUS_RTOL = 1e-9``, so pairs at distance exactly ``r`` in exact arithmetic (common with rounded data)
  are neighbours however the rounding of the scaled coordinates falls.  Every radius test in the package
  (degrees, balls, smallest enclosing balls) uses the same tolerance.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from privanomaly.sp.balls import euclidean_scale

#: relative tolerance of every "distance <= r" test (closed balls robust to rounding)
RADIUS_RTOL = 1e-9

#: up to this many rows the degrees are counted pair by pair (:func:`_counts_brute`): building the tree costs
#: more than the ~n^2 d comparisons; the counts are the same integers either way (tested)
BRUTE_MAX_ROWS = 64

__all__ = [
    "subspace_coords",
    "neighbour_counts",
    "outlier_mask",
    "q_count",
    "q_count_subspaces",
    "all_subspaces",
]


def _as_matrix(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (n_records, n_features), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    return X


def subspace_coords(X: np.ndarray, S: Iterable[int] | None = None) -> np.ndarray:
    """Coordinates of ``X`` restricted to subspace ``S`` and scaled by ``1/sqrt(|S|)``.

    Euclidean distance between rows of the result equals ``dist_S`` of Sec. 3.1.  ``S=None`` is the full
    space (all columns).  Column indices are 0-based.
    """
    X = _as_matrix(X)
    if S is None:
        cols = np.arange(X.shape[1])
    else:
        cols = np.asarray(list(S), dtype=int)
        if cols.size == 0:
            raise ValueError("subspace S must contain at least one column")
        if cols.min() < 0 or cols.max() >= X.shape[1]:
            raise ValueError(f"subspace {tuple(cols)} out of range for {X.shape[1]} columns")
        if len(np.unique(cols)) != len(cols):
            raise ValueError(f"subspace {tuple(cols)} has repeated columns")
    return X[:, cols] / np.sqrt(len(cols))


def _counts_scaled(Z: np.ndarray, r: float, cap: int | None = None) -> np.ndarray:
    """|N(Z, r, z)| for every row of already-scaled coordinates ``Z`` (closed ball, self excluded); with ``cap``,
    ``min(|N|, cap)``: the search of a row stops at cap neighbours (paper B needs degrees only up to k, or up
    to k + T for the smooth bound), so dense data or many duplicates cost O(cap) per row, not O(degree)."""
    if not r > 0:
        raise ValueError(f"radius r must be > 0, got {r}")
    if len(Z) == 0:
        return np.zeros(0, dtype=np.int64)
    from privanomaly.sp.balls import unique_rows

    rho = r * (1.0 + RADIUS_RTOL)
    # coordinates and radius times a power of two s with rho s in [1/2, 1) (sp.balls.euclidean_scale): exact, so
    # the same comparisons as unscaled wherever the squared distances neither underflow nor overflow, and the
    # right ones where they would (r ~ 1e-200: every pair "within r"; r ~ 1e160: r*r = inf); s is lowered where a
    # coordinate would pass 2^500 (its squares stay finite). One test for every pair, the compiled KD-tree's
    # "sum_k (a_k - b_k)^2 <= (rho s)^2" (privanomaly.sp._fastballs), on the distinct rows weighted by their copies
    s = euclidean_scale(rho, Z, max_exponent=500)
    if len(Z) <= BRUTE_MAX_ROWS:  # the same test pair by pair, without building a tree
        return _counts_brute(np.asarray(Z) * s, (rho * s) ** 2, cap)
    U, inv, w = unique_rows(np.asarray(Z) * s)
    with_self = None if cap is None else int(cap) + 1  # the row itself is in its ball
    return _tree_counts(U, w, rho * s, with_self)[inv] - 1


#: the rows of one call of the compiled count (:func:`_tree_counts`): a progress line may follow each call
COUNT_CHUNK = 16_384


def _tree_counts(U: np.ndarray, w: np.ndarray, rho: float, cap: int | None) -> np.ndarray:
    """``capped_counts(U, U, w, rho, "euclidean", cap)`` (:mod:`privanomaly.sp._fastballs`): the same tree and
    query order (the tree's own), the queries in chunks of :data:`COUNT_CHUNK` rows so that a long count writes a
    progress line with the time left to the job's log (at most one every 5 s; each query is answered on its own:
    the same counts). One thread: paper B's jobs fork a child for the safety timeout after counting, and a process that
    has started numba's (GNU OpenMP) thread pool cannot fork; the counts are capped, so one thread is quick."""
    from privanomaly.run.log import Ticker
    from privanomaly.sp._fastballs import CappedTree

    tree = CappedTree(U, w)
    order = tree.perm.astype(np.int64)
    out = np.empty(len(U), dtype=np.int64)
    tick = Ticker(f"neighbour counts (N = {len(U)} distinct rows, cap {cap})", 5.0)
    for start in range(0, len(U), COUNT_CHUNK):
        rows = order[start:start + COUNT_CHUNK]
        out[rows] = tree.count(U[rows], rho, "euclidean", cap=cap, workers=1)
        tick(lambda: f"{start + len(rows)} of {len(U)} rows counted, {tick.time_left(start + len(rows), len(U))}")
    return out


def _counts_brute(V: np.ndarray, thr: float, cap: int | None) -> np.ndarray:
    """:func:`_counts_scaled` by all pairs: ``sum_k (a_k - b_k)^2`` summed in order k = 0..d-1, ``<= thr``
    (the compiled KD-tree's float operations, so both decide every pair alike)."""
    acc = np.zeros((len(V), len(V)))
    with np.errstate(over="ignore"):
        for j in range(V.shape[1]):
            diff = V[:, j][None, :] - V[:, j][:, None]
            acc += diff * diff
    counts = (acc <= thr).sum(axis=1) - 1
    return counts if cap is None else np.minimum(counts, int(cap))


def neighbour_counts(X: np.ndarray, r: float, S: Iterable[int] | None = None) -> np.ndarray:
    """``|N_S(X, r, x)|`` (Def. 7, eq. 12) for every record: other rows within ``dist_S <= r``.

    The degree ``deg(X, r, x)`` of eq. (19).  One compiled KD-tree (:mod:`privanomaly.sp._fastballs`) per subspace.
    """
    return _counts_scaled(subspace_coords(X, S), r)


def outlier_mask(X: np.ndarray, k: int, r: float, S: Iterable[int] | None = None) -> np.ndarray:
    """Boolean mask of ``O_S(X, k, r)`` (Def. 8, eq. 13): records with fewer than ``k`` neighbours."""
    _check_k(k)
    return _counts_scaled(subspace_coords(X, S), r, cap=k) < k  # degrees needed only up to k


def q_count(X: np.ndarray, k: int, r: float, S: Iterable[int] | None = None) -> int:
    """``q_count(X, k, r, S) = |O_S(X, k, r)|`` (eq. 14)."""
    return int(outlier_mask(X, k, r, S).sum())


def q_count_subspaces(X: np.ndarray, k: int, r: float, subspaces: Sequence[Iterable[int]]) -> np.ndarray:
    """``q_count`` of eq. (14) for each subspace in ``subspaces`` (int array, same order)."""
    return np.array([q_count(X, k, r, S) for S in subspaces], dtype=np.int64)


def all_subspaces(d: int, size: int) -> list[tuple[int, ...]]:
    """``F_c`` of Sec. 5.1: all ``size``-dimensional subspaces of ``{0, ..., d-1}`` (lexicographic)."""
    if not 1 <= size <= d:
        raise ValueError(f"subspace size must be in [1, d={d}], got {size}")
    return list(itertools.combinations(range(d), size))


def _check_k(k: int) -> None:
    if int(k) != k or k < 1:
        raise ValueError(f"threshold k must be a positive integer, got {k!r}")
