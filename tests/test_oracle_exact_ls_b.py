"""Paper B's local, smooth and global sensitivity against an exact oracle over the continuous domain.

:mod:`oracle_exact_ls_b` (no library code) computes LS(X) exactly over every replacement point of R^d (Def. 3,
eq. 5; neighbours replace one record) and Algorithm 2's value from Theorem 6 with Algorithm 1's M in exact
rationals. Worlds: 1-D, 2-D and 3-D, integer grids (ties exactly at r), floats, duplicates, all-outlier and
no-outlier data. Every bound the library releases must be >= LS (Def. 4, eq. 6) and beta-smooth on every
replacement of a record by a grid point (eq. 7); Algorithm 2 must equal the oracle's Theorem-6 value.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import oracle_exact_ls_b as O
from privanomaly.outliers import algorithm2, block_smooth_bound, gs_exact, gs_upper, local_sensitivity_bound, q_count
from privanomaly.outliers.gaussian import smooth_parameters
from privanomaly.outliers.smooth import horizon

RTOL = 1e-9  # the library's documented closed-ball tolerance (dist_S <= r (1 + 1e-9))


def _worlds():
    rng = np.random.default_rng(20)
    out = [
        (np.array([[0.0], [1.0], [2.0], [3.0], [5.0]]), 1, 1.0),  # ties at exactly r
        (np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [3.0, 3.0]]), 2, 1.0),  # square + outlier
        (np.array([[0.0, 0.0]] * 3 + [[2.0, 0.0]] * 2), 2, 1.0),  # duplicates, midpoint tie
        (np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0], [4.0, 4.0]]), 1, 1.0),  # all outliers
        (np.array([[0.0, 0.0, 0.0]] * 4), 3, 0.5),  # no outlier
        (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [3, 3, 3]], dtype=float), 2, 1.0),
        (np.array([[1.0, 0.0], [-0.5, math.sqrt(3) / 2], [-0.5, -math.sqrt(3) / 2], [5.0, 5.0]]), 1, 1.0),
    ]
    for _ in range(6):
        d = int(rng.integers(1, 4))
        N = int(rng.integers(3, 7))
        X = rng.integers(0, 3, size=(N, d)).astype(float)
        out.append((X, int(rng.integers(1, min(N, 4) + 1)), float(rng.choice([1.0, 0.5, 1.5]))))
    for _ in range(3):
        d = int(rng.integers(1, 4))
        X = rng.normal(size=(6, d))
        out.append((X, int(rng.integers(1, 4)), float(rng.uniform(0.4, 1.2))))
    return out


WORLDS = _worlds()


@pytest.mark.slow
@pytest.mark.parametrize("world", range(len(WORLDS)))
def test_bounds_against_exact_local_sensitivity(world):
    X, k, r = WORLDS[world]
    N, d = X.shape
    P = O.as_points(X)
    R2 = O.radius_sq(r, d, RTOL)
    beta = smooth_parameters(0.5, 0.01)[1]
    assert q_count(X, k, r) == O.q_count(P, k, R2)
    ls = O.local_sensitivity(P, k, R2)
    assert local_sensitivity_bound(X, k, r) >= ls
    a2 = algorithm2(X, k, r, beta)
    assert a2.value >= ls
    assert block_smooth_bound(X, k, r, beta).value >= ls
    assert block_smooth_bound(X, k, r, beta, exact_max=0).value >= ls
    bounds = O.theorem6_bounds(P, k, R2)
    # every t below the public horizon (B_t = N beyond it); the value below is still the maximum over every t
    below = list(algorithm2(X, k, r, beta, early_stop=False).ls_bounds)
    assert len(below) == min(len(bounds), horizon(N, beta)) and below == bounds[: len(below)]
    assert a2.value == pytest.approx(O.smooth_from_bounds(bounds, beta), rel=1e-12)
    # eq. (7) on every replacement of a record by a point of the half-integer grid around the data
    ticks = np.arange(np.floor(X.min()) - 1, np.ceil(X.max()) + 1.5, 0.5)
    rng = np.random.default_rng(world)
    grid = ticks[:, None] if d == 1 else rng.choice(ticks, size=(8, d))
    eb = math.exp(beta)
    bounds_of = {"paper": lambda Y: algorithm2(Y, k, r, beta).value,
                 "fast": lambda Y: block_smooth_bound(Y, k, r, beta).value,
                 "fast0": lambda Y: block_smooth_bound(Y, k, r, beta, exact_max=0).value}
    base = {name: f(X) for name, f in bounds_of.items()}
    for j in range(N):
        for g in grid:
            Xp = X.copy()
            Xp[j] = g
            assert abs(q_count(X, k, r) - q_count(Xp, k, r)) <= ls
            for name, f in bounds_of.items():
                s, sp = base[name], f(Xp)
                assert s <= eb * sp * (1 + 1e-12) and sp <= eb * s * (1 + 1e-12), (name, j, g)


@pytest.mark.slow
@pytest.mark.parametrize("N", [3, 4, 5])
def test_global_sensitivity_1d_exhaustive(N):
    """max over every dataset of N records on {0, ..., 5} (r = 1) of the exact LS equals gs_exact(1, k, N)
    (Theorem 4's 1-D value, with its small-N form) and is at most gs_upper."""
    grid = O.as_points(np.arange(6.0))
    R2 = O.radius_sq(1.0, 1, RTOL)
    for k in range(1, N + 1):
        worst = max(O.local_sensitivity([grid[i] for i in s], k, R2)
                    for s in itertools.combinations_with_replacement(range(len(grid)), N))
        assert worst == gs_exact(1, k, N) <= gs_upper(N, 1, k)
