"""Theorem 2's premise S(X) >= LS(X) for data far from the origin relative to r (e.g. timestamps, raw sensor
readings, projected map coordinates used without standardisation).

Each world puts records on the closed-ball boundary around a centre c: X has one record far away, X' moves it
to c, where the degree test (q_count) sees every boundary record within r. So |q(X) - q(X')| <= LS(X), and
every smooth bound a user can release must be at least that. Algorithm 1 used to divide the coordinates by r
(rounding each to ~1e-16 of its *magnitude*, ~1e-7 r at 1e9 r from the origin) and to build disc centres and
Welzl's ball from such coordinates, so it could miss a set the degree test encloses: S < LS.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from privanomaly.outliers import algorithm2, block_smooth_bound, local_sensitivity_bound, q_count
from privanomaly.outliers.enclosing import largest_enclosed_subset, seb_radius
from privanomaly.outliers.gaussian import smooth_parameters

BETA = smooth_parameters(0.5, 0.01)[1]

# found by a randomised search: records on the boundary of a ball of radius r around c, c ~ 1e8 r (1-D) and
# ~1e9 r (3-D) from the origin, plus one far record; X' moves the far record to c
CASES = [
    (  # 1-D: two records 2r apart, c their midpoint
        [[164490903.06138727], [164490901.32349578], [164490033.24669456]],
        [(164490903.06138727 + 164490901.32349578) / 2],
        0.8689457469484304,
    ),
    (  # 3-D: a tetrahedron's vertices at distance r (dist_S) from c
        [[10334488164.072958, 16200802037.167622, 12402345026.76703],
         [10334488143.947393, 16200802033.857634, 12402345017.599384],
         [10334488162.853027, 16200802031.20515, 12402345012.318148],
         [10334488148.595043, 16200802042.224903, 12402345025.80341],
         [10334481533.077246, 16200795412.749363, 12402338397.947054]],
        [10334488155.124826, 16200802034.796944, 12402345019.994635],
        6.622047579856642,
    ),
]


def _pair(case):
    X, c, r = case
    X = np.array(X)
    Xp = X.copy()
    Xp[-1] = c
    return X, Xp, r


@pytest.mark.parametrize("case", CASES, ids=["1d", "3d"])
def test_smooth_bounds_cover_the_jump_far_from_the_origin(case):
    X, Xp, r = _pair(case)
    jump = abs(q_count(X, 1, r) - q_count(Xp, 1, r))
    assert jump == len(X)  # every record an outlier in X, none in X'
    assert local_sensitivity_bound(X, 1, r) >= jump
    assert algorithm2(X, 1, r, BETA).value >= jump
    assert block_smooth_bound(X, 1, r, BETA).value >= jump
    assert block_smooth_bound(X, 1, r, BETA, exact_max=0).value >= jump


@pytest.mark.parametrize("case", CASES, ids=["1d", "3d"])
def test_largest_enclosed_subset_is_translation_exact(case):
    """The boundary records are enclosed (the degree test puts them within r of c) wherever they sit."""
    X, _, r = _pair(case)
    P = X[:-1] / math.sqrt(X.shape[1])  # dist_S coordinates
    for method in ("pruned", "paper"):
        assert largest_enclosed_subset(P, r, method=method) == len(P)
        assert largest_enclosed_subset(P - P[0], r, method=method) == len(P)


def test_seb_radius_far_from_the_origin():
    """Welzl's ball of a triangle at 1e12 has the radius it has at the origin (to ~1e-15 relative)."""
    tri = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, math.sqrt(3.0)]])
    far = tri + 1e12
    far_local = far - far[0]
    assert seb_radius(far) == pytest.approx(seb_radius(far_local), rel=1e-14)


# integer worlds whose Algorithm 1 answer changed when shifted by 2^30 (every coordinate still exact): ties at
# r = sqrt(2), sqrt(5)/2 that the smallest enclosing ball met exactly at the origin and missed at 2^30
SHIFT_CASES = [
    (math.sqrt(2.0), [[3, 2], [3, 0], [3, 1], [1, 3], [3, 3], [2, 2], [1, 3], [1, 2]], 7),
    (math.sqrt(5.0) / 2, [[2, 3], [2, 1], [3, 3], [1, 0]], 3),
    (math.sqrt(5.0) / 2, [[0, 2, 2], [2, 2, 1], [2, 0, 3], [2, 1, 0], [0, 3, 3], [0, 3, 0], [1, 3, 0]], 3),
    (math.sqrt(5.0) / 2, [[2, 1, 0], [1, 2, 1], [2, 2, 2]], 3),
    (math.sqrt(2.0), [[1, 1, 0], [2, 2, 1], [1, 3, 2], [2, 3, 2], [3, 3, 0]], 4),
]


@pytest.mark.parametrize("r, P, expected", SHIFT_CASES)
@pytest.mark.parametrize("method", ["pruned", "paper"])
def test_largest_enclosed_subset_unchanged_by_an_exact_shift(r, P, expected, method):
    P = np.array(P, dtype=float)
    assert largest_enclosed_subset(P, r, method=method) == expected
    assert largest_enclosed_subset(P + 2.0**30, r, method=method) == expected
