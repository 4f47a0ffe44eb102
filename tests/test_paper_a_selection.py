"""Paper A (β, r) selection protocol (privanomaly.paper_a.selection) on constructed inputs."""

import numpy as np
import pandas as pd
import pytest

from privanomaly import sp
from privanomaly.paper_a import selection


def _line_data():
    """20 points packed in [0, 1.9] (label 0) and 3 isolated points at 10, 20, 30 (label 1)."""
    X = np.concatenate([np.arange(20) * 0.1, [10.0, 20.0, 30.0]])[:, None]
    y = np.array([0] * 20 + [1, 1, 1])
    return X, y


def test_knn_radius_matches_ball_counts():
    """d_β(i) > r  ⟺  B_x(i, r) <= β, with duplicates and self counted (brute-force ball counts)."""
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(200, 2)), 1)  # rounding creates duplicates
    betas = [1, 3, 7]
    D = selection.knn_radius_table(X, betas)
    for r in (0.05, 0.3, 0.8):
        B = sp.ball_counts_bruteforce(X, r)
        for j, beta in enumerate(betas):
            np.testing.assert_array_equal(D[:, j] > r, B <= beta)


def test_radius_for_fraction_flags_that_many():
    d = np.array([5.0, 1.0, 3.0, 2.0, 4.0])
    r = selection.radius_for_fraction(d, 0.4)  # 2 of 5 → between 4 and 3
    assert r == pytest.approx(3.5)
    assert int((d > r).sum()) == 2
    with pytest.raises(ValueError, match="fraction"):
        selection.radius_for_fraction(d, 1.0)


def test_f1_scores_values():
    p, r, f1, n = selection.f1_scores(np.array([1, 1, 0, 0], bool), np.array([1, 0, 1, 0]))
    assert (p, r, f1, n) == (0.5, 0.5, 0.5, 2)
    assert selection.f1_scores(np.zeros(3, bool), np.array([1, 0, 0]))[:3] == (0.0, 0.0, 0.0)


def test_surface_and_choice_pick_the_f1_maximising_pair():
    X, y = _line_data()
    surf = selection.selection_surface(X, y, betas=[1, 2], fractions=[3 / 23, 6 / 23])
    assert list(surf.columns) == ["beta", "fraction", "r", "n_flagged", "precision", "recall", "f1", "n_scored"]
    assert len(surf) == 4
    # flagging 3 of 23 records flags exactly the three isolated points (F1 = 1) for both β
    best = surf[np.isclose(surf["fraction"], 3 / 23)]
    assert (best["f1"] == 1.0).all() and (best["n_flagged"] == 3).all()
    assert (surf[np.isclose(surf["fraction"], 6 / 23)]["f1"] < 1).all()
    c = selection.choose(surf)
    assert c.f1 == 1.0 and c.fraction == pytest.approx(3 / 23)
    assert c.beta == 2  # F1 tie between β = 1 and β = 2 → the larger β (documented tie-break)
    # the chosen r really makes the three isolated points the (β, r)-anomalies
    B = sp.ball_counts(X, c.r)
    np.testing.assert_array_equal(B <= c.beta, y == 1)


def test_choose_prefers_f1_over_beta_and_smaller_fraction_on_ties():
    surf = pd.DataFrame({"beta": [1, 5, 5, 9], "fraction": [0.1, 0.2, 0.1, 0.1], "r": [1.0, 2.0, 3.0, 4.0],
                         "f1": [0.9, 0.8, 0.8, 0.5]})
    assert selection.choose(surf).beta == 1  # highest F1 wins whatever β
    surf.loc[0, "f1"] = 0.8
    c = selection.choose(surf)
    assert (c.beta, c.fraction, c.r) == (5, 0.1, 3.0)  # tie → larger β, then smaller fraction


def test_subsampled_selection_is_seeded_and_errors_are_clear():
    X, y = _line_data()
    a = selection.selection_surface(X, y, [1], [0.2], rng=np.random.default_rng(1), max_query_rows=10)
    b = selection.selection_surface(X, y, [1], [0.2], rng=np.random.default_rng(1), max_query_rows=10)
    pd.testing.assert_frame_equal(a, b)
    assert int(a["n_scored"].iloc[0]) == 10
    with pytest.raises(ValueError, match="seeded rng"):
        selection.selection_surface(X, y, [1], [0.2], max_query_rows=10)
    with pytest.raises(ValueError, match="needs at least"):
        selection.knn_radius_table(X[:3], [5])


def test_grid_edges_flag_a_choice_at_either_end_of_its_grid():
    from privanomaly.paper_a.selection import Choice, edge_note, grid_edges

    betas, fractions = [1, 5, 50], [0.01, 0.05, 0.2]
    interior = grid_edges(Choice(beta=5, r=1.0, fraction=0.05, f1=0.5), betas, fractions)
    assert interior == [] and edge_note(interior) == ""
    both = grid_edges(Choice(beta=50, r=1.0, fraction=0.2, f1=0.5), betas, fractions)  # shuttle's case
    assert [(e.parameter, e.end) for e in both] == [("β", "largest"), ("fraction", "largest")]
    assert "paper_a.selection.betas [1 … 50]" in both[0].message()
    assert edge_note(both) == "⚠ edge of grid: β = 50 (largest), fraction = 0.2 (largest)"
    low = grid_edges(Choice(beta=1, r=1.0, fraction=0.01, f1=0.5), betas, fractions)
    assert [(e.parameter, e.end) for e in low] == [("β", "smallest"), ("fraction", "smallest")]
    # a one-value grid fixes the parameter: never an edge
    assert grid_edges(Choice(beta=5, r=1.0, fraction=0.02, f1=0.5), [5], [0.02]) == []
