"""The answer first: Scenario-1 tables lead with the result and its verdict columns (diagnostics to the right),
and results/index.md (hence the report) carries one sentence per result in words, generated from the tables
(privanomaly.report.sentences)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly.paper_b import scenario1
from privanomaly.report import index, sentences


def s1_table(ratios, eps=(0.1, 0.5, 0.9), skipped=()) -> pd.DataFrame:
    rows = []
    for e, ratio in zip(eps, ratios):
        gone = e in skipped
        rows.append(dict(convention="printed", eps=e, sigma_global=10.0, sigma_smooth=np.nan if gone else 10.0 / ratio,
                         skipped="beta <= 0.01: past max_work" if gone else ""))
    rows.append(dict(convention="beta_equals_eps", eps=0.5, sigma_global=10.0, sigma_smooth=0.1, skipped=""))
    return pd.DataFrame(rows)


def test_scenario1_table_leads_with_the_answer():
    X = np.random.default_rng(0).normal(size=(40, 2))
    fn = lambda beta: {"value": 3.0, "ls0": 3.0, "t_max": 0, "t_stop": 1, "method_used": "fast", "work_paper": 0}  # noqa: E731
    df = scenario1.scenario1_table(X, 3, 0.5, [0.5], 0.01, ["printed"], fn)
    assert list(df.columns[:len(scenario1.ANSWER_COLUMNS)]) == scenario1.ANSWER_COLUMNS
    assert {"N", "d", "gs_lower", "t_max", "work_paper"} <= set(df.columns[len(scenario1.ANSWER_COLUMNS):])


def test_smooth_worse_at_every_eps_in_words():
    s = sentences.scenario1_sentence(s1_table([1 / 4, 1 / 8, 1 / 16]), "cardio", "fast")
    assert s == ("on cardio (fast bound, printed constants) σ_Smooth is 4–16× larger than σ_Global - the smooth "
                 "bound is worse than the global one - at every ε (ε = 0.1–0.9)")


def test_smooth_better_mixed_and_skipped_in_words():
    assert "σ_Smooth is 12–30× smaller than σ_Global at every ε" in sentences.scenario1_sentence(
        s1_table([12, 20, 30]), "Synthetic 1", "paper")
    mixed = sentences.scenario1_sentence(s1_table([0.5, 2, 3]), "x", "paper")
    assert "smaller than σ_Global for ε = 0.5–0.9 and larger for ε = 0.1" in mixed
    skip = sentences.scenario1_sentence(s1_table([2, 3, 4], skipped=(0.1,)), "x", "paper")
    assert skip.endswith("σ_Smooth not computed at 1 of 3 ε (see the table's `skipped`)")


def test_table2_and_files_and_index(tmp_path):
    t2 = tmp_path / "paper_a" / "tables" / "table2.csv"
    t2.parent.mkdir(parents=True)
    pd.DataFrame([dict(dataset="thyroid", eps=1.0, k=1, random_anomaly_sp=0.001, random_anomaly_dp=0.27),
                  dict(dataset="creditcard", eps=np.nan, k=np.nan, random_anomaly_sp=np.nan, random_anomaly_dp=np.nan)]
                 ).to_csv(t2, index=False)
    s1 = tmp_path / "paper_b" / "tables" / "scenario1_synthetic_b1_fast.csv"
    s1.parent.mkdir(parents=True)
    s1_table([1 / 2, 1 / 3, 1 / 4]).to_csv(s1, index=False)
    other = tmp_path / "paper_b" / "paper_r" / "tables" / "scenario1_synthetic_b1_fast.csv"  # another reading
    said = sentences.from_files([str(t2), str(s1), str(other), str(tmp_path / "x.csv")], {"synthetic_b1": "Synthetic 1"})
    assert said == ["on thyroid, at ε = 1 and k = 1, SP's expected error on a random anomaly is 0.001 against "
                    "optimal DP's 0.27 (270× smaller)",
                    "on Synthetic 1 (fast bound, printed constants) σ_Smooth is 2–4× larger than σ_Global - the "
                    "smooth bound is worse than the global one - at every ε (ε = 0.1–0.9)"]
    text = index.render([], {}, {}, sentences=said)
    assert "## In words\n\n- On thyroid, at ε = 1" in text and text.index("## In words") < text.index("| Paper |")
    assert "In words" not in index.render([], {}, {})


def test_table2_sentence_says_equal_errors_are_equal_not_one_times_smaller():
    """A dataset where every anomaly is k-sensitive (SP = DP there, e.g. a small dataset): the sentence says the
    errors are equal, not '(1× smaller)'; two errors within rounding say so too."""
    df = pd.DataFrame([dict(dataset="mine", eps=1.0, k=1, random_anomaly_sp=0.2689, random_anomaly_dp=0.2689),
                       dict(dataset="near", eps=1.0, k=1, random_anomaly_sp=0.2680, random_anomaly_dp=0.2689),
                       dict(dataset="far", eps=1.0, k=1, random_anomaly_sp=0.1, random_anomaly_dp=0.27)])
    said = sentences.table2_sentences(df)
    assert said[0].endswith("against optimal DP's 0.269 (equal)")
    assert said[1].endswith("(about equal: DP/SP = 1.003)")
    assert said[2].endswith("(2.7× smaller)")
    assert not any("1× smaller" in s or "1× larger" in s for s in said)
