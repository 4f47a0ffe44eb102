"""Paper B Sec. 3.1: dist_S, neighbour sets (Def. 7), outliers (Def. 8), q_count (eq. 14)."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly.outliers import (
    all_subspaces,
    neighbour_counts,
    outlier_mask,
    q_count,
    q_count_subspaces,
    subspace_coords,
)


def _brute_counts(X: np.ndarray, r: float, S) -> np.ndarray:
    S = list(S)
    D = np.sqrt(((X[:, None, S] - X[None, :, S]) ** 2).sum(-1) / len(S)) / (1 + 1e-9)
    np.fill_diagonal(D, np.inf)
    return (D <= r).sum(1)


def test_subspace_coords_gives_dist_S():
    X = np.array([[0.0, 0.0, 0.0], [3.0, 4.0, 100.0]])
    Z = subspace_coords(X, (0, 1))
    assert np.linalg.norm(Z[0] - Z[1]) == pytest.approx(5.0 / np.sqrt(2))  # sqrt((9+16)/2)
    assert subspace_coords(X).shape == (2, 3)


@pytest.mark.parametrize("seed", range(5))
def test_neighbour_counts_match_brute_force_with_duplicates(seed):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(60, 4)), 1)  # rounding creates duplicates and ties
    X[5] = X[6]  # an exact duplicate counts as a neighbour
    for S in [(0,), (1, 3), (0, 1, 2, 3)]:
        assert np.array_equal(neighbour_counts(X, 0.3, S), _brute_counts(X, 0.3, S))
    assert neighbour_counts(X[[5, 6]], 1e-9, None).tolist() == [1, 1]


def test_outlier_definition_fewer_than_k():
    X = np.array([[0.0], [0.5], [1.0], [10.0]])  # degrees with r = 0.5: 1, 2, 1, 0
    assert neighbour_counts(X, 0.5).tolist() == [1, 2, 1, 0]
    assert outlier_mask(X, 2, 0.5).tolist() == [True, False, True, True]
    assert q_count(X, 2, 0.5) == 3 and q_count(X, 1, 0.5) == 1


def test_q_count_subspaces_and_all_subspaces():
    X = np.array([[0.0, 0.0], [0.1, 5.0], [0.2, 10.0]])
    assert all_subspaces(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert len(all_subspaces(10, 1)) == 10
    assert q_count_subspaces(X, 1, 0.15, [(0,), (1,)]).tolist() == [0, 3]


def test_table1_synthetic1_gives_true_outlier_count():
    """Table 1 (Synthetic 1): 45 N(0, I_2) inliers + 5 N((20, 20), 100 I) outliers, k = 3, r = 1.1."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(45, 2)), rng.normal(20.0, 10.0, size=(5, 2))])
    mask = outlier_mask(X, 3, 1.1)
    assert q_count(X, 3, 1.1) == 5
    assert mask[45:].all() and not mask[:45].any()
    # over other draws the planted outliers are always found; a few tail inliers may join them
    for seed in range(1, 20):
        rng = np.random.default_rng(seed)
        X = np.vstack([rng.normal(size=(45, 2)), rng.normal(20.0, 10.0, size=(5, 2))])
        m = outlier_mask(X, 3, 1.1)
        assert m[45:].all() and 5 <= m.sum() <= 8


@pytest.mark.parametrize(
    "call",
    [
        lambda X: neighbour_counts(X, 0.0),
        lambda X: outlier_mask(X, 0, 1.0),
        lambda X: q_count(X, 1.5, 1.0),
        lambda X: subspace_coords(X, (0, 5)),
        lambda X: subspace_coords(X, ()),
        lambda X: subspace_coords(np.array([[np.nan, 1.0]])),
        lambda X: all_subspaces(3, 4),
    ],
)
def test_bad_inputs_raise(call):
    with pytest.raises(ValueError):
        call(np.zeros((3, 2)))
