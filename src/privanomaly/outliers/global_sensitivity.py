"""Global sensitivity of the outlier count (paper B, Section 4.1, Theorem 4, eq. 18; Figure 1).

``min(N, 2dk + 1) <= GS_{q_count, d}(k) <= min(N, k K_d + 1)`` where ``K_d`` is the kissing number of R^d.

Kissing numbers (:data:`KISSING_NUMBERS`, best *upper* bound known to us for each d; exact where proven):

* d = 1, 2: 2 and 6 (elementary; stated in paper B).
* d = 3: 12 (Schuette & van der Waerden 1953; Musin, "The kissing problem in three dimensions",
  Discrete Comput. Geom. 35, 2006 - paper B's ref. [17]).
* d = 4: 24 (Musin, "The kissing number in four dimensions", Ann. of Math. 168, 2008; announced 2003 -
  ref. [18]).
* d = 8: 240 and d = 24: 196560 (Levenshtein 1979; Odlyzko & Sloane, J. Combin. Theory A 26, 1979;
  see Conway & Sloane, *Sphere Packings, Lattices and Groups*, 3rd ed., Table 1.5).
* d = 5-7, 9-23: semidefinite-programming upper bounds (Bachoc & Vallentin, JAMS 21, 2008; Mittelmann &
  Vallentin, "High accuracy semidefinite programming bounds for kissing numbers", Exp. Math. 19, 2010 -
  ref. [19]; improved for d = 9-23 by Machado & de Oliveira Filho, "Improving the semidefinite
  programming bound for the kissing number by exploiting polynomial symmetry", Exp. Math. 27, 2018).
  The values below are those of Machado & de Oliveira Filho (2018) where they improve on Mittelmann &
  Vallentin (2010).  Later improvements (e.g. de Laat & Leijenhorst 2024) lower a few of them by one or
  two; any valid upper bound keeps ``gs_upper`` a valid upper bound, so the table is conservative.
  Lower bounds (best known configurations) are in :data:`KISSING_LOWER` for d <= 24 (Conway & Sloane
  Table 1.5 / Nebe & Sloane's online table).
* d > 24: no tabulated bound is used; :func:`kissing_upper` returns the rigorous *cap-packing (volume)
  bound* ``K_d <= floor(2 / I_{1/4}((d-1)/2, 1/2))``: the contact points of kissing unit spheres are at
  angular distance >= pi/3, so caps of angular radius pi/6 around them are disjoint, and such a cap covers
  the fraction ``I_{sin^2(pi/6)}((d-1)/2, 1/2) / 2`` of the sphere (``I`` = regularised incomplete beta).
  It gives K_2 <= 6 exactly and is valid for every d, but is far looser than the Kabatiansky-Levenshtein
  asymptotics ``K_d <= 2^{0.401 d (1 + o(1))}`` (Probl. Inf. Transm. 14, 1978), which is not a bound at any
  fixed d and therefore not used.  E.g. d = 34 gives ~1.09e11; with the ``min(N, .)`` cap this only matters
  for an uncapped Figure 1.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "KISSING_NUMBERS",
    "KISSING_LOWER",
    "KISSING_EXACT_DIMS",
    "kissing_upper",
    "kissing_cap_bound",
    "gs_lower",
    "gs_upper",
    "gs_exact",
]

#: Best known upper bound on the kissing number K_d (exact for d in KISSING_EXACT_DIMS).  Sources: module doc.
KISSING_NUMBERS: dict[int, int] = {
    1: 2,
    2: 6,
    3: 12,
    4: 24,
    5: 44,
    6: 78,
    7: 134,
    8: 240,
    9: 363,
    10: 553,
    11: 869,
    12: 1356,
    13: 2066,
    14: 3177,
    15: 4858,
    16: 7332,
    17: 11014,
    18: 16469,
    19: 24575,
    20: 36402,
    21: 53878,
    22: 81376,
    23: 123328,
    24: 196560,
}

#: Best known lower bounds (largest known kissing configurations), Conway & Sloane Table 1.5 / Nebe-Sloane.
KISSING_LOWER: dict[int, int] = {
    1: 2, 2: 6, 3: 12, 4: 24, 5: 40, 6: 72, 7: 126, 8: 240, 9: 306, 10: 500, 11: 582, 12: 840,
    13: 1154, 14: 1606, 15: 2564, 16: 4320, 17: 5346, 18: 7398, 19: 10668, 20: 17400, 21: 27720,
    22: 49896, 23: 93150, 24: 196560,
}  # fmt: skip

#: Dimensions where the kissing number is proven (upper bound = lower bound).
KISSING_EXACT_DIMS: frozenset[int] = frozenset({1, 2, 3, 4, 8, 24})


def _log_betainc(a: float, b: float, x: float) -> float:
    """``ln I_x(a, b)`` without underflow (DLMF 8.17.8: ``I_x(a,b) = x^a (1-x)^b / (a B(a,b)) 2F1(a+b, 1; a+1; x)``,
    the series summed term by term; its ratio ``x (a+b+n)/(a+1+n)`` is < x(1 + b) here, so it converges fast)."""
    from scipy.special import betaln  # here: the GS bounds of every other caller need no scipy

    total, term, n = 1.0, 1.0, 0
    while True:
        term *= x * (a + b + n) / (a + 1.0 + n)
        total += term
        n += 1
        if term < 1e-17 * total:
            break
    return a * math.log(x) + b * math.log1p(-x) - math.log(a) - float(betaln(a, b)) + math.log(total)


def kissing_cap_bound(d: int) -> int:
    """Rigorous cap-packing upper bound ``floor(2 / I_{1/4}((d-1)/2, 1/2))`` on K_d (any d >= 2).

    Computed in log space (no overflow at any d; plain ``betainc`` underflows beyond d ~ 1050) and rounded
    *up* (by a relative 1e-12 and the float error of the logarithm), so floating-point error can only loosen, never invalidate, the bound."""
    if d < 1:
        raise ValueError(f"dimension must be >= 1, got {d}")
    if d == 1:
        return 2
    log_v = math.log(2.0) - _log_betainc((d - 1) / 2.0, 0.5, 0.25)  # ln(2 / I)
    slack = 1e-12 + 1e-15 * log_v  # covers the float error of log_v (relative ~1e-16 of it)
    if log_v < 27.0:  # v < ~5e11: a float holds it to ~1e-4 absolute
        return int(math.floor(math.exp(log_v) * (1.0 + slack)))
    # big: 16 significant digits, rounded up, times a power of ten (a valid, slightly looser integer bound)
    log10_v = log_v / math.log(10.0) + slack
    e = math.floor(log10_v)
    mantissa = math.ceil(10.0 ** (log10_v - e + 15))
    if e >= 15:
        return mantissa * 10 ** (e - 15)
    return -(-mantissa // 10 ** (15 - e))  # an integer, rounded up (10 ** negative would be a float)


def kissing_upper(d: int) -> int:
    """Best upper bound on K_d used here: :data:`KISSING_NUMBERS` for d <= 24, cap bound beyond."""
    d = int(d)
    if d < 1:
        raise ValueError(f"dimension must be >= 1, got {d}")
    return KISSING_NUMBERS.get(d, kissing_cap_bound(d))


def _check(N: int | None, d: int, k: int) -> None:
    if d < 1 or int(d) != d:
        raise ValueError(f"dimension d must be a positive integer, got {d!r}")
    if k < 1 or int(k) != k:
        raise ValueError(f"threshold k must be a positive integer, got {k!r}")
    if N is not None and (N < 1 or int(N) != N):
        raise ValueError(f"N must be a positive integer or None, got {N!r}")


def _max_separated_clusters(d: int) -> int:
    """Clusters placeable within r of x0 and pairwise > r apart, as used by the constructions below: the
    2d half-axes (Theorem 4's lower bound), and the pentagon in the plane (5 > 2*2; paper B Sec. 4.1)."""
    return 5 if d == 2 else 2 * d


def _construction_value(N: int, k: int, clusters: int) -> int:
    """Largest count change of the explicit constructions with at most ``clusters`` clusters: x0, ``c`` twins
    of x0 (same position) and ``j`` clusters of ``k - c`` duplicates each at distance < r from x0, pairwise
    farther than r apart; the other ``N - 1 - c - j (k - c)`` records far away and far apart (outliers that
    never change).  Every cluster record has degree (k - c - 1) + c + 1 = k; replacing x0 by a far record
    makes the j (k - c) cluster records and x0 itself outliers: change ``j (k - c) + 1``.  With N <= k every
    record is always an outlier (degree <= N - 1 < k), so the change is 0."""
    if N <= k:
        return 0
    best = 0
    for c in range(k):
        j = min(clusters, (N - 1 - c) // (k - c))
        if j >= 1:
            best = max(best, j * (k - c) + 1)
    return best


def gs_lower(N: int | None, d: int, k: int) -> int:
    """Lower bound of Theorem 4 (eq. 18), ``min(N, 2dk + 1)`` for ``N >= 2dk + 1`` (``N=None``: no cap).

    Attained by k points at distance < r from x0 along each of the 2d half-axes (clusters pairwise farther
    than r apart) plus x0: moving x0 far away turns 2dk inliers and x0 itself into outliers.  For smaller N
    the printed ``min(N, 2dk + 1)`` is *not* a lower bound (N <= k: GS = 0; in 1-D, k = 2, N = 4: GS = 3);
    the value returned is then that of the largest explicit construction that fits in N records (see
    :func:`_construction_value`), which is attained, hence a valid lower bound.
    """
    _check(N, d, k)
    v = 2 * int(d) * int(k) + 1
    if N is None or N >= v:
        return v
    return _construction_value(int(N), int(k), 2 * int(d))


def gs_upper(N: int | None, d: int, k: int) -> int:
    """Upper bound ``min(N, k K_d + 1)`` of Theorem 4 (eq. 18) with K_d from :func:`kissing_upper`."""
    _check(N, d, k)
    v = int(k) * kissing_upper(int(d)) + 1
    return v if N is None else min(int(N), v)


def _gs_upper_proven(N: int | None, d: int, k: int) -> int:
    """The tightest upper bound proven here (module doc of :func:`gs_exact`)."""
    if N is not None and N <= k:
        return 0
    if d == 1:
        if N is None or N >= 2 * k + 1:
            return 2 * k + 1
        return max(k + 1, 2 * int(N) - 2 * k - 1)
    if d == 2:
        return 5 * k + 1 if N is None else min(int(N), 5 * k + 1)
    return gs_upper(N, d, k)


def gs_exact(d: int, k: int, N: int | None = None) -> int:
    """Exact ``GS_{q_count, d}(k)`` (bounded DP: one record replaced) where it is proven; ``ValueError`` else.

    Proof (upper bounds).  Replace x0 by x0'.  A record other than x0 becomes an outlier only if it was
    within r of x0, not of x0', with degree exactly k (set F); it becomes an inlier only if within r of x0',
    not of x0, with degree k - 1 in X (set G); x0 -> x0' changes the count by at most one.  So
    ``|change| <= max(|F|, |G|) + 1`` and ``<= N``.  Take a maximal subset I of F that is pairwise more than
    r apart: every record of F is within r of a member of I, and the closed neighbourhood of q in I holds
    k + 1 records, one of them x0, so ``|F| <= |I| k`` (same for G around x0').  The members of I lie in
    the closed ball B(x0, r) pairwise > r apart, so they are more than 60 degrees apart seen from x0 (two
    points at distances a, b <= r and angle <= 60 degrees are at most max(a, b) <= r apart; a member at x0
    itself is within r of all, then |I| = 1): |I| <= 2 in 1-D, <= 5 in 2-D, <= K_d in general.  Hence
    ``GS_2 <= 5k + 1``; the pentagon of clusters attains it (paper B, Sec. 4.1, stated there empirically).

    1-D, small N: F lies in [x0 - r, x0 + r].  If F had records p < x0 < q within r of each other, F and
    x0 would form a clique and |F| <= k; a record of F at x0 itself is adjacent to all of F, again
    |F| <= k.  Otherwise take p = min F, q = max F (more than r apart); ``I = N[p] ∩ N[q]`` contains x0 and
    no record of F (a record between q - r and p + r is within r of all of [p, q] ⊇ F, so if it were in F
    then |F| <= k).  Then ``N >= |N[p] ∪ N[q]| = 2(k + 1) - |I|`` and ``|F| <= 2(k + 1) - 2|I|``, so
    ``|F| + 1 <= 2N - 2k - 1``.  Thus ``GS_1 = 0`` (N <= k), ``max(k + 1, 2N - 2k - 1)`` (k < N <= 2k + 1),
    ``2k + 1`` (N >= 2k + 1), each attained by :func:`_construction_value` (twins of x0 shrink the clusters).
    Checked by exhaustive search in the tests.  Other (d, k, N): a value only where an attained
    construction meets the proven upper bound (e.g. N <= k + 1).
    """
    _check(N, d, k)
    lo = _construction_value(int(N), int(k), _max_separated_clusters(int(d))) if N is not None else None
    if N is None:
        lo = _max_separated_clusters(int(d)) * int(k) + 1
    hi = _gs_upper_proven(N, int(d), int(k))
    if lo != hi:
        raise ValueError(
            f"the global sensitivity of q_count is not determined for d = {d}, k = {k}, N = {N}: "
            f"{lo} <= GS <= {hi} (exact values are proven for d = 1, d = 2 with N >= 5k + 1, and small N)"
        )
    return hi
