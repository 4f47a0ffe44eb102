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
from scipy.special import betainc

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


def kissing_cap_bound(d: int) -> int:
    """Rigorous cap-packing upper bound ``floor(2 / I_{1/4}((d-1)/2, 1/2))`` on K_d (any d >= 2)."""
    if d < 1:
        raise ValueError(f"dimension must be >= 1, got {d}")
    if d == 1:
        return 2
    frac = betainc((d - 1) / 2.0, 0.5, 0.25)  # twice the cap's share of the sphere
    return int(math.floor(2.0 / frac + 1e-9))


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


def gs_lower(N: int | None, d: int, k: int) -> int:
    """Lower bound ``min(N, 2dk + 1)`` of Theorem 4 (eq. 18); ``N=None`` means no cap.

    Attained by k points at distance < r from x0 along each of the 2d half-axes (clusters pairwise farther
    than r apart) plus x0: moving x0 far away turns 2dk inliers and x0 itself into outliers.
    """
    _check(N, d, k)
    v = 2 * int(d) * int(k) + 1
    return v if N is None else min(int(N), v)


def gs_upper(N: int | None, d: int, k: int) -> int:
    """Upper bound ``min(N, k K_d + 1)`` of Theorem 4 (eq. 18) with K_d from :func:`kissing_upper`."""
    _check(N, d, k)
    v = int(k) * kissing_upper(int(d)) + 1
    return v if N is None else min(int(N), v)


def gs_exact(d: int, k: int, N: int | None = None) -> int:
    """Exact GS where paper B states it: ``2k + 1`` for d = 1 (tight with the upper bound) and ``5k + 1``
    for d = 2 (the paper's *empirical* statement in Sec. 4.1; not proven there - a pentagon of clusters
    attains it, see tests).  Raises ``ValueError`` for other d."""
    _check(N, d, k)
    if d == 1:
        v = 2 * k + 1
    elif d == 2:
        v = 5 * k + 1
    else:
        raise ValueError(f"paper B states the exact global sensitivity only for d = 1, 2 (got d = {d})")
    return v if N is None else min(int(N), v)


def gs_upper_array(N: int | None, dims: np.ndarray, k: int) -> np.ndarray:
    """Vectorised :func:`gs_upper` over an array of subspace dimensions."""
    dims = np.asarray(dims, dtype=int)
    return np.vectorize(lambda m: gs_upper(N, int(m), k), otypes=[np.int64])(dims)
