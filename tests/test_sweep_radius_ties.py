"""The radius flagging a fraction f (paper A's selection protocol; the sweeps' ``r: {fraction: ...}``) lies
strictly between two distinct (β+1)-NN distances d_β. A mutual (β+1)-th-neighbour pair has equal d_β, the
distance of the pair: a midpoint between two tied values is that distance itself, and whether the pair's
records are (β, r)-anomalies (B ≤ β, B counting the pair at distance exactly r) was then decided by the float
rounding of the ball-count kernel - on mammography (.test slice, β = 5, f = 0.05) it counted 103
(β, r)-anomalies where the d_β (and a brute-force oracle of d(i, j) ≤ r) say 101."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from privanomaly import sp
from privanomaly.paper_a import selection
from privanomaly.sweeps import counts


def test_a_tie_at_the_midpoint_takes_the_nearest_gap():
    d = np.array([5.0, 4.0, 3.0, 3.0, 1.0])
    r = selection.radius_for_fraction(d, 0.6)  # 3 of 5: the 3rd and 4th are tied at 3
    assert r == 3.5 and int((d > r).sum()) == 2  # 2 and 4 flagged are as near 3: the fewer
    d = np.array([5.0, 3.0, 3.0, 3.0, 1.0])
    assert selection.radius_for_fraction(d, 0.4) == 4.0  # 2 of 5: 1 flagged is nearer than 4
    assert selection.radius_for_fraction(np.array([2.0, 2.0, 2.0]), 0.5) == 2.0  # no gap at all
    assert selection.radius_for_fraction(np.array([5.0, 4.0, 3.0, 2.0]), 0.5) == 3.5  # no tie: as before


def _tied_case(n=400, beta=1, seed=5):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    d = selection.knn_radius_table(X, [beta])[:, 0]
    s = np.sort(d)[::-1]
    m = next(m for m in range(n // 20, n - 1) if s[m - 1] == s[m])  # a mutual pair at the boundary
    return X, d, m / n


@pytest.mark.parametrize("fast", [False, True])
def test_a_sweeps_fraction_radius_is_no_records_distance(monkeypatch, fast):
    if fast:  # the path that reads only the largest d_β (and more when the tie runs past them)
        monkeypatch.setattr(selection, "FULL_KNN_BELOW", 50)
    X, d, f = _tied_case()
    r = counts.resolve_r(X, "fraction", f, 1, "euclidean")
    assert r == selection.radius_for_fraction(d, f)
    assert not np.any(d == r)
    flagged = d > r
    assert abs(int(flagged.sum()) - round(f * len(X))) <= 1
    # the (β, r)-anomalies of the sweep's count kernel and of a brute-force oracle are the flagged records
    x_i, B = sp.record_counts(X, r)
    assert np.array_equal(sp.is_anomaly(x_i, B, 1), flagged)
    assert np.array_equal((cdist(X, X) <= r).sum(axis=1) <= 1, flagged)


def test_a_quantile_radius_on_a_records_distance_keeps_that_neighbour_within():
    """r = the q-quantile of d_β is a d_β itself when q (n - 1) is whole: that record's (β+1)-th neighbour is
    at distance r, so it is no (β, r)-anomaly (d <= r). The ball counts compare squares (sum of squares <=
    r*r) while d_β is a rounded square root; the quantile radius is the next floats up where they differ, so
    the (β, r)-anomalies are exactly {d_β > quantile}, as a brute-force oracle counts them."""
    X = np.random.default_rng(7).normal(size=(300, 3))
    beta, n = 2, 300
    d = selection.knn_radius_table(X, [beta])[:, 0]
    D = cdist(X, X)
    checked = differed = 0
    for j in range(n - 60, n - 1):
        q = j / (n - 1)
        r_q = float(np.quantile(d, q))
        if not np.any(d == r_q):
            continue
        x_i, B = sp.record_counts(X, r_q)
        differed += int(not np.array_equal(sp.is_anomaly(x_i, B, beta), d > r_q))  # the squares' rounding
        r = counts.resolve_r(X, "quantile", q, beta, "euclidean")
        assert r_q <= r <= r_q * (1 + 1e-15)
        x_i, B = sp.record_counts(X, r)
        assert np.array_equal(sp.is_anomaly(x_i, B, beta), d > r_q)
        assert np.array_equal((D <= r_q).sum(axis=1) <= beta, d > r_q)
        checked += 1
    assert checked >= 20 and differed >= 1  # the case arises, and is handled
