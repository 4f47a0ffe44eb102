"""Ball counts: the capped numba KD-tree equals brute force exactly (duplicates, boundary points, caps)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial import cKDTree

from privanomaly import sp

_P = {"euclidean": 2, "manhattan": 1, "chebyshev": np.inf}

grid_points = st.integers(1, 3).flatmap(
    lambda d: arrays(np.int64, st.tuples(st.integers(1, 120), st.just(d)), elements=st.integers(-3, 3))
)


@settings(max_examples=60, deadline=None)
@given(X=grid_points, r=st.integers(0, 4), metric=st.sampled_from(sp.METRICS), cap=st.one_of(st.none(), st.integers(1, 20)))
def test_integer_grid_matches_bruteforce_and_scipy(X, r, metric, cap):
    """Integer coordinates: many duplicates and many points exactly at distance r (all arithmetic exact)."""
    X = X.astype(float) / 4.0  # dyadic: still exact, r/4 radii
    rr = r / 4.0
    brute = sp.ball_counts_bruteforce(X, rr, metric)
    fast = sp.ball_counts(X, rr, metric=metric, cap=cap)
    expect = brute if cap is None else np.minimum(brute, cap)
    np.testing.assert_array_equal(fast, expect)
    # an independent implementation agrees (exact arithmetic, so no boundary ambiguity)
    ref = cKDTree(X).query_ball_point(X, rr, p=_P[metric], return_length=True)
    np.testing.assert_array_equal(brute, ref)
    # multiplicities
    dup = sp.duplicate_counts(X)
    np.testing.assert_array_equal(dup, (X[:, None, :] == X[None, :, :]).all(axis=2).sum(axis=1))
    assert np.all(fast >= (dup if cap is None else np.minimum(dup, cap)))


@settings(max_examples=40, deadline=None)
@given(
    X=arrays(np.float64, st.tuples(st.integers(1, 300), st.integers(1, 6)), elements=st.floats(-2, 2, width=32)),
    r=st.floats(0, 2.5),
    metric=st.sampled_from(sp.METRICS),
    cap=st.one_of(st.none(), st.integers(1, 50)),
    dup=st.integers(0, 3),
)
def test_float_data_matches_bruteforce_bit_for_bit(X, r, metric, cap, dup):
    X = np.concatenate([X] + [X[: len(X) // 3]] * dup)  # add exact duplicates
    brute = sp.ball_counts_bruteforce(X, r, metric)
    fast = sp.ball_counts(X, r, metric=metric, cap=cap)
    np.testing.assert_array_equal(fast, brute if cap is None else np.minimum(brute, cap))


@settings(max_examples=30, deadline=None)
@given(
    X=arrays(np.int64, st.tuples(st.integers(1, 100), st.just(2)), elements=st.integers(-4, 4)),
    Q=arrays(np.int64, st.tuples(st.integers(1, 30), st.just(2)), elements=st.integers(-5, 5)),
    r=st.integers(0, 5),
    metric=st.sampled_from(sp.METRICS),
    cap=st.one_of(st.none(), st.integers(1, 10)),
)
def test_ball_counts_at_queries(X, Q, r, metric, cap):
    expect = sp.pairwise_within(Q, X, r, metric).sum(axis=1)
    got = sp.ball_counts_at(Q, X, r, metric=metric, cap=cap)
    np.testing.assert_array_equal(got, expect if cap is None else np.minimum(expect, cap))


def test_points_exactly_on_the_sphere():
    # 3-4-5 triangles: squared distances 25 exactly; r = 5 must include them, r just below must not
    X = np.array([[0, 0], [3, 4], [-3, 4], [4, -3], [5, 0], [0, 5.0]])
    np.testing.assert_array_equal(sp.ball_counts(X, 5.0)[:1], [6])
    np.testing.assert_array_equal(sp.ball_counts(X, np.nextafter(5.0, 0))[:1], [1])
    np.testing.assert_array_equal(sp.ball_counts(X, 7.0, metric="manhattan")[:1], [6])
    np.testing.assert_array_equal(sp.ball_counts(X, 4.0, metric="chebyshev")[:1], [4])


@pytest.mark.slow
def test_larger_random_with_workers_and_caps():
    rng = np.random.default_rng(7)
    X = np.round(rng.standard_normal((3000, 4)), 1)  # rounding creates duplicates and ties
    brute = sp.ball_counts_bruteforce(X, 0.7)
    for cap in (None, 1, 5, 60, 10**6):
        for workers in (1, 2):
            got = sp.ball_counts(X, 0.7, cap=cap, workers=workers)
            np.testing.assert_array_equal(got, brute if cap is None else np.minimum(brute, cap))


def test_bad_inputs():
    with pytest.raises(ValueError, match="metric"):
        sp.ball_counts(np.zeros((3, 2)), 1.0, metric="cosine")
    with pytest.raises(ValueError, match="NaN"):
        sp.ball_counts(np.array([[0.0, np.nan]]), 1.0)
    with pytest.raises(ValueError, match="radius"):
        sp.ball_counts(np.zeros((3, 2)), -1.0)
    with pytest.raises(ValueError, match="cap"):
        sp.ball_counts(np.zeros((3, 2)), 1.0, cap=0)
    with pytest.raises(ValueError, match="columns"):
        sp.ball_counts_at(np.zeros((3, 3)), np.zeros((3, 2)), 1.0)
    assert sp.ball_counts(np.zeros((0, 2)), 1.0).shape == (0,)


@settings(max_examples=60, deadline=None)
@given(X=grid_points, radii=st.lists(st.integers(0, 5), min_size=1, max_size=4), metric=st.sampled_from(sp.METRICS),
       cap=st.integers(1, 30))
def test_counts_at_many_radii_match_one_radius_at_a_time(X, radii, metric, cap):
    """One walk per row for every radius gives each radius's capped counts, equal to the brute force at each
    radius: dyadic grid points, so duplicates (weights) and points exactly at distance r abound; the radii come
    unsorted and repeated."""
    X = X.astype(float) / 4.0
    rr = [r / 4.0 for r in radii]
    got = sp.ball_counts_radii(X, rr, metric=metric, cap=cap)
    assert got.shape == (len(rr), len(X)) and got.dtype == np.int64
    for row, r in zip(got, rr):
        np.testing.assert_array_equal(row, np.minimum(sp.ball_counts_bruteforce(X, r, metric), cap))


@settings(max_examples=60, deadline=None)
@given(X=grid_points, radii=st.lists(st.integers(0, 6), min_size=1, max_size=6),
       metric=st.sampled_from(sp.METRICS), cap=st.integers(1, 30))
def test_query_counts_at_many_radii_match_the_brute_force(X, radii, metric, cap):
    """Counts of other query points (rows of X, and points on a finer grid between them) at many radii: each
    row equals the brute force of that radius, ties at exactly r included."""
    X = X.astype(float) / 4.0
    Q = np.concatenate([X[::2], X[::3] / 2.0 + 0.125])
    rr = [r / 4.0 for r in radii]
    got = sp.ball_counts_at_radii(Q, X, rr, metric=metric, cap=cap)
    assert got.shape == (len(rr), len(Q)) and got.dtype == np.int64
    for row, r in zip(got, rr):
        brute = sp.pairwise_within(X, Q, r, metric).sum(axis=0)
        np.testing.assert_array_equal(row, np.minimum(brute, cap))
        np.testing.assert_array_equal(row, sp.ball_counts_at(Q, X, r, metric=metric, cap=cap))


def test_many_radii_at_float_boundaries_equal_one_count_per_radius():
    """Radii that are themselves pairwise distances (every square compared exactly at the boundary), their
    neighbouring floats, and 40 radii in one walk: the counts of one walk equal one count per radius."""
    rng = np.random.default_rng(5)
    X = rng.standard_normal((600, 3))
    d = np.sqrt(((X[:40, None, :] - X[None, :40, :]) ** 2).sum(-1))[np.triu_indices(40, 1)]
    picks = rng.choice(d, 12, replace=False)
    radii = np.concatenate([picks, np.nextafter(picks, 0), np.nextafter(picks, np.inf), [0.0, 0.3, 5.0, 0.3]])
    for cap in (3, 25, 10**4):
        got = sp.ball_counts_radii(X, radii, cap=cap)
        want = np.array([sp.ball_counts(X, r, cap=cap) for r in radii])
        np.testing.assert_array_equal(got, want)
        Q = X[:50] + rng.standard_normal((50, 3)) * 0.01
        np.testing.assert_array_equal(sp.ball_counts_at_radii(Q, X, radii, cap=cap),
                                      np.array([sp.ball_counts_at(Q, X, r, cap=cap) for r in radii]))


@pytest.mark.slow
def test_counts_at_many_radii_float_data_and_workers():
    rng = np.random.default_rng(11)
    X = np.round(rng.standard_normal((4000, 5)), 1)  # duplicates and near-ties on the sphere
    X = np.concatenate([X, X[:500]])
    radii = [0.0, 0.3, 0.71, 1.2, 2.5]
    for cap in (1, 7, 60, 10**5):  # 10**5 > the distinct rows: every row searched
        for workers in (1, 2):
            got = sp.ball_counts_radii(X, radii, cap=cap, workers=workers)
            for row, r in zip(got, radii):
                np.testing.assert_array_equal(row, sp.ball_counts(X, r, cap=cap))
            Q = X[:300] + 0.05
            np.testing.assert_array_equal(sp.ball_counts_at_radii(Q, X, radii, cap=cap, workers=workers),
                                          np.array([sp.ball_counts_at(Q, X, r, cap=cap) for r in radii]))
    with pytest.raises(ValueError, match="cap"):
        sp.ball_counts_radii(X, radii, cap=None)
    with pytest.raises(ValueError, match="columns"):
        sp.ball_counts_at_radii(X[:, :2], X, radii, cap=3)


def test_record_counts_at_many_radii_are_record_counts_at_each():
    rng = np.random.default_rng(4)
    X = np.round(rng.standard_normal((1500, 3)), 1)  # duplicates and ties
    radii = [0.0, 0.4, 0.25, 0.9]
    for cap in (3, 40, 10**5):
        x_i, B = sp.record_counts_radii(X, radii, cap=cap)
        for row, r in zip(B, radii):
            x_r, B_r = sp.record_counts(X, r, cap=cap)
            np.testing.assert_array_equal(x_i, x_r)
            np.testing.assert_array_equal(row, B_r)
        assert x_i.dtype == np.int64 and B.dtype == np.int64


def test_record_counts_dedupes_once_with_the_same_result():
    rng = np.random.default_rng(3)
    X = np.round(rng.standard_normal((2000, 3)), 1)
    for cap in (None, 4, 40):
        x_i, B = sp.record_counts(X, 0.5, cap=cap)
        dup = sp.duplicate_counts(X)
        np.testing.assert_array_equal(x_i, dup if cap is None else np.minimum(dup, cap))
        np.testing.assert_array_equal(B, sp.ball_counts(X, 0.5, cap=cap))
        assert x_i.dtype == np.int64 and B.dtype == np.int64


def test_radii_share_one_euclidean_search_unless_they_span_more_than_2_to_the_256():
    """A grid of ordinary radii is one group (one search); r = 0 is in none (its count is the duplicates);
    a radius 2^256 times the smallest starts a new group."""
    from privanomaly.sp.balls import _scale_groups

    assert _scale_groups([0.5, 1.0, 4.0, 0.1]) == [[3, 0, 1, 2]]
    assert _scale_groups([0.0, 1.0, 2.0**255, 2.0**256, 5.0, 0.0]) == [[1, 4, 2], [3]]
    assert _scale_groups([0.0]) == []
