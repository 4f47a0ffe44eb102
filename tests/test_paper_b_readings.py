"""Paper B under its own printed choices: the printed-exponent top-h mechanism, the readings and
their files, and the comparison per reading (plus the "your datasets" rows)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from privanomaly.experiment import Verdict
from privanomaly.paper_b import comparison, comparison_page, readings, scenario2, tuning
from privanomaly.paper_b import plan as workflow
from privanomaly.sp.dlap import rational_rate

U = np.array([0.0, 0.25, 1.0, 0.5, 0.125])  # a tiny synthetic utility vector (eq. 51 values lie in [0, 1])


# ------------------------------------------------------------------------------------------ printed exponent
@pytest.mark.parametrize("eps", [0.4, 1.6, 3.2])
def test_printed_exponent_h1_selection_probabilities_are_exp_eps_u_over_sum(eps):
    """h = 1: Pr[S] = exp(eps u_S) / sum_T exp(eps u_T) - the printed eq. (11), no factor 1/2."""
    seq = scenario2.TopH("printed").sequence_probs(U, 1, eps)
    w = np.exp(eps * U)
    assert np.allclose([seq[(i,)] for i in range(len(U))], w / w.sum(), rtol=1e-13, atol=0)
    # ours: exp(eps u / (2 Δu)) with Δu = 1
    std = scenario2.TopH("standard").sequence_probs(U, 1, eps)
    w2 = np.exp(eps * U / 2)
    assert np.allclose([std[(i,)] for i in range(len(U))], w2 / w2.sum(), rtol=1e-13, atol=0)


@pytest.mark.parametrize("h", [2, 3])
def test_printed_exponent_top_h_draws_with_weights_exp_eps_over_h_u(h):
    """Each of the h draws picks among the remaining subspaces with probability exp((eps/h) u) / sum; the exact
    inclusion probabilities are the sums of these ordered-output probabilities."""
    eps = 2.4
    mech = scenario2.TopH("printed")
    seq = mech.sequence_probs(U, h, eps)
    w = np.exp(float(rational_rate(eps)) / h * U)  # at the rational rate the exact sampler uses (<= eps)
    for out, p in seq.items():
        want, rem = 1.0, w.sum()
        for i in out:
            want *= w[i] / rem
            rem -= w[i]
        assert p == pytest.approx(want, rel=1e-12)
    brute = np.zeros(len(U))
    for out, p in seq.items():
        brute[list(out)] += p
    assert np.allclose(mech.inclusion_probs(U, h, eps), brute, atol=1e-6)
    assert brute.sum() == pytest.approx(h)


def test_printed_exponent_privacy_label_is_2eps_not_eps():
    std, printed = scenario2.TopH("standard"), scenario2.TopH("printed")
    assert printed.epsilon(0.8) == pytest.approx(1.6) and std.epsilon(0.8) == pytest.approx(0.8)
    assert printed.claim().startswith("2ε-DP") and "Theorem 3" in printed.claim()
    assert std.claim().startswith("ε-DP")
    # the printed weights ignore the configured Δu; eq. (51) has Δu <= 1 (Theorem 7, attained): 2 eps Δu = 2 eps
    assert scenario2.TopH("printed", sensitivity=0.5).epsilon(1.0) == pytest.approx(2.0)


def _exact_loss(mech, u, v, h, eps):
    """Exact pure-DP loss between the set outputs of Algorithm 3 on utility vectors u and v."""
    def sets(x):
        seq = mech.sequence_probs(x, h, eps)
        return {s: sum(seq[p] for p in itertools.permutations(s)) for s in itertools.combinations(range(len(x)), h)}
    a, b = sets(u), sets(v)
    return max(abs(math.log(a[s] / b[s])) for s in a)


@pytest.mark.slow
@pytest.mark.parametrize("h", [1, 2])
def test_printed_exponent_really_loses_more_than_eps_and_at_most_2eps(h):
    """On neighbours whose utilities differ by at most Δu = 1 per subspace, the printed weights leak more
    than eps (so an eps label would be false) but never more than 2 eps; ours stays within eps."""
    eps = 1.0
    worst = {"standard": 0.0, "printed": 0.0}
    base = np.array([1.0, 0.0, 0.0, 0.5])
    for shift in itertools.product([-1.0, 0.0, 1.0], repeat=len(base)):
        v = base + np.array(shift)
        for name in worst:
            worst[name] = max(worst[name], _exact_loss(scenario2.TopH(name), base, v, h, eps))
    assert worst["standard"] <= eps * (1 + 1e-9)
    assert eps * 1.2 < worst["printed"] <= 2 * eps * (1 + 1e-9)


def test_sweep_with_printed_exponent_states_its_guarantee_and_monte_carlo_agrees():
    u = np.array([3, 3, 0, 0, 0, 0]) / 7
    truth = u > 0
    rng = lambda e, h: np.random.default_rng([int(e * 10), h])  # noqa: E731
    pr = scenario2.sweep(u, truth, [1.0, 2.0], [1, 2], 3000, rng, exponent="printed")
    ours = scenario2.sweep(u, truth, [1.0, 2.0], [1, 2], 3000, rng)
    assert "dp_epsilon" not in ours.columns  # our tables keep their columns
    assert (pr["dp_epsilon"] == 2 * pr["eps"]).all() and (pr["exponent"] == "printed").all()
    assert (np.abs(pr["precision"] - pr["precision_exact"]) < 4 * pr["precision_se"] + 1e-9).all()
    # sharper weights: at every cell the printed mechanism finds the true subspaces more often
    assert (pr["precision_exact"].to_numpy() > ours["precision_exact"].to_numpy()).all()
    # printed at eps equals ours at 2 eps (same weights exp(eps u))
    ours2 = scenario2.sweep(u, truth, [2.0, 4.0], [1, 2], 10, rng)
    assert np.allclose(pr["precision_exact"].to_numpy(), ours2["precision_exact"].to_numpy(), atol=1e-9)


def test_top_h_rejects_unknown_exponent():
    with pytest.raises(ValueError, match="exponent"):
        scenario2.TopH("squared")


# ------------------------------------------------------------------------------------------ readings, files
def test_readings_prefixes_and_validation():
    assert readings.OURS.prefix == "" and readings.READINGS["paper_r"].prefix == "paper_r/"
    pe = readings.READINGS["paper_r_printed_exponent"]
    assert not pe.r_only and readings.r_source_reading(pe) is readings.READINGS["paper_r"]
    assert readings.by_prefix("paper_r_printed_exponent/") is pe
    assert [r.name for r in readings.variants(["paper_r", "paper_r_printed_exponent"])] == [
        "paper_r", "paper_r_printed_exponent"]
    with pytest.raises(ValueError, match=r"paper_b.readings\[0\].*'tuned_twice'"):
        readings.variants(["tuned_twice"])
    with pytest.raises(ValueError, match="list 'paper_r' too"):
        readings.variants(["paper_r_printed_exponent"])
    import re

    rx = re.compile(f"(?:{readings.regex([readings.OURS, pe])})")
    assert rx.fullmatch("") and rx.fullmatch("paper_r_printed_exponent/") and not rx.fullmatch("paper_r/")
    assert readings.at_text(readings.OURS, 0.02) == ""
    assert readings.at_text(pe, 0.02) == " at the paper's printed r = 0.02, printed exponent exp(ε u) (2ε-DP)"


def _pb(readings_: list[str]) -> dict:
    return {"datasets": {"s1": "S1", "s2": "S2", "mine": "Mine", "gone": "Gone"},
            "tables": {"table1": ["s1"], "table2": ["s2", "gone"]},
            "scenario1": {"datasets": ["s1"], "methods": ["paper", "fast"]},
            "scenario2": {"datasets": ["s2", "mine"]}, "timing": {"datasets": ["s1"]},
            "readings": readings_, "readings_methods": ["fast"],
            "paper_reported": {"r": {"s1": 1.1, "s2": 0.13}}}


def test_targets_add_variants_beside_ours_only_for_datasets_with_a_printed_r():
    from privanomaly.report import catalogue

    items = catalogue.load(Path(__file__).resolve().parents[1] / "workflow" / "report" / "catalogue.yaml")
    available = ["s1", "s2", "mine"]
    base = catalogue.paper_files(items, "B", workflow.sets(_pb([]), available).named())
    full = catalogue.paper_files(items, "B", workflow.sets(_pb(["paper_r", "paper_r_printed_exponent"]), available).named())
    assert set(base) < set(full) and not any(f.startswith(("paper_b/paper_r", "paper_b/paper_r_")) for f in base)
    assert "paper_b/figures/scenario1_s1_paper.png" in base and "paper_b/tables/table2.csv" in base
    assert not any("gone" in f for f in full)  # not available in this run
    added = set(full) - set(base)
    assert "paper_b/paper_r/figures/scenario2_s2.png" in added and "paper_b/paper_r/tables/table1.csv" in added
    assert "paper_b/paper_r/figures/scenario1_s1_fast.pdf" in added  # readings_methods only
    assert not any("scenario1_s1_paper" in f for f in added)
    assert "paper_b/paper_r_printed_exponent/tables/scenario2_pr_s2.csv" in added
    assert not any("mine" in f for f in added)  # no printed r: no variant
    assert not any(f.startswith("paper_b/paper_r_printed_exponent/") and ("scenario1" in f or "table1" in f)
                   for f in added)
    # no dataset of Tables 1-2 with a printed r: no Tables 1-2 at the paper's r
    sets = workflow.sets(_pb(["paper_r"]), ["mine", "s2"])
    assert sets.readings["paper_r"].tables == ["s2"] and workflow.sets(_pb(["paper_r"]), ["mine"]).readings[
        "paper_r"].tables == []


def test_reading_inputs_share_tables_and_figs_3_4_with_the_same_r():
    pe = readings.READINGS["paper_r_printed_exponent"]
    files = workflow.reading_inputs("R", pe, [("s1", "fast")], ["s2", "mine"], ["s1", "s2"], {"s1": 1.1, "s2": 0.1})
    assert files["tables"] == ["R/paper_r/tables/table1.csv", "R/paper_r/tables/table2.csv"]
    assert files["scenario1"] == ["R/paper_r/tables/scenario1_s1_fast.csv"]
    assert files["scenario2"] == {"s2": "R/paper_r_printed_exponent/tables/scenario2_pr_s2.csv"}
    assert files["choices"] == {"s1": "R/paper_r/tuning/s1.json", "s2": "R/paper_r/tuning/s2.json"}
    ours = workflow.reading_inputs("R", readings.OURS, [("s1", "fast")], ["s2"], ["s1"], {})
    assert ours["choices"] == {"s1": "R/tuning/s1.json"}
    flat = workflow.flat_files(files)
    assert len(flat) == len(set(flat)) == 2 + 2 + 1 + 1 + 1


def test_choice_at_a_given_r_reports_its_accuracy():
    X = np.r_[np.arange(10) * 0.1, 5.0, 9.0][:, None]
    y = np.r_[np.zeros(10), np.ones(2)].astype(int)
    ch = tuning.choice_at(X, y, 2, 1.0, "full")  # both isolated points flagged, no inlier: accuracy 1
    assert (ch["r"], ch["accuracy"], ch["tp"], ch["fp"], ch["fn"], ch["tn"]) == (1.0, 1.0, 2, 0, 0, 10)
    ch = tuning.choice_at(X, y, 2, 10.0, "full")  # everything within r: nothing flagged
    assert (ch["accuracy"], ch["tp"], ch["tn"]) == (10 / 12, 0, 10)
    with pytest.raises(ValueError, match="positive"):
        tuning.choice_at(X, y, 2, 0.0, "full")


# ------------------------------------------------------------------------------------------ comparison
def _sweep(values):
    h = [1, 2, 1, 2]
    return pd.DataFrame({"h": h, "eps": [0.8, 0.8, 1.6, 1.6], "precision": values, "recall": values,
                         "precision_exact": values, "recall_exact": values})


def test_no_true_subspace_note_gives_the_measured_counts():
    subs = pd.DataFrame({"is_true": [False, False], "subspace": ["{1}", "{2}"], "q_count": [0, 4],
                         "labelled_outliers_flagged": [0, 0]})
    rows = comparison.scenario2_rows({"a2": _sweep([0.0] * 4)}, {"a2": subs}, {}, {},
                                     r_text={"a2": "the paper's r = 0.02"})
    assert [r.verdict for r in rows] == ["N/A", "N/A"]  # precision 0 everywhere is no evidence either way
    note = rows[0].reason
    assert "no true subspace at the paper's r = 0.02" in note
    assert "labelled outliers flagged per subspace 0, 0" in note and "q_count per subspace 0, 4" in note
    # ours keeps its wording
    ours = comparison.scenario2_rows({"a2": _sweep([0.0] * 4)}, {"a2": subs}, {}, {})
    assert "at the tuned r" in ours[0].reason


def test_practical_claim_reason_depends_on_the_exponent():
    subs = pd.DataFrame({"is_true": [True, True, False], "subspace": ["{1}", "{2}", "{3}"]})
    sw = _sweep([0.9, 0.4, 0.9, 0.45])
    ours = {r.id: r for r in comparison.scenario2_rows({"synthetic_b2": sw}, {"synthetic_b2": subs}, {}, {})}
    assert ours["s2.synthetic_b2.practical"].verdict == "DIFFERS"
    assert "twice as sharp" in ours["s2.synthetic_b2.practical"].reason
    # our grid has 2 eps for every eps of the band: the printed weights' values are read off it
    sw2 = pd.DataFrame({"h": [2] * 4, "eps": [0.8, 1.6, 3.2, 6.4], "precision": [0.3, 0.4, 0.6, 0.7],
                        "recall": [0.3, 0.4, 0.45, 0.7]})
    why = comparison.scenario2_rows({"synthetic_b2": sw2}, {"synthetic_b2": subs}, {}, {})[-1].reason
    assert "ours at 2 eps, eps 1.6-3.2) precision 0.40-0.60, recall 0.40-0.45 - still not > 1/2" in why
    pr = {r.id: r for r in comparison.scenario2_rows({"synthetic_b2": sw}, {"synthetic_b2": subs}, {}, {},
                                                        {"synthetic_b2": "the paper's r = 0.13"}, "printed")}
    assert "even with the printed exponent" in pr["s2.synthetic_b2.practical"].reason
    assert "0.13" in pr["s2.synthetic_b2.practical"].reason


def test_table_r_row_at_a_given_r():
    t = pd.DataFrame([{"table": "table2", "dataset": "a", "paper_name": "A", "quantity": "r", "label": "Radius r",
                       "ours": 0.02, "paper": 0.02}])
    ch = {"a": {"r": 0.02, "space": "any_1d", "accuracy": 0.97, "tp": 0, "fp": 0, "fn": 10, "tn": 369}}
    (row,) = comparison.table_rows(t, ch)
    assert row.verdict == "N/A" and "paper's printed value" in row.reason and "0.970" in row.reason


def test_your_datasets_get_our_numbers_and_no_verdict():
    rows = [Verdict.compare("s2.synthetic_b2.precision", "c", "yes", "x", True),
            Verdict.compare("s2.my_data.precision", "c", "yes", "y", False),
            Verdict.compare("table1.my_data.r", "c", "—", "1.2", None),
            Verdict.compare("fig1.growth", "c", "p", "o", True)]
    paper, yours = comparison.split_yours(rows, {"r": {"synthetic_b2": 0.13}, "N": {"adult_b2": 379}})
    assert [r.id for r in paper] == ["s2.synthetic_b2.precision", "fig1.growth"]
    assert [r.id for r in yours] == ["s2.my_data.precision", "table1.my_data.r"]
    md = comparison_page.render_yours(yours)
    from privanomaly.report import checks

    assert "## Your datasets" in md and "| s2.my_data.precision | c | y |" in md
    assert checks.parse(md) == []  # no verdict for the index to count
    assert comparison_page.render_yours(yours[:0]) == ""
    none, mine = comparison.split_yours([], {})  # a reading with no dataset at all
    assert none == [] and mine == []


def test_readings_section_says_which_reading_reproduces_each_claim():
    per = {
        "ours": ("", [Verdict.compare("s2.d.precision", "p", "yes", "a", True),
                      Verdict.compare("s2.synthetic_b2.practical", "q", "> 1/2", "b", False),
                      Verdict.compare("table1.d.r", "r", "1", "2", False)]),
        "paper_r": ("paper_r/", [Verdict.compare("s2.d.precision", "p", "yes", "a", True),
                                 Verdict.compare("s2.synthetic_b2.practical", "q", "> 1/2", "b", False),
                                 Verdict.compare("table1.d.r", "r", "1", "1", True)]),
        "paper_r_printed_exponent": ("paper_r_printed_exponent/", [
            Verdict.compare("s2.d.precision", "p", "yes", "a", None),
            Verdict.compare("s2.synthetic_b2.practical", "q", "> 1/2", "c", True),
            Verdict.compare("table1.d.r", "r", "1", "1", True)]),
    }
    long = comparison.readings_frame(per)
    assert long["id"].tolist()[3:6] == ["paper_r/s2.d.precision", "paper_r/s2.synthetic_b2.practical",
                                        "paper_r/table1.d.r"]
    labels = {"ours": "ours", "paper_r": "paper's r", "paper_r_printed_exponent": "printed"}
    md = comparison_page.render_readings(long, labels, {k: v[0] for k, v in per.items()},
                                    {"paper_r_printed_exponent": "paper_r"}, ["note"])
    assert "`s2.synthetic_b2.practical` (q): ours: differs · paper's r: differs · printed: match → " \
           "**reproduced only by printed**" in md
    assert "`table1.d.r` (r): ours: differs · paper's r: match · printed: match → **reproduced only by paper's r " \
           "and printed**" in md
    assert "- **ours** (`tables/, figures/`): 1 MATCH, 2 DIFFERS, 0 N/A of 3" in md
    # the printed reading's table lists only its own (Figs. 5-7) rows: Tables 1-2 are shared with paper_r
    printed_part = md.split("### printed")[1]
    assert "paper_r_printed_exponent/s2.d.precision" in printed_part
    assert "paper_r_printed_exponent/table1.d.r" not in printed_part


def test_index_selects_each_readings_verdicts_separately():
    """The comparison.md sections parse into verdicts whose ids carry the reading, so the catalogue's checks
    (e.g. ``^paper_r/s2\\.adult_b2\\.``) pick one reading's verdicts and ours stay ours."""
    from privanomaly.report import checks

    per = {"ours": ("", [Verdict.compare("s2.a.precision", "p", "yes", "a", True)]),
           "paper_r": ("paper_r/", [Verdict.compare("s2.a.precision", "p", "yes", "a", False)])}
    long = comparison.readings_frame(per)
    md = comparison_page.render_readings(long, {"ours": "ours", "paper_r": "paper's r"}, {"ours": "", "paper_r": "paper_r/"},
                                    {}, [])
    parsed = checks.parse(md)
    assert [(c.id, c.verdict) for c in parsed] == [("paper_r/s2.a.precision", "DIFFERS")]
    assert checks.select(parsed, [r"^s2\.a\."]) == []
    assert checks.select(parsed, [r"^[^/]+$"]) == []


# ------------------------------------------------------------------------------------------ registry
def test_printed_exponent_is_a_registered_mechanism_with_its_own_weaker_claim():
    from privanomaly import mechanisms

    m = mechanisms.get("exp_top_h_printed")
    assert m.paper == "B" and m.neighbours == "substitution" and "Theorem 3" in m.reference
    assert m.family == mechanisms.get("exp_top_h").family == "top_h"
    c = m.claim(eps=0.8, h=2)
    assert (c.epsilon, c.delta, c.proven) == (pytest.approx(1.6), 0.0, True)
    assert m.claim(eps=0.8, sensitivity=0.5).epsilon == pytest.approx(0.8)
    w = np.exp(1.3 * U)
    assert np.allclose(m.selection_probs(U, eps=1.3), w / w.sum(), rtol=1e-13, atol=0)
    sel = m.sample(U, h=2, eps=1.3, rng=np.random.default_rng(3), n_trials=20000)
    assert (sel.sum(axis=1) == 2).all()
    inc = m.inclusion_probs(U, h=2, eps=1.3)
    assert np.all(np.abs(sel.mean(axis=0) - inc) < 4 * np.sqrt(inc * (1 - inc) / 20000) + 1e-9)
    with pytest.raises(TypeError, match="Generator"):
        m.sample(U, h=1, eps=1.0, rng=np.random.RandomState(0), n_trials=3)


@pytest.mark.slow
def test_printed_exponent_passes_the_exhaustive_audit_against_its_own_2eps_claim():
    """The registry's small-world audit (shared with exp_top_h) checks each mechanism against the claim it
    states: 2 eps here. (That the loss can exceed eps: test_printed_exponent_really_loses_more_than_eps...)"""
    from privanomaly import mechanisms

    printed = mechanisms.get("exp_top_h_printed").audit_rows(fast=True, eps=1.0)
    ours = mechanisms.get("exp_top_h").audit_rows(fast=True, eps=1.0)
    assert printed and all(r["passed"] for r in printed) and all(r["claim"].startswith("2-DP") for r in printed)
    assert all(r["passed"] for r in ours) and all(r["claim"].startswith("1-DP") for r in ours)
    # same worlds, sharper weights: a larger loss on the worst edge (ratio e^(loss - claim), claims 2 and 1)
    for p, o in zip(printed, ours):
        assert math.log(p["worst_ratio"]) + 2.0 > math.log(o["worst_ratio"]) + 1.0


def test_methodology_notes_of_the_comparison_live_in_the_library():
    names = {"adult_b2": "Adult 2", "synthetic_b1": "Synthetic 1"}
    notes = comparison_page.methodology_notes(names, {"adult_b2_text_inliers": 369}, {"adult_b2": {"space": "full"}}, 1)
    assert len(notes) == 8 and notes[0].startswith("Datasets: Adult 2 = `adult_b2`, Synthetic 1 = `synthetic_b1`.")
    assert "(Adult 2: full)" in notes[3] and notes[3].endswith("the paper's r is used only here.")
    assert comparison_page.methodology_notes(names, {}, {}, 3)[3].endswith("in the other readings (section 'Readings').")
