"""Algorithm 1 of paper B (Section 5): the largest subset of P enclosed by a closed ball of radius r,
``M(P) = max_{x in D} |B(x, r) ∩ P|`` (eqs. 45-46), exactly, and its deterministic work budget.

* :func:`algorithm1` - Algorithm 1 verbatim (include/exclude recursion over the points, pruning subsets whose
  smallest enclosing ball exceeds r): O(2^|P|) smallest-enclosing-ball evaluations.
* :func:`largest_enclosed_subset` - the same value by ``method``: ``paper`` (= :func:`algorithm1`) or
  ``pruned`` (exact branch and bound; closed forms in 1-D and 2-D).
* The one budget concept of the library: work units (:class:`WorkBudgetExceeded`), counted identically on
  every machine, so a budget can never make a result depend on the machine's speed.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Iterator
from typing import Callable, Literal

import miniball
import numpy as np
from scipy.spatial import cKDTree

from privanomaly.sp.balls import euclidean_scale

from .distance import RADIUS_RTOL

__all__ = ["WorkBudgetExceeded", "seb_radius", "algorithm1", "largest_enclosed_subset", "scaled_to_r"]

#: relative tolerance when testing seb(C) <= r: errs towards "enclosed" (a larger M, hence a larger smooth
#: bound) by a margin strictly larger than the rounding of the degree test. The degree test
#: (:mod:`.distance`) counts y as a neighbour of x when the float distance is <= r (1 + RADIUS_RTOL); that
#: float distance and the computed smallest-enclosing-ball radius are each within a few ulp (relative
#: ~1e-15) of the exact values, so every set the degree test puts within r of one point has a computed seb
#: <= r (1 + RADIUS_RTOL)(1 + ~1e-14) < r (1 + 2 RADIUS_RTOL): Algorithm 1 counts it as enclosed, and
#: Theorem 2's premise S >= LS holds at every tie (tests/test_outliers_float_boundary.py).
SEB_RTOL = 2.0 * RADIUS_RTOL


class WorkBudgetExceeded(RuntimeError):
    """Algorithm 1 needed more than ``max_work`` work units (a deterministic, machine-independent budget).

    One work unit = one smallest-enclosing-ball evaluation of Algorithm 1 (the exponential part: paper
    recursion, or the pruned search in >= 3-D); an exact closed-form solve in 1-D or 2-D (polynomial) counts
    as one unit.  ``used`` is the count when the limit was passed (``limit + 1``).
    """

    def __init__(self, limit: int, used: int):
        super().__init__(f"Algorithm 1 exceeded its work budget of {limit} work units (smallest-enclosing-ball evaluations)")
        self.limit, self.used = limit, used

    def __reduce__(self):  # picklable (crosses process boundaries)
        return (WorkBudgetExceeded, (self.limit, self.used))


class _Work:
    """Counter of Algorithm-1 work units; raises :class:`WorkBudgetExceeded` past ``limit`` (None = no limit)."""

    def __init__(self, limit: int | None = None):
        if limit is not None and (not isinstance(limit, int | np.integer) or limit < 0):
            raise ValueError(f"max_work must be a non-negative integer or None, got {limit!r}")
        self.limit, self.used = limit, 0
        self.tick: Callable[[int], object] | None = None  # progress hook (the job's log), called per charge

    def charge(self, n: int = 1) -> None:
        self.used += int(n)
        if self.tick is not None:
            self.tick(self.used)
        if self.limit is not None and self.used > self.limit:
            raise WorkBudgetExceeded(int(self.limit), self.used)


_MEMO: dict[tuple, tuple[int, int]] | None = None


@contextlib.contextmanager
def memoised() -> Iterator[None]:
    """Inside this block :func:`largest_enclosed_subset` remembers each answer with the work units it cost,
    keyed by the exact bytes of its (scaled) input; a repeated input returns the same answer and charges the
    same units again, so budgets (:class:`WorkBudgetExceeded`) decide as without the memo. For exhaustive
    small worlds (the audit), where one subset recurs across datasets, bounds and eps; nested blocks share
    the outer memo."""
    global _MEMO
    outer = _MEMO
    _MEMO = {} if outer is None else outer
    try:
        yield
    finally:
        _MEMO = outer


_RADII: dict[tuple, float] | None = None


@contextlib.contextmanager
def shared_radii() -> Iterator[None]:
    """Inside this block the pruned search (:func:`largest_enclosed_subset`) computes the smallest-enclosing-ball
    radius of each point set once: :func:`seb_radius` depends only on the set of distinct rows, which the key
    holds exactly (their shape and bytes in lexicographic order, as ``seb_radius`` sorts them), so a repeated set - the nested
    windows of one smooth bound test the same subsets again - gets the same radius and is charged the same work
    unit again. One block per smooth bound (:mod:`.smooth`); nested blocks share the outer one. Never keep a
    block open across a change of ``seb_radius`` (the negative controls patch it between calls)."""
    global _RADII
    outer = _RADII
    _RADII = {} if outer is None else outer
    try:
        yield
    finally:
        _RADII = outer


# ----------------------------------------------------------------------------------------------------------
# smallest enclosing ball and Algorithm 1
# ----------------------------------------------------------------------------------------------------------
def seb_radius(P: np.ndarray) -> float:
    """Radius of the smallest enclosing ball of the rows of ``P`` (Fischer-Gaertner-Kutz [20] problem).

    Uses the PyPI ``miniball`` (Welzl's algorithm) on de-duplicated rows, translated to the first of them, with
    a fixed internal generator; returns the max distance from the returned centre (a valid enclosing radius).  Falls back to a
    direct minimax solve if ``miniball`` hits a degenerate (affinely dependent) support set.
    """
    P = _unique_rows(np.asarray(P, dtype=float))[0]
    if len(P) <= 1:
        return 0.0
    # local coordinates: a difference of two floats is rounded relative to itself, so a set of extent ~r keeps
    # ~1e-16 r accuracy however far it lies from the origin (absolute coordinates would lose ~1e-16 of their size)
    P = P - P[0]
    if len(P) == 2:
        return float(np.linalg.norm(P[0] - P[1]) / 2.0)
    Q = _merge_near_duplicates(P)
    if len(Q) == 1:
        return float(_norms(P - Q[0]).max())
    center = None
    try:
        with np.errstate(all="ignore"):
            c, _ = miniball.get_bounding_ball(Q, rng=np.random.default_rng(0))
        if np.all(np.isfinite(c)):
            center = c
    except (np.linalg.LinAlgError, ValueError, ZeroDivisionError):
        center = None
    if center is None:
        center = _minimax_center(Q)
    return float(_norms(P - center).max())


#: rows closer than this (relative to the set's extent) are one support point for Welzl's algorithm
SEB_MERGE_RTOL = 1e-12


def _merge_near_duplicates(P: np.ndarray) -> np.ndarray:
    """The rows of P without those within ``SEB_MERGE_RTOL`` x extent of an earlier kept row.

    Welzl's algorithm (``miniball``) can return a far-from-smallest ball when two support points differ in
    the last bits (seen: 1.09 r for copies of a triangle's vertices at circumradius r). The centre is found
    on the merged rows and the radius measured on every row of P, so it stays a valid enclosing radius,
    above the smallest by at most the merge distance (~1e-12 of the extent): far below the margin
    ``SEB_RTOL - RADIUS_RTOL``.
    """
    tol = SEB_MERGE_RTOL * max(float(np.ptp(P, axis=0).max()), np.finfo(float).tiny)
    pairs = cKDTree(P).query_pairs(tol, output_type="ndarray")
    if len(pairs) == 0:
        return P
    keep = np.ones(len(P), dtype=bool)
    for i, j in pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]:
        if keep[i]:
            keep[j] = False
    return P[keep]


def _norms(D: np.ndarray) -> np.ndarray:
    """Euclidean norms of the rows of ``D`` without squaring under/overflow (``hypot`` reduction)."""
    D = np.abs(np.asarray(D, dtype=float))
    return np.hypot.reduce(D, axis=-1) if D.shape[-1] > 1 else D[..., 0]


def _minimax_center(P: np.ndarray) -> np.ndarray:
    from scipy.optimize import minimize

    x0 = P.mean(axis=0)
    m = P.shape[1]

    def obj(z: np.ndarray) -> float:
        return float(z[-1])

    cons = {"type": "ineq", "fun": lambda z: z[-1] - ((P - z[:m]) ** 2).sum(axis=1)}
    z0 = np.append(x0, ((P - x0) ** 2).sum(axis=1).max())
    res = minimize(obj, z0, constraints=[cons], method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
    return res.x[:m]


def _enclosed(P: np.ndarray, r: float, work: _Work | None = None) -> bool:
    if work is not None:
        work.charge()
    return seb_radius(P) <= r * (1.0 + SEB_RTOL)


def _enclosed_rows(U: np.ndarray, rows: list[int], r: float, work: _Work | None = None) -> bool:
    """``_enclosed(U[rows])`` for distinct lexicographically sorted rows ``U`` (:func:`_unique_rows`): ``U[sorted
    rows]`` is then the set's own sorted distinct rows, the key of the :func:`shared_radii` block."""
    P = U[sorted(rows)]
    if _RADII is None:
        return _enclosed(P, r, work)
    if work is not None:
        work.charge()
    key = (P.shape, P.tobytes())
    if key not in _RADII:
        _RADII[key] = seb_radius(P)
    return _RADII[key] <= r * (1.0 + SEB_RTOL)


def _largest_enclosed_paper(P: np.ndarray, r: float, work: _Work | None = None) -> int:
    """Algorithm 1 verbatim (include/exclude recursion over P[i], pruning non-enclosable C)."""
    n = len(P)
    work = work if work is not None else _Work()

    def E(C: list[int], i: int) -> int:
        br = 0.0
        if C:
            work.charge()
            br = seb_radius(P[C])
        if br <= r * (1.0 + SEB_RTOL):
            m = len(C)
            if i < n:
                b1 = E(C + [i], i + 1)
                b2 = E(C, i + 1)
                m = max(m, b1, b2)
            return m
        return 0

    return E([], 0)


def _largest_enclosed_1d(z: np.ndarray, w: np.ndarray, r: float, work: _Work | None = None) -> int:
    if work is not None:
        work.charge()  # one closed-form (polynomial) solve
    order = np.argsort(z)
    z, w = z[order], w[order]
    n = len(z)
    cw = np.concatenate([[0], np.cumsum(w)])
    width = 2.0 * r * (1.0 + SEB_RTOL)
    lo = np.arange(n)
    # hi[i] = 1 + last j with z_j - z_i <= width, decided on the difference (rounded relative to itself, and
    # monotone in z_j) - z_i + width rounds to ~1e-16 of |z_i|, which far from the origin exceeds the margin
    hi = np.maximum(np.searchsorted(z, z + width, side="right"), lo + 1)
    while True:
        up = hi < n
        up[up] = z[hi[up]] - z[up] <= width
        if not up.any():
            break
        hi[up] += 1
    while True:
        down = hi > lo + 1
        down[down] = z[hi[down] - 1] - z[down] > width
        if not down.any():
            break
        hi[down] -= 1
    return int((cw[hi] - cw[lo]).max())


def _largest_enclosed_2d(U: np.ndarray, w: np.ndarray, r: float, work: _Work | None = None) -> int:
    """Exact in the plane for the closed radius ``rd = r (1 + RADIUS_RTOL)`` of the degree test, erring
    towards "enclosed" like every other test (seb, 1-D windows): points are counted within
    ``rr = r (1 + SEB_RTOL)`` of each candidate centre. An optimal disc can be moved (covering no fewer points) until two
    distinct points lie on its boundary, or it contains a single location; so it suffices to test the two
    radius-``rd`` discs through every pair at distance <= 2 rd (the midpoint disc for a pair up to 2 rr apart)
    and the discs centred at the points.  ``U``: distinct points, ``w``: their multiplicities.  The two defining
    points are counted by construction (they lie on the boundary; rounding of the centre must not drop them).
    Everything is computed in coordinates local to the pair's first point (differences of floats, accurate to
    their own size), so the answer does not depend on how far the points lie from the origin.  The candidates
    are counted by a compiled kernel (:func:`privanomaly.outliers._discs.disc_max`); a disc of radius rd through
    U[a] (or centred there) only holds points within rd + rr < 2 rr of U[a], its KD-tree neighbourhood."""
    from ._discs import disc_max

    rr = r * (1.0 + SEB_RTOL)  # counting radius
    rd = r * (1.0 + RADIUS_RTOL)  # the discs' radius: rr - rd covers the rounding of the constructed centres
    if work is not None:
        work.charge()  # one closed-form (polynomial) solve
    start, nbr = _csr(cKDTree(U).query_ball_point(U, 2.0 * rr))
    return int(disc_max(np.ascontiguousarray(U, dtype=float), np.asarray(w, dtype=np.int64), start, nbr, rr, rd))


def _csr(lists: list) -> tuple[np.ndarray, np.ndarray]:
    """Index lists as (start, flat): list i is ``flat[start[i]:start[i + 1]]``."""
    start = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in lists], out=start[1:])
    return start, np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64, count=int(start[-1]))


def _unique_rows(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(P, axis=0, return_counts=True)`` - the same rows in the same (lexicographic) order with the
    same counts - without its overhead on the small sets of Algorithm 1. A -0.0 makes the representative of
    equal rows depend on the sort (and a NaN is equal to nothing), so such input goes to ``np.unique`` itself."""
    n = len(P)
    zero = P == 0.0
    if n < 2 or (zero.any() and np.signbit(P[zero]).any()) or not np.isfinite(P).all():
        return np.unique(P, axis=0, return_counts=True)
    S = P[np.lexsort(P.T[::-1])]
    first = np.empty(n, dtype=bool)
    first[0] = True
    np.any(S[1:] != S[:-1], axis=1, out=first[1:])
    idx = np.flatnonzero(first)
    counts = np.empty(len(idx), dtype=np.int64)
    counts[:-1] = idx[1:] - idx[:-1]
    counts[-1] = n - idx[-1]
    return S[idx], counts


def _largest_enclosed_pruned(P: np.ndarray, r: float, work: _Work | None = None) -> int:
    """Exact branch and bound: every enclosed set is a clique of the 2r-graph; each set is enumerated
    once from its first vertex (in a fixed order), supersets of non-enclosed sets are pruned (as in
    Algorithm 1), and branches that cannot beat the incumbent are cut.  Duplicates are merged (a ball
    containing one copy contains all)."""
    U, w = _unique_rows(P)
    n = len(U)
    if n == 0:
        return 0
    if n == 1:
        return int(w[0])
    if U.shape[1] == 1:
        return _largest_enclosed_1d(U[:, 0], w, r, work)
    if U.shape[1] == 2:
        return _largest_enclosed_2d(U, w, r, work)
    tree = cKDTree(U)
    nb = tree.query_ball_point(U, 2.0 * r * (1.0 + SEB_RTOL))
    nbsets = [set(x) for x in nb]
    # order by weight of 2r-neighbourhood, heaviest first (good incumbents early)
    nbw = np.array([w[list(s)].sum() for s in nbsets])
    order = np.argsort(-nbw, kind="stable")
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    # incumbent: balls centred at the points and at midpoints of close pairs (all are real balls)
    tp = cKDTree(P)
    rr = r * (1.0 + SEB_RTOL)
    best = int(np.asarray(tp.query_ball_point(U, rr, return_length=True)).max())
    pairs = tree.query_pairs(2.0 * rr, output_type="ndarray")
    if len(pairs):
        mids = (U[pairs[:, 0]] + U[pairs[:, 1]]) / 2.0
        best = max(best, int(np.asarray(tp.query_ball_point(mids, rr, return_length=True)).max()))

    def expand(C: list[int], wc: int, cand: list[int]) -> None:
        nonlocal best
        if wc > best:
            best = wc
        if not cand:
            return
        tail = np.cumsum(w[cand][::-1])[::-1]  # weight of cand[j:]
        if wc + tail[0] <= best:
            return
        if _enclosed_rows(U, C + cand, r, work):  # whole candidate set fits: nothing larger in this branch
            best = max(best, wc + int(tail[0]))
            return
        for j, c in enumerate(cand):
            if wc + tail[j] <= best:
                return
            C2 = C + [c]
            if not _enclosed_rows(U, C2, r, work):
                continue
            rest = [x for x in cand[j + 1 :] if x in nbsets[c]]
            expand(C2, wc + int(w[c]), rest)

    for v in order:
        if nbw[v] <= best:
            continue
        cand = sorted((x for x in nbsets[v] if rank[x] > rank[v]), key=lambda x: rank[x])
        expand([int(v)], int(w[v]), cand)
    return best


def algorithm1(P: np.ndarray, r: float, max_work: int | None = None) -> int:
    """Algorithm 1 of paper B: ``M(P)``, the size of the largest subset of ``P`` enclosed by a closed ball of
    radius ``r`` (``largest_enclosed_subset(P, r, method="paper")``).  O(2^|P|): for |P| <= ~15."""
    return largest_enclosed_subset(P, r, method="paper", max_work=max_work)


def largest_enclosed_subset(
    P: np.ndarray, r: float, method: Literal["pruned", "paper"] = "pruned", max_work: int | None = None,
    _work: _Work | None = None,
) -> int:
    """Size of the largest subset ``C ⊆ P`` with ``seb(C) <= r`` = ``max_{x in D} |B(x, r) ∩ P|``
    (eqs. 45-46, Algorithm 1).  Rows of ``P`` are points in the (already scaled) subspace coordinates;
    repeated rows count with multiplicity.

    ``method="paper"``: Algorithm 1 literally, O(2^|P|) seb calls (use for |P| <= ~15).
    ``method="pruned"``: same answer, exact, with clique/bound pruning and duplicate merging (1-D: a
    sliding window; 2-D: discs through pairs of points, O(n^2 log n)).  Caveat: in >= 3-D the pruned search
    is still exponential on dense clusters of distinct points (e.g. 30 points of N(0, 0.36 I_3) with r = 1
    takes > 2 min); callers with such data should use ``smooth_sensitivity(..., method="fast",
    exact_max=0)`` or a work budget.  Equality of both and of exhaustive enumeration is tested.

    ``max_work``: at most this many work units (smallest-enclosing-ball evaluations, see
    :class:`WorkBudgetExceeded`); past it :class:`WorkBudgetExceeded` is raised.  None = no limit.  The count depends only on the data.
    """
    work = _work if _work is not None else _Work(max_work)
    P = np.asarray(P, dtype=float)
    if P.ndim == 1:
        P = P[:, None]
    if len(P) == 0:
        return 0
    _check_r(r)
    P, r = scaled_to_r(P, r)
    if method not in ("pruned", "paper"):
        raise ValueError(f"method must be 'pruned' or 'paper', got {method!r}")
    key = (method, r, P.shape, P.tobytes()) if _MEMO is not None else None
    if key is not None and key in _MEMO:
        size, units = _MEMO[key]
        if units:
            work.charge(units)
        return size
    before = work.used
    if method == "paper":
        size = _largest_enclosed_paper(P, r, work)
    else:
        with shared_radii():
            size = _largest_enclosed_pruned(P, r, work)
    if key is not None:
        _MEMO[key] = (size, work.used - before)
    return size


def scaled_to_r(P: np.ndarray, r: float) -> tuple[np.ndarray, float]:
    """``(P s, r s)`` for a power of two ``s`` with ``r s`` in [1/2, 1) (lowered where a coordinate would pass
    2^500): no squared-distance under/overflow for tiny or huge r, and - unlike dividing by r, which rounds
    every coordinate to ~1e-16 of its magnitude, ~1e-7 r at 1e9 r from the origin - exact, so every test
    here sees the distances of the degree test's own coordinates."""
    s = euclidean_scale(r, P, max_exponent=500)
    return np.asarray(P, dtype=float) * s, r * s


def _check_r(r: float) -> None:
    if not (r > 0 and math.isfinite(r)):
        raise ValueError(f"radius r must be a positive finite number, got {r!r}")
