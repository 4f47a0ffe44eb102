"""What makes the full audit cheap changes no number: the memo of Algorithm 1 inside the audit, the float
fast path of the exact Gaussian release's grid index, and single-threaded ball queries on tiny inputs."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privanomaly import seeding
from privanomaly.outliers import algorithm2, distance, enclosing, exact_normal, largest_enclosed_subset
from privanomaly.outliers.audit_worlds import grid_world


def _world_sets():
    """Every dataset of N = 5 records on a 3 x 2 grid (scaled 2-D points, many repeated subsets)."""
    grid = np.array([(a, b) for a in range(3) for b in range(2)], dtype=float)
    states, _, _ = grid_world(len(grid), 5)
    return [grid[list(s)] for s in states]


def test_memo_returns_the_same_sizes_and_charges_the_same_work():
    sets = _world_sets()
    plain = []
    for X in sets:
        w = enclosing._Work()
        plain.append((largest_enclosed_subset(X, 1.0, _work=w), w.used))
    with enclosing.memoised():
        for _ in range(2):  # the second pass is all memo hits
            for X, want in zip(sets, plain):
                w = enclosing._Work()
                assert (largest_enclosed_subset(X, 1.0, _work=w), w.used) == want
        assert len(enclosing._MEMO) <= len(sets)
    assert enclosing._MEMO is None  # nothing stays behind


@pytest.mark.parametrize("max_work", [0, 1, 2, 5, 50])
def test_memo_keeps_work_budgets(max_work):
    """Algorithm 2 under a budget raises (or not) and reports the same work with and without the memo."""
    X = np.array([[0, 0], [0.9, 0.1], [0.2, 0.8], [1.1, 1.0], [3, 3], [3.5, 3.2]], dtype=float)

    def run():
        try:
            res = algorithm2(X, 2, 1.0, 0.3, max_work=max_work)
            return res.value, res.work
        except enclosing.WorkBudgetExceeded:
            return "exceeded"

    want = run()
    with enclosing.memoised():
        assert run() == want and run() == want


@pytest.mark.parametrize("value, sigma", [(3.0, 2.7), (0.0, 1e-9), (5.0, 123.456), (-2.5, 0.75), (12.0, 2500.3),
                                          (7.0, 1e6), (2.0**-33, 2.0**-40), (0.5, 3.0 * 2.0**-32)])
def test_grid_index_fast_path_equals_the_exact_integers(value, sigma):
    """Including releases whose t = (q + sigma Z) / GRID + 1/2 sits on or next to a bin edge (the last two
    cases: t = 1 + tiny, and sigma of three grid steps) and sigmas where the float margin is too wide."""
    rng = seeding.rng(7, "grid_index", str(sigma))
    s, k, x, pool = exact_normal.sample_standard_normal_parts(rng, 20_000)
    q, sg = Fraction(value), Fraction(sigma)
    fast = exact_normal._grid_index(q, sg, s, k, x, pool)
    exact = exact_normal._grid_index_exact(q, sg, s, k, x, pool)
    assert fast.dtype == object and (fast == exact).all()


def test_ball_counts_do_not_depend_on_threading():
    from privanomaly.sp._fastballs import capped_counts

    rng = seeding.rng(3, "counts")
    Z = np.round(rng.normal(size=(3000, 2)), 2)  # rounded: many pairs at exactly the radius
    one = capped_counts(Z, Z, np.ones(len(Z), dtype=np.int64), 0.2, "euclidean", None, workers=1)
    threaded = capped_counts(Z, Z, np.ones(len(Z), dtype=np.int64), 0.2, "euclidean", None, workers=-1)
    assert (one == threaded).all() and threaded.sum() > len(Z)
    assert (distance._counts_scaled(Z, 0.2) + 1 == np.asarray(
        capped_counts(Z * 4, Z * 4, np.ones(len(Z), dtype=np.int64), 0.8 * (1 + distance.RADIUS_RTOL), "euclidean",
                      None))).all()


@pytest.mark.parametrize("x_i, B, beta, k, cap", [
    (0, 0, 1, 1, None), (2, 2, 5, 4, None), (3, 9, 5, 2, 6), (1, 0, 3, 1, None), (-1, 2, 3, 1, None),
    (2, 5, 0, 1, None), (2, 5, 3, 0, None), (2, 5, 3, 1, 3), (True, 4, 2, 1, None), (np.int64(4), 3, 2, 1, 3),
])
def test_scalar_argument_checks_decide_as_the_array_checks(x_i, B, beta, k, cap):
    """The scalar fast path of the paper-A mdd argument checks (one record at a time, as the audit calls
    them) accepts and rejects exactly what the array path does, with the same message and value."""
    from privanomaly.sp import mdd

    def outcome(xx, bb):
        try:
            return ("ok", mdd.mdd_sp_lower(xx, bb, beta, k, cap=cap).tolist(), mdd.mdd_dp(xx, bb, beta, cap=cap).tolist())
        except ValueError as exc:
            return ("error", str(exc).replace("array(", "").replace(")", ""))

    scalar, array = outcome(x_i, B), outcome(np.array([x_i]), np.array([B]))
    assert scalar[0] == array[0]
    if scalar[0] == "ok":
        assert [scalar[1]] == array[1] and [scalar[2]] == array[2]
    else:
        assert scalar[1].split(",")[0] == array[1].split(",")[0]
