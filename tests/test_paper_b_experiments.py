"""Paper-B experiment logic (privanomaly.paper_b) on tiny constructed inputs with known answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import outliers as ol
from privanomaly.paper_b import bounds, comparison, released_bound, scenario1, scenario2, tables, timing, tuning


# ------------------------------------------------------------------------------------------ r tuning
def _line_data():
    # inliers: 10 points spaced 0.1 apart on a line; outliers: two isolated points at 5 and 9
    X = np.r_[np.arange(10) * 0.1, 5.0, 9.0][:, None]
    y = np.r_[np.zeros(10), np.ones(2)].astype(int)
    return X, y


def test_kth_neighbour_distance_matches_core_outlier_mask():
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(60, 3)), 1)  # rounded: duplicates and exact ties
    for S in (None, (0,), (1, 2)):
        kd = tuning.kth_neighbour_distance(X, 3, S)
        for r in (0.05, 0.1, 0.3, 0.7):
            ours = kd > r * (1 + 1e-9)
            assert np.array_equal(ours, ol.outlier_mask(X, 3, r, S)), (S, r)


def test_accuracy_curve_counts_on_a_line():
    X, y = _line_data()
    # k = 2: an inlier needs 2 others within r. End points of the line have neighbours at 0.1, 0.2
    c = tuning.accuracy_curve(X, y, 2, np.array([0.05, 0.1, 0.2, 1.0, 10.0]), "full")
    assert c["tp"].tolist() == [2, 2, 2, 2, 0]
    assert c["fp"].tolist() == [10, 2, 0, 0, 0]  # at r = 0.1 only the two end points lack a 2nd neighbour
    assert c["n_correct"].tolist() == [2, 10, 12, 12, 10]


def test_select_r_picks_the_accuracy_maximiser_with_documented_tie_break():
    X, y = _line_data()
    radii = np.array([0.05, 0.1, 0.2, 0.5, 1.0, 10.0])
    c = tuning.accuracy_curve(X, y, 2, radii, "full")
    # maximisers: 0.2, 0.5, 1.0 (accuracy 1); 10 flags nothing (accuracy 10/12)
    assert tuning.select_r(c, "smallest").r == 0.2
    assert tuning.select_r(c, "largest").r == 1.0
    assert tuning.select_r(c, "median").r == 0.5
    sel = tuning.select_r(c, "smallest")
    assert sel.accuracy == 1.0 and sel.n_maximisers == 3 and (sel.r_max_lo, sel.r_max_hi) == (0.2, 1.0)
    with pytest.raises(ValueError, match="tie_break"):
        tuning.select_r(c, "first")


def test_any_and_mean_1d_spaces():
    # record 2 is isolated only in attribute 2; record 3 only in attribute 1
    X = np.array([[0, 0], [0, 0], [0, 9], [9, 0], [0, 0]], dtype=float)
    y = np.array([0, 0, 1, 1, 0])
    any1 = tuning.accuracy_curve(X, y, 2, np.array([1.0]), "any_1d").iloc[0]
    assert (any1.tp, any1.fp, any1.fn, any1.tn) == (2, 0, 0, 3)
    mean1 = tuning.accuracy_curve(X, y, 2, np.array([1.0]), "mean_1d").iloc[0]
    # per attribute one outlier is flagged and the other missed
    assert (mean1.tp, mean1.fn, mean1.n_total) == (2, 2, 10)


def test_r_grid():
    g = tuning.r_grid({"min": 0.01, "max": 1.0, "num": 3, "scale": "log"})
    assert np.allclose(g, [0.01, 0.1, 1.0])
    with pytest.raises(ValueError):
        tuning.r_grid({"min": 0.0, "max": 1.0, "num": 3, "scale": "log"})


# ------------------------------------------------------------------------------------------ Fig 2
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_kissing_pentagon_change_is_5k_plus_1(k):
    out = bounds.kissing_count_change("pentagon", k)
    assert out["count_before"] == 0
    assert out["count_change"] == 5 * k + 1 == ol.gs_exact(2, k)
    assert out["count_change"] < out["paper_upper_kK2_plus_1"] == 6 * k + 1


@pytest.mark.parametrize("k", [1, 3])
def test_kissing_hexagon_touching_spheres_change_only_by_one(k):
    out = bounds.kissing_count_change("hexagon", k)
    assert out["min_centre_gap_over_r"] == pytest.approx(1.0)
    assert (out["count_before"], out["count_after"]) == (0, 1)


def test_gs_bounds_table_values():
    df = bounds.gs_bounds_table(4, 3)
    assert df["gs_lower"].tolist() == [7, 13, 19, 25]
    assert df["gs_upper"].tolist() == [7, 19, 37, 73]  # k K_d + 1 with K = 2, 6, 12, 24
    assert df["gs_exact"].iloc[:2].tolist() == [7, 16]


# ------------------------------------------------------------------------------------------ Scenario 1
def test_scenario1_printed_ratio_is_gs_over_5s():
    X = np.r_[np.zeros((6, 2)), [[5.0, 5.0]]]

    def fake(beta):
        return {"value": 2.0, "ls0": 1.0, "t_max": 0, "t_stop": 1, "method_used": "fast",
                "work_paper": 0}

    df = scenario1.scenario1_table(X, 3, 1.0, [0.5, 1.0], 0.01, ["printed", "local_theorem1"], fake)
    gs = min(7, 2 * 2 * 3 + 1)
    pr = df[df["convention"] == "printed"]
    assert np.allclose(pr["ratio"], gs / (5 * 2.0))
    loc = df[df["convention"] == "local_theorem1"]
    assert np.allclose(loc["ratio"], gs / 1.0)
    assert (df["true_count"] == 1).all()
    assert "seconds" not in df.columns  # no wall-clock time in the Scenario-1 tables
    # the lower-bound sigma_Global (the paper's figure) proves nothing; the upper-bound
    # one does where Theorem 1's condition holds; the un-smoothed reading is not private
    assert not df["sigma_global_proven"].any()
    assert (df["gs_upper"] == min(7, 3 * 6 + 1)).all()
    assert np.allclose(pr["sigma_global_upper"] / pr["sigma_global"], 7 / gs)
    assert pr["sigma_global_upper_proven"].all() and pr["sigma_smooth_proven"].all()
    assert not loc["sigma_global_upper_proven"].any() and not loc["sigma_smooth_proven"].any()
    big = scenario1.scenario1_table(X, 3, 1.0, [8.0], 0.01, ["printed"], fake)  # Theorem 1 condition fails
    assert np.isnan(big["sigma_global_upper"]).all() and not big["sigma_global_upper_proven"].any()
    assert big["sigma_smooth_proven"].all()  # Theorem 2's condition still holds at eps = 8 ...
    huge = scenario1.scenario1_table(X, 3, 1.0, [30.0], 0.01, ["printed"], fake)
    assert not huge["sigma_smooth_proven"].any()  # ... but not at eps = 30 (worst exact delta 0.0265 > 0.01)
    with pytest.raises(ValueError, match="unknown"):
        scenario1.scenario1_table(X, 3, 1.0, [0.5], 0.01, ["nope"], fake)


@pytest.mark.subprocess
def test_wall_clock_limit_cuts_a_benchmark_run():
    import time

    res = timing.run_with_time_limit(time.sleep, 5, seconds=0.3)
    assert not res.completed and res.value is None and res.seconds < 3
    ok = timing.run_with_time_limit(pow, 2, 10, seconds=5)
    assert ok.completed and ok.value == 1024


def test_timing_benchmark_cuts_algorithm2_by_its_work_budget():
    """Whether Algorithm 2 finishes in the timing table depends on the data and the work budget only: with
    exactly the units it needs it completes (same value as unbounded), with one fewer it is cut."""
    X = np.random.default_rng(3).normal(size=(40, 2))
    k, r, beta = 2, 0.5, 0.2
    full = ol.algorithm2(X, k, r, beta)
    assert full.work > 1
    done = timing.timed_bound(X, k, r, beta, "paper", int(full.work))
    assert done["completed"] and done["value"] == float(full.value) and done["work"] == full.work
    cut = timing.timed_bound(X, k, r, beta, "paper", int(full.work) - 1)
    assert not cut["completed"] and np.isnan(cut["value"]) and cut["work"] == full.work  # the unit past it
    assert timing.timed_bound(X, k, r, beta, "fast", int(full.work) - 1)["completed"]  # polynomial: no units
    with pytest.raises(ValueError, match="method"):
        timing.timed_bound(X, k, r, beta, "other", None)
    table = pd.DataFrame({"dataset": ["small", "big"], "N": [40, 600], "paper_completed": [True, False],
                          "max_work": [int(full.work) - 1] * 2})
    assert comparison.timing_rows(table)[0].evidence == (
        f"Algorithm 2 finished on 1 of 2 datasets within its work budget of {int(full.work) - 1:,} units; "
        "cut on big (N = 600)")


def test_smooth_bound_paper_equals_core_on_small_data():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(15, 2))
    beta = 0.3
    got = released_bound.smooth_bound(X, 2, 0.6, beta, "paper", None)
    assert got["method_used"] == "paper"
    assert got["value"] == pytest.approx(ol.smooth_sensitivity(X, 2, 0.6, beta, method="paper").value)
    with pytest.raises(released_bound.AlgorithmTooCostly, match="no fallback"):  # no work allowed: fails, no switch
        released_bound.smooth_bound(X, 2, 0.6, beta, "paper", 0)
    fast = released_bound.smooth_bound(X, 2, 0.6, beta, "fast", 0)  # the fast bound only when configured
    assert fast["method_used"] == "fast" and fast["value"] >= got["value"] - 1e-12
    assert "seconds" not in got and "cut" not in got


def _cluster_3d():
    return np.random.default_rng(3).normal(scale=1.6, size=(20, 3))  # ~300 work units, < 0.2 s


@pytest.mark.subprocess
def test_work_guard_fails_instead_of_falling_back_whatever_the_machine(monkeypatch):
    X, k, r, beta = _cluster_3d(), 3, 0.8, 0.05
    need = ol.smooth_sensitivity(X, k, r, beta, method="paper").work  # units Algorithm 2 needs here
    assert need > 10
    exact = released_bound.smooth_bound(X, k, r, beta, "paper", need)
    assert exact["method_used"] == "paper" and exact["work_paper"] == need
    with pytest.raises(released_bound.AlgorithmTooCostly, match="paper_b.scenario1.max_work"):
        released_bound.smooth_bound(X, k, r, beta, "paper", need - 1)
    # a much slower machine (every smallest-enclosing-ball evaluation delayed) and a generous safety
    # timeout change nothing: same numbers, same failure
    from privanomaly.outliers import enclosing as core

    fast_seb = core.seb_radius

    def slow_seb(P):
        import time

        time.sleep(0.002)
        return fast_seb(P)

    monkeypatch.setattr(core, "seb_radius", slow_seb)
    assert released_bound.smooth_bound(X, k, r, beta, "paper", need) == exact
    with pytest.raises(released_bound.AlgorithmTooCostly):
        released_bound.smooth_bound(X, k, r, beta, "paper", need - 1, timeout_seconds=120)


@pytest.mark.subprocess
def test_safety_timeout_fails_loudly_instead_of_falling_back(monkeypatch):
    from privanomaly.outliers import enclosing as core

    fast_seb = core.seb_radius

    def slow_seb(P):
        import time

        time.sleep(0.5)
        return fast_seb(P)

    monkeypatch.setattr(core, "seb_radius", slow_seb)
    with pytest.raises(released_bound.SafetyTimeout, match="safety timeout"):
        released_bound.smooth_bound(_cluster_3d(), 3, 0.8, 0.05, "paper", None, timeout_seconds=0.3)


# ------------------------------------------------------------------------------------------ Scenario 2
def test_true_subspace_definition_on_constructed_data():
    # attribute 1: the two labelled outliers are isolated; attribute 2: an *inlier* is isolated;
    # attribute 3: nothing is isolated
    X = np.array([[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 50, 0], [20, 0, 0], [-20, 0, 0]], dtype=float)
    y = np.array([0, 0, 0, 0, 0, 1, 1])
    t = scenario2.subspace_table(X, y, 2, 1.0, 1, "labelled_outlier", 1)
    assert t["q_count"].tolist() == [2, 1, 0]
    assert t["labelled_outliers_flagged"].tolist() == [2, 0, 0]
    assert t["is_true"].tolist() == [True, False, False]
    assert np.allclose(t["utility"], np.array([2, 1, 0]) / min(7, 2 * 2 + 1))
    t2 = scenario2.subspace_table(X, y, 2, 1.0, 1, "any_outlier", 1)
    assert t2["is_true"].tolist() == [True, True, False]
    t3 = scenario2.subspace_table(X, y, 2, 1.0, 1, "labelled_outlier", 2)
    assert t3["is_true"].tolist() == [True, False, False]


def test_precision_recall_and_exact_expectation():
    sel = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [0, 0, 1, 1]], dtype=bool)
    truth = np.array([1, 1, 0, 0], dtype=bool)
    p, r = scenario2.precision_recall(sel, truth, 2)
    assert p.tolist() == [1.0, 0.5, 0.0] and r.tolist() == [1.0, 0.5, 0.0]
    ep, er = scenario2.expected_precision_recall(np.array([0.9, 0.7, 0.2, 0.2]), truth, 2)
    assert (ep, er) == pytest.approx((0.8, 0.8))


def test_sweep_monte_carlo_agrees_with_exact():
    u = np.array([3, 3, 0, 0, 0, 0]) / 7
    truth = u > 0
    df = scenario2.sweep(u, truth, [1.0, 4.0], [1, 2], 4000, lambda e, h: np.random.default_rng([int(e * 10), h]))
    assert (np.abs(df["precision"] - df["precision_exact"]) < 4 * df["precision_se"] + 1e-9).all()
    assert (np.abs(df["recall"] - df["recall_exact"]) < 4 * df["recall_se"] + 1e-9).all()
    # more eps -> better; per-draw eps is eps / h
    assert (df["eps_per_draw"] == df["eps"] / df["h"]).all()


# ------------------------------------------------------------------------------------------ comparison
def test_table_verdicts():
    t = pd.DataFrame([
        {"table": "table1", "dataset": "a", "paper_name": "A", "quantity": "d", "label": "Dimension d", "ours": 5,
         "paper": 7},
        {"table": "table1", "dataset": "a", "paper_name": "A", "quantity": "r", "label": "Radius r", "ours": 1.05,
         "paper": 1.0},
        {"table": "table1", "dataset": "a", "paper_name": "A", "quantity": "N", "label": "N", "ours": 50, "paper": 50},
    ])
    rows = comparison.table_rows(t)
    assert [r.verdict for r in rows] == ["DIFFERS", "MATCH", "MATCH"]
    assert "fnlwgt" in rows[0].reason and rows[0].claim.startswith("Table 1")
    # every DIFFERS names its cause (the attributes of Adult are not stated); a MATCH names none
    assert [r.cause for r in rows] == ["the paper's unstated parameters", "", ""]
    t.loc[1, "ours"] = 2.0  # r off by 100 %: the paper's tuning grid, sample and seed are not stated
    assert comparison.table_rows(t)[1].cause == "the paper's unstated parameters"


def test_r_given_as_the_papers_is_no_verdict():
    """Under the "paper's r" reading r is set to the printed value: equal by construction, so no MATCH (a
    verdict that cannot fail would count the printed r as reproduced); the tuned r keeps its verdict."""
    t = pd.DataFrame([{"table": "table2", "dataset": "a", "paper_name": "A", "quantity": "r", "label": "Radius r",
                       "ours": 0.13, "paper": 0.13}])
    given = {"a": {"r": 0.13, "accuracy": 0.824, "space": "any_1d", "tp": 1, "fp": 2, "fn": 3, "tn": 4}}
    (row,) = comparison.table_rows(t, given)
    assert row.verdict == "N/A" and "an input of this reading, not a result" in row.reason
    tuned = {"a": {**given["a"], "n_maximisers": 3, "r_maximisers": [0.12, 0.2]}}
    assert comparison.table_rows(t, tuned)[0].verdict == "MATCH"


def test_sigma_claim_verdicts_on_synthetic_numbers():
    eps = [0.5, 0.7, 0.9]
    s1 = pd.DataFrame(
        [{"dataset": "x", "method": "paper", "convention": "printed", "sigma_smooth_proven": True, "gs_lower": 13,
          "eps": e, "ratio": 0.1, "sigma_smooth": 400.0} for e in eps]
        + [{"dataset": "x", "method": "paper", "convention": "alt", "sigma_smooth_proven": False, "gs_lower": 13,
            "eps": e, "ratio": 13.0, "sigma_smooth": 4.0 / e} for e in eps]
    )
    paper = {"sigma_ratio_range": [10, 30], "sigma_smooth_max": 7, "sigma_smooth_eps_from": 0.7}
    conv = comparison.convention_summary(s1, paper)
    assert conv.set_index("convention")["both_hold"].to_dict() == {"printed": False, "alt": True}
    rows = comparison.scenario1_rows(conv, {"x": "X"}, paper)
    assert [r.verdict for r in rows] == ["DIFFERS", "DIFFERS"]
    assert "GS/5 = 2.6" in rows[0].reason and "alt" in rows[0].reason
    # a reading of the constants reproduces both claims: which one the paper used is not stated
    assert {r.cause for r in rows} == {"the paper's unstated parameters"}
    alone = comparison.scenario1_rows(conv[conv["convention"] == "printed"], {"x": "X"}, paper)
    assert {r.cause for r in alone} == {"a finding against the paper"}  # no reading does: against the paper


def test_monotonicity_verdicts():
    sw = pd.DataFrame({"h": [1, 2, 1, 2], "eps": [1, 1, 2, 2], "precision": [0.9, 0.6, 0.95, 0.7],
                       "recall": [0.45, 0.6, 0.5, 0.7], "precision_exact": [0.9, 0.6, 0.95, 0.7],
                       "recall_exact": [0.45, 0.6, 0.5, 0.7]})
    subs = pd.DataFrame({"is_true": [True, True, False], "subspace": ["{1}", "{2}", "{3}"]})
    rows = {r.id: r for r in comparison.scenario2_rows({"d": sw}, {"d": subs}, {}, {})}
    assert rows["s2.d.precision"].verdict == "MATCH"
    assert rows["s2.d.recall"].verdict == "DIFFERS" and "h/2" in rows["s2.d.recall"].reason
    assert rows["s2.d.recall"].cause == "a finding against the paper" and rows["s2.d.precision"].cause == ""


def test_h_claims_are_judged_on_fig5_only():
    """Section 6.3 states the h claims for Fig. 5 (Synthetic 2): "The precision decreases as h grows, as shown in
    Fig. 5", "As Fig. 5 shows, ... smaller h achieved larger recall". Figs. 6-7 (Adult 2, Ionosphere) get our
    numbers and no MATCH/DIFFERS for them."""
    sw = pd.DataFrame({"h": [1, 2, 1, 2], "eps": [1, 1, 2, 2], "precision": [0.9, 0.6, 0.95, 0.7],
                       "recall": [0.45, 0.6, 0.5, 0.7], "precision_exact": [0.9, 0.6, 0.95, 0.7],
                       "recall_exact": [0.45, 0.6, 0.5, 0.7]})
    subs = pd.DataFrame({"is_true": [True, True, False], "subspace": ["{1}", "{2}", "{3}"]})
    paper = {"r": {"synthetic_b2": 0.13, "ionosphere_b": 0.06}}
    rows = {r.id: r for r in comparison.scenario2_rows({"synthetic_b2": sw, "ionosphere_b": sw},
                                                       {"synthetic_b2": subs, "ionosphere_b": subs}, {}, paper)}
    assert rows["s2.synthetic_b2.precision"].verdict == "MATCH" and rows["s2.synthetic_b2.recall"].verdict == "DIFFERS"
    for col in ("precision", "recall"):
        r = rows[f"s2.ionosphere_b.{col}"]
        assert r.verdict == "N/A" and r.expected == "no claim (stated for Fig. 5 only)", r
        assert "Fig. 5 (Synthetic 2) only" in r.reason and r.evidence.startswith("holds at")


def test_timing_claim_quotes_section_7_without_a_bound_the_paper_does_not_print():
    """Section 7: "the experimental evaluation is performed with relatively small-size datasets ... we need a more
    efficient algorithm for application to larger size datasets" - the paper states no size limit such as N <= 500."""
    timing = pd.DataFrame({"dataset": ["a", "b"], "N": [50, 379], "paper_completed": [True, False], "max_work": 10})
    (row,) = comparison.timing_rows(timing)
    assert "N <= 500" not in row.claim and "relatively small-size datasets" in row.claim
    assert row.verdict == "N/A" and "cut on b (N = 379)" in row.evidence


def test_fig2_verdicts():
    counts = bounds.kissing_counts_table([1, 3])
    rows = {r.id: r.verdict for r in comparison.fig2_rows(counts, {"d2": [5, 1]})}
    assert rows == {"fig2.pentagon": "MATCH", "fig2.hexagon": "DIFFERS"}


def test_paper_table_wide_layout():
    ours = {"a": tables.dataset_summary(np.array([0, 0, 1]), 2, 3, 1.08)}
    tidy = tables.paper_table("table1", ["a"], ours, {"r": {"a": 1.1}, "N": {"a": 3}}, {"a": "Syn"})
    wide = tables.wide_markdown_frame(tidy)
    assert wide["Syn"].tolist()[2] == "3 (paper: 3)" and wide["Syn"].tolist()[5] == "1.08 (paper: 1.1)"
