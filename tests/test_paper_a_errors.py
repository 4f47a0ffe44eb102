"""Exact error sweeps, summaries, sampled trials and Table 3 rows of paper A on a tiny record table."""

import numpy as np
import pandas as pd
import pytest

from privanomaly.paper_a import detection, errors, records

BETA = 5


def _rec() -> pd.DataFrame:
    """Six records: unique isolated anomaly (B=1), duplicated anomaly (x_i=2, B=2), boundary anomaly (B=5),
    and three normal records (B = 6, 7, 9). Two of them labelled."""
    return pd.DataFrame({"record": np.arange(6), "label": np.array([1, 0, 1, 0, 0, 0], np.int8),
                         "x_i": [1, 2, 1, 1, 3, 1], "B": [1, 2, 5, 6, 7, 9],
                         "anomaly": [True, True, True, False, False, False], "cap": -1})


def c1(delta, eps):
    return np.exp(-eps * np.asarray(delta, float)) / (1 + np.exp(-eps))


def test_record_table_on_points():
    X = np.array([[0.0], [0.0], [0.1], [5.0], [9.0]])
    rec = records.record_table(X, np.array([0, 0, 0, 1, 1]), beta=1, r=0.5, cap=None)
    assert rec["x_i"].tolist() == [2, 2, 1, 1, 1]
    assert rec["B"].tolist() == [3, 3, 3, 1, 1]
    assert rec["anomaly"].tolist() == [False, False, False, True, True]
    capped = records.record_table(X, np.zeros(5), beta=1, r=0.5, cap=2)
    assert capped["B"].max() == 2 and (capped["x_i"] <= capped["B"]).all() and records.rec_cap(capped) == 2


def test_exact_errors_match_closed_forms():
    rec = _rec()
    e = errors.exact_errors(rec, BETA, [0.5, 2.0], [1, 3])
    assert len(e) == 6 * 2 * 2 * 2
    sel = e[(e["eps"] == 2.0) & (e["k"] == 3)]
    dp = sel[sel["mechanism"] == "DP"].sort_values("record")["error"].to_numpy()
    spe = sel[sel["mechanism"] == "SP"].sort_values("record")["error"].to_numpy()
    # Δ_G: anomalies min(x_i, β+1−B) = 1, 2, 1; normal B−β = 1, 2, 4
    np.testing.assert_allclose(dp, c1([1, 2, 1, 1, 2, 4], 2.0))
    # L (k=3): anomalies min(β+1−B, x_i + max(0, β−k−B+x_i)) = min(5, 1+2)=3, min(4, 2+2)=4, min(1, 1)=1
    np.testing.assert_allclose(spe, c1([3, 4, 1, 1, 2, 4], 2.0))


def test_summarise_and_ranked():
    rec = _rec()
    e = errors.exact_errors(rec, BETA, [1.0], [1])
    s = errors.summarise(rec, e)
    row = s[(s["mechanism"] == "SP") & (s["group"] == "anomaly")].iloc[0]
    # k=1: L = min(β+1−B, x_i + β−1−B+x_i) = 5, min(4, 2+4)=4, min(1, 1+0)=1
    assert row["n_records"] == 3
    assert row["mean_error"] == pytest.approx(c1([5, 4, 1], 1.0).mean())
    assert row["median_error"] == pytest.approx(c1(4, 1.0))
    lab = s[(s["mechanism"] == "DP") & (s["group"] == "labelled")].iloc[0]
    assert lab["mean_error"] == pytest.approx(c1([1, 1], 1.0).mean())
    normal = s[s["group"] == "normal"].pivot_table(index="eps", columns="mechanism", values="mean_error")
    assert normal["SP"].iloc[0] == pytest.approx(normal["DP"].iloc[0])  # normal records: L = Δ_G
    ranked = errors.ranked_anomalies(rec, e, 1.0, 1)
    assert ranked["record"].tolist() == [0, 1, 2] and ranked["rank"].tolist() == [1, 2, 3]
    assert (np.diff(ranked["error_sp"]) >= 0).all()


def test_wilson_interval_known_value():
    lo, hi = errors.wilson(np.array([50]), np.array([100]))
    assert lo[0] == pytest.approx(0.4038, abs=1e-4) and hi[0] == pytest.approx(0.5962, abs=1e-4)
    lo, hi = errors.wilson(np.array([0]), np.array([1000]))
    assert lo[0] == pytest.approx(0.0, abs=1e-12) and hi[0] == pytest.approx(0.00383, abs=1e-4)


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
def test_wilson_interval_equals_the_normal_quantile_of_scipy_stats_bit_for_bit(level):
    """The interval's z (scipy.special.ndtri, light to import) is scipy.stats' norm.ppf to the last bit."""
    from scipy.stats import norm

    successes, n = np.array([0, 3, 50, 999]), np.array([10, 7, 100, 1000])
    z = norm.ppf(0.5 + level / 2)
    p = successes / n
    den = 1 + z**2 / n
    centre, half = (p + z**2 / (2 * n)) / den, z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / den
    lo, hi = errors.wilson(successes, n, level)
    assert np.array_equal(lo, np.clip(centre - half, 0, 1)) and np.array_equal(hi, np.clip(centre + half, 0, 1))


def test_sampled_errors_agree_with_exact():
    rec = _rec()
    e = errors.exact_errors(rec, BETA, [0.5], [1])
    t = errors.sampled_errors(rec, e, np.random.default_rng(3), 20000, BETA)
    assert set(t["mechanism"]) == {"SP", "DP"} and (t["n_records"] == 3).all()
    assert ((t["exact_error"] >= t["ci_low"]) & (t["exact_error"] <= t["ci_high"])).all()
    t2 = errors.sampled_errors(rec, e, np.random.default_rng(3), 20000, BETA)
    pd.testing.assert_frame_equal(t, t2)


def test_expected_precision_recall():
    p, r = detection.expected_pr(np.array([1.0, 0.5, 0.5, 0.0]), np.array([1, 1, 0, 0]))
    assert p == pytest.approx(1.5 / 2.0) and r == pytest.approx(1.5 / 2)


def test_private_rows_values():
    rec = _rec()
    df = detection.private_rows(rec, BETA, 1, 1.0).set_index("method")
    assert list(df.index) == ["SP", "DP", "Laplace (count)", "Laplace (noisy threshold)", "(β,r)-anomaly, non-private"]
    exact = df.loc["(β,r)-anomaly, non-private"]
    assert exact["precision_br"] == 1 and exact["recall_br"] == 1
    assert exact["precision_labels"] == pytest.approx(2 / 3) and exact["recall_labels"] == 1
    # SP recall against g = mean P(answer 1) over the three anomalies = 1 − mean error
    assert df.loc["SP", "recall_br"] == pytest.approx(1 - c1([5, 4, 1], 1.0).mean())
    assert df.loc["DP", "recall_br"] == pytest.approx(1 - c1([1, 2, 1], 1.0).mean())
    assert df.loc["SP", "recall_br"] > df.loc["DP", "recall_br"]


def test_laplace_count_coincides_with_sp_k1_on_present_records():
    """Finding reported in Table 3 / claims A6: on every *present* record the Laplace count baseline's
    answer distribution equals the (ε, 1)-SP mechanism's (both err with e^{−ε(β+1−B)}/(1+e^{−ε}) on
    anomalies — L = β+1−B when k = 1 — and e^{−ε(B−β)}/(1+e^{−ε}) on normal records); it pays only on
    databases where the record is absent, which a per-record evaluation never visits. With k > 1 they differ."""
    rec = _rec()
    p1 = detection.mechanism_probs(rec, BETA, 1, 0.7)
    np.testing.assert_allclose(p1["SP"], p1["Laplace (count)"], rtol=1e-9)
    p3 = detection.mechanism_probs(rec, BETA, 3, 0.7)
    assert not np.allclose(p3["SP"], p3["Laplace (count)"])


def test_pyod_rows_threshold_at_contamination_and_subsample():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(300, 2)), rng.normal(8, 1, size=(6, 2))]
    rec = pd.DataFrame({"record": np.arange(306), "label": np.r_[np.zeros(300), np.ones(6)].astype(np.int8),
                        "x_i": 1, "B": 10, "anomaly": np.r_[np.zeros(300, bool), np.ones(6, bool)], "cap": -1})
    full = detection.pyod_rows(X, rec, {"KNN": {"n_neighbors": 10}, "IForest": {}}, seed_int=1).set_index("method")
    assert (full["expected_flagged"] == 6).all()  # thresholded at the labelled contamination 6/306
    assert full.loc["PyOD KNN", "recall_labels"] == 1.0
    sub = detection.pyod_rows(X, rec, {"KNN": {"n_neighbors": 10}}, seed_int=1, max_fit_rows=150).set_index("method")
    assert sub.loc["PyOD KNN", "expected_flagged"] == 6 and sub.loc["PyOD KNN", "recall_labels"] == 1.0
    with pytest.raises(ValueError, match="unknown detector"):
        detection.pyod_rows(X, rec, {"SVM": {}}, seed_int=1)
