"""One counting kernel for paper A's record tables and the sweeps' count tables, and the sweeps' radius at a
fraction from the largest (β+1)-NN distances only: the same numbers as before, checked against brute force
on integer grids (many records exactly at distance r, many duplicates)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from privanomaly import seeding, sp
from privanomaly.paper_a import records, selection
from privanomaly.sweeps import counts

METRICS = {"euclidean": 2.0, "manhattan": 1.0, "chebyshev": np.inf}


def grid_data(n: int, d: int, side: int, seed: int) -> np.ndarray:
    """Integer points on a small grid: exact ties at integer radii and duplicates."""
    return seeding.rng(seed, "counting_kernel").integers(0, side, size=(n, d)).astype(float)


def brute_d_beta(X: np.ndarray, beta: int, p: float) -> np.ndarray:
    diff = np.abs(X[:, None, :] - X[None, :, :])
    D = diff.max(axis=2) if np.isinf(p) else (diff**p).sum(axis=2) ** (1.0 / p)
    return np.sort(D, axis=1)[:, beta]


@pytest.mark.parametrize("metric", sorted(METRICS))
@pytest.mark.parametrize("cap", [None, 4, 12])
def test_record_and_count_tables_share_the_kernel_and_match_brute_force(metric, cap):
    X = grid_data(400, 2, 12, 1)
    labels = np.zeros(len(X), dtype=np.int8)
    r = 2.0  # integer radius on an integer grid: many pairs exactly at r
    x_i, B = sp.record_counts(X, r, metric=metric, cap=cap)
    brute = sp.ball_counts_bruteforce(X, r, metric)
    dup = sp.duplicate_counts(X)
    assert (B == (brute if cap is None else np.minimum(brute, cap))).all()
    assert (x_i == (dup if cap is None else np.minimum(dup, cap))).all() and (x_i <= B).all()
    rec = records.record_table(X, labels, 3, r, cap=cap, metric=metric)
    tab = counts.count_table(X, labels, r, metric=metric, cap=cap, absent=np.empty((0, 2)))
    assert (rec["x_i"].to_numpy() == x_i).all() and (rec["B"].to_numpy() == B).all()
    assert (tab["x_i"].to_numpy() == x_i).all() and (tab["B"].to_numpy() == B).all()


class _CountingTree(cKDTree):
    """cKDTree recording how many points each k-NN query asks for."""

    sizes: list[int] = []

    def query(self, x, *args, **kwargs):
        _CountingTree.sizes.append(len(x))
        return super().query(x, *args, **kwargs)


@pytest.mark.parametrize("metric", sorted(METRICS))
@pytest.mark.parametrize("beta", [1, 3, 10])
@pytest.mark.slow
def test_largest_knn_radii_equal_the_full_table_and_brute_force(monkeypatch, metric, beta):
    """The threshold path (forced on small data) returns exactly the largest d_β of the full k-NN table,
    ties included, and most of these calls take it (fewer records queried than the data has)."""
    monkeypatch.setattr(selection, "FULL_KNN_BELOW", 50)
    monkeypatch.setattr(selection, "cKDTree", _CountingTree)
    p = METRICS[metric]
    X = np.vstack([grid_data(900, 2, 40, 2), np.round(seeding.rng(6, "counting_kernel").normal(size=(900, 2)) * 9, 1)])
    full = np.sort(selection.knn_radius_table(X, [beta], p=p)[:, 0])[::-1]
    assert (np.sort(brute_d_beta(X, beta, p))[::-1] == full).all()
    fast = 0
    for count in (1, 9, 45, 120, 225):
        _CountingTree.sizes = []
        assert (selection.largest_knn_radii(X, beta, count, p=p) == full[:count]).all()
        fast += _CountingTree.sizes[-1] < len(X)
    assert fast >= 3


@pytest.mark.parametrize("metric", sorted(METRICS))
@pytest.mark.parametrize("fraction", [0.001, 0.01, 0.05, 0.2])
def test_radius_at_fraction_is_the_selection_protocols_radius(monkeypatch, metric, fraction):
    monkeypatch.setattr(selection, "FULL_KNN_BELOW", 50)
    p = METRICS[metric]
    rng = seeding.rng(3, "counting_kernel", metric)
    X = np.vstack([grid_data(1500, 3, 9, 4), np.round(rng.normal(size=(1500, 3)) * 4, 1)])
    for beta in (2, 5):
        want = selection.radius_for_fraction(selection.knn_radius_table(X, [beta], p=p)[:, 0], fraction)
        assert selection.radius_at_fraction(X, beta, fraction, p=p) == want
        assert counts.resolve_r(X, "fraction", fraction, beta, metric) == want


def test_radius_at_fraction_rejects_bad_input():
    X = grid_data(30, 2, 5, 5)
    with pytest.raises(ValueError, match="fraction must be in"):
        selection.radius_at_fraction(X, 2, 1.0)
    with pytest.raises(ValueError, match="needs at least"):
        selection.radius_at_fraction(X[:2], 5, 0.5)
