"""Paper A's private selection under every metric of the ball counts (ℓ2, ℓ1, ℓ∞), not only the Euclidean one.

Δu of the utility "records whose (β, r)-anomaly status matches their label" under add/remove is β·P + 1, P
a packing number of the metric: how many records within r of the added point can be pairwise more than r
apart (each such record's ball then holds at most β records, and every record that flips lies within r of
one of them). ℓ2: the kissing number K_d (pairwise angles above 60°). ℓ∞: 2^d (the cube of side 2r around
the point is 2^d closed cubes of side r, and two records in one are within r). Any norm, ℓ1 included: 3^d
(open balls of radius r/2 around them are disjoint and inside the ball of radius 3r/2 around the point).
One dimension: 2 for every metric. Before, ℓ1 and ℓ∞ had no private selection row at all ("skipped")."""

from __future__ import annotations

import itertools

import numpy as np
import pytest


import price_inputs
from privanomaly.price import tuning as price
from privanomaly.privacy import scope


def _utility(X, y, cands, metric):
    X = np.asarray(X, float).reshape(len(X), -1)
    return price.paper_a_utility(price.Counts(X, metric, 100, [r for _, r in cands]), np.asarray(y), cands)


@pytest.mark.parametrize("d, beta, metric, want", [
    (1, 3, "manhattan", 7), (1, 3, "chebyshev", 7), (1, 3, "euclidean", 7),
    (2, 3, "chebyshev", 13), (3, 2, "chebyshev", 17),
    (2, 3, "manhattan", 28), (3, 2, "manhattan", 55),
    (2, 3, "euclidean", 19),
])
def test_sensitivity_per_metric(d, beta, metric, want):
    assert price.paper_a_sensitivity(d, beta, metric) == want


@pytest.mark.parametrize("metric, corners", [
    ("chebyshev", [(1, 1), (1, -1), (-1, 1), (-1, -1)]),   # pairwise ℓ∞ 2 > r, each within ℓ∞ 1 of the origin
    ("manhattan", [(1, 0), (-1, 0), (0, 1), (0, -1)]),     # pairwise ℓ1 2 > r, each within ℓ1 1 of the origin
])
@pytest.mark.parametrize("beta", [1, 2, 3])
def test_four_clusters_flip_at_once(metric, corners, beta):
    """β records at each of four points pairwise more than r apart: all (β, r)-anomalies, labelled normal; one
    record added (labelled normal) at the centre makes all 4β of them normal - the utility moves by 4β + 1,
    2^d β + 1: the ℓ∞ bound is reached, the ℓ1 one holds."""
    X = [c for c in corners for _ in range(beta)]
    y = [0] * len(X)
    cands = [(beta, 1.0)]
    jump = int(_utility(X + [(0, 0)], y + [0], cands, metric)[0] - _utility(X, y, cands, metric)[0])
    assert jump == 4 * beta + 1
    assert jump <= price.paper_a_sensitivity(2, beta, metric)
    if metric == "chebyshev":
        assert jump == price.paper_a_sensitivity(2, beta, metric)


@pytest.mark.parametrize("metric", ["manhattan", "chebyshev"])
@pytest.mark.parametrize("d, side", [(2, 3), (3, 2)])
def test_utility_moves_by_at_most_its_du_on_every_added_record(metric, d, side):
    """Random worlds on a grid (duplicates, records at exactly r), every point of the grid added with either
    label: the real utility never moves by more than Δu."""
    rng = np.random.default_rng(d * 10 + side)
    grid = [tuple(p) for p in itertools.product(range(side), repeat=d)]
    cands = [(b, r) for b in (1, 2) for r in (1.0, 2.0)]
    du = price.paper_a_sensitivity(d, 2, metric)
    worst = 0
    for _ in range(60):
        n = int(rng.integers(1, 8))
        X = [grid[i] for i in rng.integers(0, len(grid), size=n)]
        y = list(rng.integers(0, 2, size=n))
        u0 = _utility(X, y, cands, metric)
        for p, lab in itertools.product(grid, (0, 1)):
            worst = max(worst, int(np.abs(_utility(X + [p], y + [lab], cands, metric) - u0).max()))
    assert 3 <= worst <= du


@pytest.mark.parametrize("metric", ["manhattan", "chebyshev"])
def test_price_has_a_private_selection_row_under_every_metric(metric):
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(size=(70, 2)), rng.normal(6.0, 2.0, size=(6, 2))])
    y = np.r_[np.zeros(70, int), np.ones(6, int)]
    split = price_inputs.split_args(X, y, 0.25, 4)
    t = price.paper_a_price(X, y, {"steps": []}, betas=[1, 2, 3], fractions=[0.05, 0.1], eps_grid=[1.0], k=1,
                            **split, selection_share=0.2, rng=np.random.default_rng(5), metric=metric)
    row = t.set_index("tuning").loc["private_selection"]
    du = price.paper_a_sensitivity(2, 3, metric)
    assert row["skipped"] == "" and f"Δu = {du}" in row["public_inputs"]
    assert row["proven_end_to_end"] and 1 <= row["beta"] <= 3 and 0 <= row["precision_labels"] <= 1
    assert row["claim_eps"] <= 1.0 and row["neighbours"] == "sensitive_k"
    assert scope.CANDIDATES_RELATION in row["public_inputs"]
