"""The audit's float-boundary worlds (Theorem 2's premise S >= LS at ties of the closed radius): the smooth
bounds pass, the code before the fixes is caught, and the smooth bound's degrees are q_count's."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from privanomaly import mechanisms
from privanomaly.audit import float_boundary_worlds as fb
from privanomaly.outliers import distance, smooth
from privanomaly.outliers.gaussian import smooth_parameters

BETA = smooth_parameters(0.5, 0.01)[1]


def test_worlds_sit_on_the_degree_threshold():
    w = fb.boundary_pair(np.random.default_rng(0), "polygon_2d", 4, 5, 1.0, 5, inside=True)
    assert w.X.shape == (20 + 1 + 6, 2) and w.k == 5 and w.moved == 20
    Z = distance.subspace_coords(w.Xp)
    d = np.linalg.norm(Z[:20] - Z[20], axis=1)
    assert np.all(np.abs(d / (1 + distance.RADIUS_RTOL) - 1) < 1e-14)  # on the threshold, to the last bits
    assert distance.q_count(w.X, 5, 1.0) - distance.q_count(w.Xp, 5, 1.0) == 21  # every copy sees the centre


def test_smooth_bound_degrees_are_the_released_querys():
    """The windows of Algorithm 2 hold the records by q_count's own degree test (the old code took degrees in
    units of r, whose rounding differs at the threshold: 11 of 1,000 2-D worlds had S < LS)."""
    differ = 0
    for w in fb.random_worlds(np.random.default_rng(20191111), 300, dims=(2, 3)):
        for Y in (w.X, w.Xp):
            want = distance.neighbour_counts(Y, w.r)
            got = smooth._windows(Y, w.k, w.r, BETA, None, None)[0].keys[w.k]
            assert np.array_equal(got, np.abs(want - w.k))
            with fb.old_degrees():
                old = smooth._windows(Y, w.k, w.r, BETA, None, None)[0].keys[w.k]
            differ += not np.array_equal(old, got)
    assert differ > 0  # the search does reach records the two arithmetics disagree on


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gaussian_smooth_paper", "gaussian_smooth_fast"])
def test_registered_smooth_mechanisms_pass_the_float_boundary_worlds(name):
    rows = fb.smooth_rows(mechanisms.get(name), fast=True)
    assert {r["world"] for r in rows} == {f"float_boundary_{f}" for f in ("issue", *fb.FAMILIES)}
    assert all(r["passed"] and r["min_s_over_grid_smooth"] >= 1 for r in rows) and sum(r["pairs"] for r in rows) > 200


@pytest.mark.slow
def test_the_smooth_auditor_runs_them():
    from privanomaly.audit import LEVELS, paper_b as audit_paper_b

    m = mechanisms.get("gaussian_smooth_fast")
    row = audit_paper_b.audit_count_gaussian(m, LEVELS["fast"])
    boundary = fb.smooth_rows(m, True)
    assert row.exhaustive_pass and row.worlds > len(boundary) and row.pairs > sum(r["pairs"] for r in boundary)


@pytest.mark.slow
def test_code_before_the_fixes_is_caught():
    from privanomaly.audit import NEGATIVE_CONTROLS

    ctl = fb.negative_controls()
    assert set(ctl) == {"gaussian_smooth_paper_old_degrees", "gaussian_smooth_paper_old_enclosure"}
    assert set(ctl) <= set(NEGATIVE_CONTROLS)  # registered with the harness
    for name, m in ctl.items():
        rows = m.audit_rows(fast=True)
        assert any(not r["passed"] for r in rows), name
        assert min(r["min_s_over_grid_smooth"] for r in rows) < 1  # S < LS found


def test_patches_are_restored_and_bypass_the_memo():
    before = smooth._counts_scaled, fb.enclosing.SEB_RTOL, fb.enclosing._merge_near_duplicates
    with fb.enclosing.memoised():
        memo = fb.enclosing._MEMO
        with fb.old_enclosure():
            assert fb.enclosing.SEB_RTOL == distance.RADIUS_RTOL and fb.enclosing._MEMO is None
        assert fb.enclosing._MEMO is memo
    assert (smooth._counts_scaled, fb.enclosing.SEB_RTOL, fb.enclosing._merge_near_duplicates) == before


@functools.cache
def _worlds(dims: tuple[int, ...]) -> tuple:
    """The 4,200 random boundary worlds of one dimension (seed 7), drawn once and read by every bound below
    (drawing them is ~6 s of CPU per dimension; check_bounds only reads them)."""
    return tuple(fb.random_worlds(np.random.default_rng(7), 4200, dims))


@functools.cache
def _boundary_results(dims: tuple[int, ...]) -> dict:
    """fb.check_bounds of every bound of fb.BOUND_VARIANTS on the worlds of one dimension, computed once for the
    five tests below: each pair's jump |q(X) - q(X')| once, and Algorithm 1 on a window that several bounds search
    (Algorithm 2, the fast bound's exact refinement) once - every bound still computes its own S on every dataset."""
    bounds = {variant: fb.smooth_fn(*variant) for variant in fb.BOUND_VARIANTS}
    return fb.check_bounds(bounds, list(_worlds(dims)), BETA)


@pytest.mark.slow
@pytest.mark.parametrize("method, exact_max", fb.BOUND_VARIANTS)
def test_ten_thousand_boundary_pairs_in_2d_and_3d(method, exact_max):
    """Acceptance of the float-boundary fix: 0 of >= 10,000 datasets with S < LS, 2-D and 3-D, each bound."""
    total = 0
    for dims in ((2,), (3,)):
        res = _boundary_results(dims)[(method, exact_max)]
        assert res["failing"] == 0, (dims, res)
        total += res["pairs"]
    assert total >= 10_000


@pytest.mark.slow
def test_check_bounds_is_check_pairs_of_each_bound():
    """The shared evaluation of several bounds (one jump per pair, one memo of Algorithm 1 per pair) gives each
    bound the result check_pairs gives it alone: same pairs, failures and worst ratio, here including a bound
    that fails (half of Algorithm 2's value)."""
    worlds = list(fb.random_worlds(np.random.default_rng(20191111), 60, dims=(2, 3)))
    bounds = {**{variant: fb.smooth_fn(*variant) for variant in fb.BOUND_VARIANTS},
              "half": lambda X, k, r, beta: fb.smooth_fn("paper")(X, k, r, beta) / 2}
    shared = fb.check_bounds(bounds, worlds, BETA)
    assert shared == {name: fb.check_pairs(fn, worlds, BETA) for name, fn in bounds.items()}
    assert shared["half"]["failing"] > 0 and all(shared[v]["failing"] == 0 for v in fb.BOUND_VARIANTS)
    assert shared["half"]["pairs"] == shared["paper", None]["pairs"] > 60


def test_far_worlds_sit_far_from_the_origin_on_the_threshold():
    """``far_polygon``: the centre FAR r from the origin, every inside vertex a neighbour of the centre by
    q_count's own test and within a few ulp of the threshold (one ulp further out it is not)."""
    w = fb.boundary_pair(np.random.default_rng(5), "far_polygon", 3, 6, 0.37, 6, inside=True, dim=3)
    n = w.moved
    centre = w.Xp[n]
    assert np.linalg.norm(centre) / np.sqrt(3) > 0.5 * fb.FAR * w.r
    assert fb._within(w.Xp[:n], centre, w.r).all() and np.array_equal(w.X[:n], w.Xp[:n])
    out = np.array([np.nextafter(np.nextafter(p, 2 * p - centre), 2 * p - centre) for p in w.Xp[:n]])
    stepped = np.array([p + 64 * (q - p) for p, q in zip(w.Xp[:n], out)])  # 128 ulp further out
    assert not fb._within(stepped, centre, w.r).any()
    assert distance.q_count(w.X, 6, w.r) - distance.q_count(w.Xp, 6, w.r) == 3 * 6 + 1


@pytest.mark.slow
def test_algorithm1_on_rounded_coordinates_far_from_the_origin_is_caught(monkeypatch):
    """Algorithm 1 on P / r (rounded to ~1e-16 of each coordinate: ~1e-8 r at 1e8 r from the origin) instead of
    P times a power of two: harmless near the origin, S < LS far from it; the far witnesses must see it."""
    from privanomaly.outliers import enclosing

    monkeypatch.setattr(enclosing, "scaled_to_r", lambda P, r: (np.asarray(P, dtype=float) / r, 1.0))
    rows = fb.audit_rows({"paper": fb.smooth_fn("paper")}, fast=True)
    assert any(not r["passed"] for r in rows)
    assert min(r["min_s_over_grid_smooth"] for r in rows) < 1


@pytest.mark.slow
def test_the_worlds_are_drawn_from_the_audits_seed(monkeypatch):
    """The float-boundary worlds come from the level's seed (the config's ``seed`` in the workflow) through
    privanomaly.seeding, as every other sampled part of the audit: another seed draws other worlds."""
    from privanomaly.audit import LEVELS, paper_b as audit_paper_b

    a, b = (fb.audit_rows({"paper": fb.smooth_fn("fast", 0)}, fast=True, seed=s, n_random=20) for s in (1, 2))
    assert [r["datasets"] for r in a] != [r["datasets"] for r in b] or [r["min_s_over_grid_smooth"] for r in a] != [
        r["min_s_over_grid_smooth"] for r in b]
    seen = []
    real = fb.audit_rows
    monkeypatch.setattr(fb, "audit_rows", lambda *a, **kw: seen.append(kw.get("seed")) or real(*a, **kw))
    from dataclasses import replace

    audit_paper_b.audit_count_gaussian(mechanisms.get("gaussian_smooth_fast"), replace(LEVELS["fast"], seed=4242))
    assert seen == [4242]


def test_smallest_enclosing_ball_on_absolute_coordinates_is_caught(monkeypatch):
    """Welzl's algorithm on the rows as given (no translation to local coordinates): its centre is rounded to
    ~1e-16 of the coordinates' size, 2.6e-9 r at 1e8 r from the origin - beyond the enclosure test's margin
    (SEB_RTOL - RADIUS_RTOL = 1e-9): Algorithm 1 in 3-D then misses sets of the degree test; the far witnesses
    must see it."""
    import miniball

    from privanomaly.outliers import enclosing

    def absolute(P):
        P = np.unique(np.asarray(P, dtype=float), axis=0)
        if len(P) <= 1:
            return 0.0
        try:
            with np.errstate(all="ignore"):
                c, _ = miniball.get_bounding_ball(P, rng=np.random.default_rng(0))
        except (np.linalg.LinAlgError, ValueError, ZeroDivisionError):  # degenerate support: the library's fallback
            c = enclosing._minimax_center(P)
        return float(enclosing._norms(P - c).max())

    monkeypatch.setattr(enclosing, "seb_radius", absolute)
    rows = fb.audit_rows({"paper": fb.smooth_fn("paper")}, fast=True, dims=(3,), n_random=0)
    assert min(r["min_s_over_grid_smooth"] for r in rows) < 1


@pytest.mark.slow
def test_the_harness_memo_serves_the_worlds_drawn_once_and_the_same_rows(monkeypatch):
    """Inside ``memoised()`` (the harness opens it around a run) the worlds of a (seed, dimensions, size) and
    their LS lower bounds are drawn once and read by every bound after; the rows are those of a fresh draw."""
    bounds = [{"fast0": fb.smooth_fn("fast", 0)}, {"fast8": fb.smooth_fn("fast", 8)}]
    kw = dict(fast=True, dims=(2,), n_random=8)
    two = fb.fixed_worlds
    monkeypatch.setattr(fb, "fixed_worlds", lambda rng, dims: two(rng, dims)[:2])  # m = 6: the first two witnesses
    fresh = [fb.audit_rows(b, seed=3, **kw) for b in bounds]
    drawn = []
    real = fb.random_worlds
    monkeypatch.setattr(fb, "random_worlds", lambda *a, **k: drawn.append(a[1]) or real(*a, **k))
    with fb.memoised():
        served = [fb.audit_rows(b, seed=3, **kw) for b in bounds]
        with fb.memoised():  # nested: the outer memo
            assert fb.audit_rows(bounds[0], seed=3, **kw) == fresh[0]
        fb.audit_rows(bounds[0], seed=4, **kw)  # another seed: drawn again
    assert served == fresh and [r["world"] for r in fresh[0]][0] == "float_boundary_issue"
    assert drawn == [8, 8]
    fb.audit_rows(bounds[0], seed=3, **kw)  # closed: nothing kept
    assert drawn == [8, 8, 8] and fb._LOWS is None


def test_the_harness_opens_the_worlds_memo_around_a_run():
    from privanomaly.audit import harness

    assert fb.memoised in harness.RUN_MEMOS  # registered by this module, as its negative controls
    assert {harness.enclosing.memoised, harness.smooth.reuse_block_bounds} <= set(harness.RUN_MEMOS)
