"""Paper A claims evaluator (privanomaly.paper_a.claims): PASS/FAIL on constructed tables."""

import numpy as np
import pandas as pd

from privanomaly.paper_a import claims


def _summaries(sp_anom_median, dp_anom_mean, sp_normal=1e-3, dp_normal=1e-3, eps=(0.5, 1.0), k=1):
    rows = []
    for d in ("a", "b"):
        for e in eps:
            for mech, grp, mean, med in (("SP", "anomaly", sp_anom_median, sp_anom_median),
                                         ("DP", "anomaly", dp_anom_mean(e), dp_anom_mean(e)),
                                         ("SP", "normal", sp_normal, sp_normal), ("DP", "normal", dp_normal, dp_normal)):
                rows.append(dict(dataset=d, eps=e, k=k, mechanism=mech, group=grp, n_records=10, mean_error=mean,
                                 median_error=med, frac_below_1e2=float(med < 1e-2)))
    return pd.DataFrame(rows)


def bound(e):
    return 1 / (1 + np.exp(e))


def test_sp_near_zero_and_dp_at_tradeoff():
    good = _summaries(1e-6, bound)
    assert claims.sp_anomaly_near_zero(good, 1.0, 1, 0.01).status == "PASS"
    assert claims.sp_anomaly_near_zero(_summaries(0.2, bound), 1.0, 1, 0.01).status == "FAIL"
    assert claims.dp_anomaly_at_tradeoff(good, [0.5, 1.0], 0.9, 1.0).status == "PASS"
    low_dp = _summaries(1e-6, lambda e: 0.5 * bound(e))
    assert claims.dp_anomaly_at_tradeoff(low_dp, [0.5, 1.0], 0.9, 1.0).status == "FAIL"
    assert claims.sp_beats_dp_on_anomalies(good, 1.0, 1, 0.5).status == "PASS"
    assert claims.sp_beats_dp_on_anomalies(_summaries(0.2, bound), 1.0, 1, 0.5).status == "FAIL"
    empty = good[good["dataset"] == "none"]
    assert claims.sp_anomaly_near_zero(empty, 1.0, 1, 0.01).status == "N/A"


def test_normal_records():
    assert claims.sp_equals_dp_on_normal(_summaries(1e-6, bound), 1, 1e-3).status == "PASS"
    assert claims.sp_equals_dp_on_normal(_summaries(1e-6, bound, sp_normal=0.1), 1, 1e-3).status == "FAIL"


def test_growth_and_k():
    g = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "n_records": [100, 400, 50, 200],
                      "mean_error_sp": [0.1, 0.01, 0.2, 0.1]})
    assert claims.sp_error_falls_with_size(g).status == "PASS"
    g.loc[3, "mean_error_sp"] = 0.3
    r = claims.sp_error_falls_with_size(g)
    assert r.status == "FAIL" and "n=200 → 0.3" in r.evidence
    sens = pd.DataFrame({"dataset": ["a"] * 3, "k": [1, 7, 14], "frac_sensitive": [0.9, 0.95, 1.0]})
    assert claims.larger_k_protects_more(sens).status == "PASS"
    sens["frac_sensitive"] = [0.9, 0.9, 0.9]  # flat: not "more"
    assert claims.larger_k_protects_more(sens).status == "FAIL"


def test_laplace_margin():
    det = pd.DataFrame({"dataset": ["a"] * 3, "method": ["SP", "Laplace (count)", "Laplace (noisy threshold)"],
                        "precision_br": [0.9, 0.6, 0.5], "recall_br": [0.9, 0.6, 0.5]})
    assert claims.sp_beats_laplace(det, 0.05).status == "PASS"
    det.loc[1, ["precision_br", "recall_br"]] = [0.9, 0.9]  # a tie is not "largely outperforms"
    assert claims.sp_beats_laplace(det, 0.05).status == "FAIL"


def test_compiler_claim():
    eps = 1.0
    d = np.array([0, 0, 1, 3])
    comp = pd.DataFrame({"eps": eps, "delta": d, "input_error": 0.4, "compiled_error": 0.4 * np.exp(-eps * d / 4)})
    assert claims.compiler_exponential_gain(comp).status == "PASS"
    comp.loc[3, "compiled_error"] = 0.4 * np.exp(-eps * 3 / 2)  # wrong exponent
    assert claims.compiler_exponential_gain(comp).status == "FAIL"


def test_sampling_coverage_and_markdown():
    t = pd.DataFrame({"exact_error": [0.1, 0.2, 0.3], "ci_low": [0.05, 0.15, 0.31], "ci_high": [0.15, 0.25, 0.4]})
    r = claims.sampling_agrees(t, 0.9)
    assert r.status == "FAIL" and r.evidence.startswith("2/3")
    assert claims.sampling_agrees(t, 0.6).status == "PASS"
    md = claims.to_markdown([r], "# header")
    assert "**0 of 1 claims PASS**" in md and "## A9" in md and "**FAIL**" in md
    assert list(claims.to_frame([r]).columns) == ["claim_id", "claim", "test", "evidence", "status"]
