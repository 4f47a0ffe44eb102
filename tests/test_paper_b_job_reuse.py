"""Paper B's jobs compute each data-dependent quantity once: k-NN distances queried in the KD-tree's order, the
tuning curves from one k-NN query per subspace, a sweep point's fast bound shared by its mechanisms through the
safety timeout's forked child - each with the same values as the plain computation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.spatial import cKDTree

from privanomaly.outliers import smooth
from privanomaly.paper_b import released_bound, tuning
from privanomaly.sp.knn import knn_distances


def _data(n: int = 400, d: int = 3, seed: int = 3) -> np.ndarray:
    X = np.round(np.random.default_rng(seed).normal(size=(n, d)), 1)  # duplicates and exact ties
    return np.vstack([X, X[:20]])


@pytest.mark.parametrize("rows", [None, np.array([5, 3, 400, 0, 3]), np.array([], dtype=int), np.arange(420) % 3 == 0])
@pytest.mark.parametrize("p", [2.0, 1.0, np.inf])
def test_knn_in_tree_order_equals_the_plain_query(rows, p):
    X = _data()
    tree = cKDTree(X)
    plain = tree.query(X if rows is None else X[rows], k=4, p=p)[0].reshape(-1, 4)
    assert np.array_equal(knn_distances(tree, X, 4, rows, p), plain)


def _old_accuracy_curve(X, y, k, radii, space):
    """The curve as computed before: a (records x radii) prediction matrix per subspace, a fresh query each."""
    def kth(S):
        Z = X[:, list(S)] if S else X
        Z = Z / np.sqrt(Z.shape[1])
        return cKDTree(Z).query(Z, k=k + 1)[0][:, k]

    thr = np.asarray(radii) * (1.0 + 1e-9)
    kd = {"full": [kth(None)], "any_1d": [np.max([kth((j,)) for j in range(X.shape[1])], axis=0)],
          "mean_1d": [kth((j,)) for j in range(X.shape[1])]}[space]
    pos = (y == 1)[:, None]
    out = {c: 0 for c in ("tp", "fp", "fn", "tn")}
    for dist in kd:
        pred = dist[:, None] > thr[None, :]
        for c, m in (("tp", pred & pos), ("fp", pred & ~pos), ("fn", ~pred & pos), ("tn", ~pred & ~pos)):
            out[c] = out[c] + m.sum(0)
    return out


def test_tuning_curves_equal_the_matrix_computation_at_exact_ties():
    X = _data(300, 3)
    y = (np.arange(len(X)) % 7 == 0).astype(int)
    kd = tuning.kth_neighbour_distance(X, 3)
    radii = np.unique(np.concatenate([kd[np.isfinite(kd)][:40], [0.01, 0.3, 5.0]]))  # radii at the distances
    curves = tuning.accuracy_curves(X, y, 3, radii)
    assert [c["space"].iloc[0] for c in curves] == list(tuning.SPACES)
    for space, curve in zip(tuning.SPACES, curves):
        old = _old_accuracy_curve(X, y, 3, radii, space)
        for c in ("tp", "fp", "fn", "tn"):
            assert curve[c].tolist() == old[c].tolist(), (space, c)
        pd.testing.assert_frame_equal(curve, tuning.accuracy_curve(X, y, 3, radii, space))
    assert len({tuple(c["tp"]) for c in curves}) == 3  # the spaces differ: the check can tell them apart


@pytest.mark.subprocess
def test_a_sweep_point_computes_its_fast_bound_once_through_the_forked_child(monkeypatch):
    X, betas = _data(200, 2), [0.05, 0.2]
    calls = []
    real = smooth._block_bounds
    monkeypatch.setattr(smooth, "_block_bounds", lambda *a: calls.append(a[4]) or real(*a))
    fresh = {b: smooth.block_smooth_bound(X, 3, 0.4, b, exact_max=0).value for b in betas}
    calls.clear()
    with smooth.reuse_block_bounds():
        got = released_bound.fast_bounds(X, 3, 0.4, betas, 0, timeout_seconds=60)  # in a forked child
        assert calls == []  # computed in the child, not here
        again = {b: smooth.block_smooth_bound(X, 3, 0.4, b, exact_max=0).value for b in betas}  # a mechanism's
        assert calls == []  # read from what the child handed back
        smooth.block_smooth_bound(X, 3, 0.4, 0.2, exact_max=5)  # other settings: another computation
        assert len(calls) == 1
    assert again == fresh == {b: got[b]["value"] for b in betas}
    released_bound.fast_bounds(X, 3, 0.4, betas, 0, timeout_seconds=60)  # no block: nothing kept
    assert smooth._BLOCK_MEMO is None


def test_degree_counts_in_chunks_equal_one_compiled_call_and_log_the_time_left(monkeypatch, caplog):
    import itertools
    import logging

    from privanomaly.outliers import distance
    from privanomaly.run import log as runlog
    from privanomaly.sp._fastballs import capped_counts
    from privanomaly.sp.balls import unique_rows

    X = _data(300, 2)
    Z = distance.subspace_coords(X)
    U, inv, w = unique_rows(Z)
    clock = itertools.count(0.0, 3.0)  # 3 s per reading: a line at every other chunk

    class Clocked(runlog.Ticker):
        def __init__(self, what, every=5.0, clock_=None):
            super().__init__(what, every, lambda: next(clock))

    monkeypatch.setattr(distance, "COUNT_CHUNK", 37)
    monkeypatch.setattr(runlog, "Ticker", Clocked)
    with caplog.at_level(logging.INFO, logger="privanomaly"):
        for cap in (None, 1, 4, 50):
            whole = capped_counts(U, U, w, 0.31, "euclidean", cap, workers=1)
            assert np.array_equal(distance._tree_counts(U, w, 0.31, cap), whole)
        assert np.array_equal(distance._counts_scaled(Z, 0.3, 4), np.minimum(distance.neighbour_counts(X, 0.3), 4))
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("neighbour counts")]
    assert lines and all("rows counted, about" in x and " s left" in x for x in lines)
    assert f"of {len(U)} rows counted" in lines[0]


def test_bounds_handed_back_with_the_default_exact_refinement_serve_the_same_settings_only():
    X = _data(60, 2)
    fresh = smooth.block_smooth_bound(X, 3, 0.4, 0.1)
    with smooth.reuse_block_bounds():
        smooth.block_smooth_bound(X, 3, 0.4, 0.1)  # exact_max None: the dimension's default
        kept = smooth.kept_block_bounds(X, 3, 0.4, None)
        assert kept is not None and smooth.kept_block_bounds(X, 3, 0.4, 0) is None
    with smooth.reuse_block_bounds():
        smooth.keep_block_bounds(X, 3, 0.4, kept, None)
        assert len(smooth._BLOCK_MEMO) == 1
        assert smooth.block_smooth_bound(X, 3, 0.4, 0.1).ls_bounds.tolist() == fresh.ls_bounds.tolist()
        assert len(smooth._BLOCK_MEMO) == 1  # read, not computed again
        assert list(smooth._BLOCK_MEMO.values())[0][0].flags.writeable is False
