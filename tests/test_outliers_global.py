"""Paper B Sec. 4.1, Theorem 4 (eq. 18): global-sensitivity bounds and constructions attaining them."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly.outliers import (
    KISSING_EXACT_DIMS,
    KISSING_LOWER,
    KISSING_NUMBERS,
    gs_exact,
    gs_lower,
    gs_upper,
    kissing_cap_bound,
    kissing_upper,
    local_sensitivity_bound,
    local_sensitivity_exact_grid,
    q_count,
)


def test_kissing_table_is_consistent():
    assert [KISSING_NUMBERS[d] for d in (1, 2, 3, 4, 8, 24)] == [2, 6, 12, 24, 240, 196560]
    for d in range(1, 25):
        assert KISSING_LOWER[d] <= KISSING_NUMBERS[d] <= kissing_cap_bound(d)
        if d in KISSING_EXACT_DIMS:
            assert KISSING_LOWER[d] == KISSING_NUMBERS[d]
    assert all(KISSING_NUMBERS[d] < KISSING_NUMBERS[d + 1] for d in range(1, 24))
    assert kissing_cap_bound(2) == 6 and kissing_cap_bound(3) == 14
    assert kissing_upper(34) == kissing_cap_bound(34) > KISSING_NUMBERS[24]


def test_gs_bounds_formulas():
    assert gs_lower(50, 2, 3) == 13 and gs_lower(50, 7, 3) == 43  # Figures 3-4's GS (NOTES.md)
    assert gs_upper(None, 1, 3) == 7 and gs_upper(None, 2, 3) == 19 and gs_upper(None, 3, 3) == 37
    assert gs_upper(50, 7, 3) == 50 and gs_upper(None, 7, 3) == 3 * 134 + 1
    assert gs_exact(1, 3) == 7 == gs_upper(None, 1, 3)  # tight in d = 1
    assert gs_exact(2, 3) == 16 < gs_upper(None, 2, 3)  # 5k+1 < 6k+1 in d = 2
    for d in range(1, 41):
        for k in (1, 3, 5):
            assert gs_lower(None, d, k) <= gs_upper(None, d, k)
    with pytest.raises(ValueError):
        gs_exact(3, 3)
    with pytest.raises(ValueError):
        gs_upper(10, 0, 3)


def _axis_construction(d: int, k: int, r: float) -> np.ndarray:
    """x0 at the origin, k copies at distance 0.9 r (in dist_S) along each of the 2d half-axes."""
    scale = 0.9 * r * np.sqrt(d)  # raw coordinate giving dist_S = 0.9 r
    pts = [np.zeros(d)]
    for i in range(d):
        for s in (1.0, -1.0):
            e = np.zeros(d)
            e[i] = s * scale
            pts += [e] * k
    return np.array(pts)


@pytest.mark.parametrize("d", [1, 2, 3, 4])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_lower_bound_attained_by_explicit_construction(d, k):
    r = 1.0
    X = _axis_construction(d, k, r)
    assert q_count(X, k, r) == 0  # every cluster point has k-1 copies + x0 as neighbours
    Xp = X.copy()
    Xp[0] = 1e3  # move x0 far away
    assert q_count(Xp, k, r) == 2 * d * k + 1 == gs_lower(None, d, k)
    # Theorem 5's bound is tight here
    assert local_sensitivity_bound(X, k, r) == 2 * d * k + 1


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_one_dimensional_brute_force_attains_2k_plus_1(k):
    r = 1.0
    X = _axis_construction(1, k, r)
    grid = np.linspace(-5, 5, 401)[:, None]
    assert local_sensitivity_exact_grid(X, k, r, grid) == 2 * k + 1 == gs_exact(1, k) == gs_upper(None, 1, k)


@pytest.mark.parametrize("seed", range(30))
def test_one_dimensional_random_databases_never_exceed_2k_plus_1(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 4))
    X = np.round(rng.uniform(0, 4, size=(int(rng.integers(4, 11)), 1)), 1)
    grid = np.linspace(-1, 5, 121)[:, None]
    assert local_sensitivity_exact_grid(X, k, 0.5, grid) <= 2 * k + 1


@pytest.mark.parametrize("k", [1, 2, 3])
def test_two_dimensional_pentagon_attains_paper_value_5k_plus_1(k):
    """Five clusters at 72 degrees (pairwise 1.18 r apart) around x0: moving x0 changes 5k+1 labels."""
    r = 1.0
    ang = 2 * np.pi * np.arange(5) / 5
    ring = 0.999 * r * np.sqrt(2) * np.stack([np.cos(ang), np.sin(ang)], 1)  # dist_S = 0.999 r
    X = np.vstack([np.zeros((1, 2)), np.repeat(ring, k, axis=0)])
    Xp = X.copy()
    Xp[0] = 1e3
    assert q_count(X, k, r) == 0 and q_count(Xp, k, r) == 5 * k + 1 == gs_exact(2, k)
