"""Paper A tables (Table 1-3 assembly) and the data behind Figures 1-4 and the compiler figure."""

import numpy as np
import pandas as pd
import pytest

from privanomaly.paper_a import records, tables, toy


def _rec():
    X = np.array([[0.0], [0.1], [0.2], [0.3], [5.0], [9.0]])
    return records.record_table(X, np.array([0, 0, 0, 1, 1, 0]), beta=1, r=0.5, cap=None)


def test_table1_row_and_unavailable_rows():
    rec = _rec()  # (β=1, r=0.5)-anomalies: the records at 5 and 9; labelled: 0.3 and 5
    row = tables.table1_row("toy", rec, dim=1, pca="none", beta=1, r=0.5)
    assert row["n_records"] == 6 and row["n_labelled_anomalies"] == 2 and row["n_br_anomalies"] == 2
    assert row["precision"] == pytest.approx(0.5) and row["recall"] == pytest.approx(0.5)
    t1 = tables.table1([row], ["creditcard"])
    assert t1["dataset"].tolist() == ["toy", "creditcard"]
    assert t1.loc[1, ["n_records", "beta", "r"]].isna().all() and "not available" in t1.loc[1, "note"]


def test_table2_picks_random_record_and_anomaly_rows():
    s = pd.DataFrame({"dataset": "toy", "eps": [1.0] * 4 + [2.0], "k": 1, "mechanism": ["SP", "DP", "SP", "DP", "SP"],
                      "group": ["all", "all", "anomaly", "anomaly", "all"], "mean_error": [0.01, 0.02, 0.03, 0.27, 9.0]})
    t2 = tables.table2(s, 1.0, 1, ["aps"])
    r = t2.iloc[0]
    assert (r.random_record_sp, r.random_record_dp, r.random_anomaly_sp, r.random_anomaly_dp) == (0.01, 0.02, 0.03, 0.27)
    assert t2.iloc[1]["dataset"] == "aps" and np.isnan(t2.iloc[1]["random_record_sp"])


def test_fig1_frontier():
    f = toy.dp_tradeoff_frontier([1.0], n_points=1001)
    # symmetric point of the frontier: a = b = 1/(1+e^ε)
    m = 1 / (1 + np.e)
    i = np.argmin(np.abs(f["error_y"] - m))
    assert f["min_error_x"].iloc[i] == pytest.approx(m, abs=2e-3)
    assert f["min_error_x"].iloc[0] == 1.0 and f["min_error_x"].iloc[-1] == 0.0
    assert toy.dp_min_worst_error(np.array([0.0]))["min_worst_error"].iloc[0] == 0.5


def test_fig4_neighbourhood_edges():
    """Hand check for x = (1,1,1,0,0), β = 3, r = 1, k = 1: adding i is a G_S edge iff B_x(i) >= 2,
    removing i iff B_x(i) >= 3 (Lemma A.2 at the larger database); B_x = (2, 3, 2, 1, 0)."""
    nodes, edges = toy.sensitive_neighbourhood([1, 1, 1, 0, 0], beta=3, r=1, k=1, hops=1)
    assert len(nodes) == 9 and len(edges) == 8
    centre = "(1, 1, 1, 0, 0)"
    added = edges[edges["source"] == centre].set_index("record_added")["in_gs"].to_dict()
    removed = edges[edges["target"] == centre].set_index("record_added")["in_gs"].to_dict()
    assert added == {1: True, 2: True, 3: True, 4: False, 5: False}
    assert removed == {1: False, 2: True, 3: False}
    lay = toy.layout(nodes, centre)
    c = lay[lay["node"] == centre].iloc[0]
    assert (c.x, c.y) == (0.0, 0.0)
    ring = lay[lay["hops"] == 1]
    np.testing.assert_allclose(np.hypot(ring["x"], ring["y"]), 1.0)


def test_per_record_privacy_and_sensitive_fraction():
    rec = _rec()
    coords = np.c_[np.arange(6.0), np.zeros(6)]
    df = toy.per_record_privacy(rec, coords, beta=1, eps=0.25, k_main=1, k_values=[1, 2])
    # k = 1: sensitive iff B >= 1 → all present records; k = 2 also
    assert df["privacy_sp_k1"].notna().all() and (df["privacy_dp"] == np.exp(-0.25)).all()
    assert (df.loc[rec["anomaly"], "accuracy_sp"] >= df.loc[rec["anomaly"], "accuracy_dp"] - 1e-12).all()
    rec2 = rec.assign(B=[3, 3, 3, 3, 1, 1])
    sf = toy.sensitive_fraction(rec2.assign(anomaly=rec2["B"] <= 2), beta=2, k_values=[1, 2])
    # β = 2: k-sensitive iff B >= 3 − k: k=1 → B >= 2 (4 of 6); k=2 → B >= 1 (6 of 6)
    assert sf["n_sensitive"].tolist() == [4, 6]


def test_compiler_table():
    rec = pd.DataFrame({"record": [0, 1, 2], "label": 0, "x_i": [1, 1, 1], "B": [1, 3, 8],
                        "anomaly": [True, True, False], "cap": -1})
    t = toy.compiler_table(rec, beta=5, k=1, eps=1.0)
    c = 1 / (1 + np.exp(0.5))
    assert np.allclose(t["input_error"], c)
    by = t.set_index("record")
    # δ = L − Δ_G: B=1: L = min(5, 1 + 4) = 5, Δ_G = 1 → 4; B=3: L = min(3, 1+2) = 3 → 2; normal → 0
    assert by.loc[0, "delta"] == 4 and by.loc[1, "delta"] == 2 and by.loc[2, "delta"] == 0
    assert by.loc[0, "compiled_error"] == pytest.approx(c * np.exp(-1.0))
    assert by.loc[2, "compiled_error"] == pytest.approx(c)
    assert t["rank"].tolist() == [1, 2, 3] and (np.diff(t["compiled_error"]) <= 0).all()


def test_table1_counts_render_as_integers():
    from privanomaly.io import to_markdown

    row = tables.table1_row("toy", _rec(), dim=1, pca="none", beta=1, r=0.5)
    row["n_records"] = 10100
    md = to_markdown(tables.table1([row], ["aps"]))
    assert "| 10100 |" in md and "1.01e+04" not in md and "| aps | — |" in md
