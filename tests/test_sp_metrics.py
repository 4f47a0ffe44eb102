"""Exact error summaries and expected precision/recall (privanomaly.sp.metrics)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import sp


def table():
    x_i = np.array([1, 1, 2, 1, 1, 1])
    B = np.array([1, 2, 2, 10, 20, 4])
    return sp.expected_errors(x_i, B, beta=3, k=1, eps=1.0)


def test_expected_errors_columns_and_values():
    df = table()
    assert list(df.columns) == ["x_i", "B", "g", "sensitive", "delta_G", "L", "dp_error", "sp_error"]
    np.testing.assert_array_equal(df["g"], [1, 1, 1, 0, 0, 0])
    np.testing.assert_array_equal(df["sensitive"], [False, False, False, True, True, True])
    np.testing.assert_array_equal(df["delta_G"], [1, 1, 2, 7, 17, 1])
    np.testing.assert_array_equal(df["L"], [3, 2, 2, 7, 17, 1])
    c = 1 / (1 + np.exp(-1.0))
    np.testing.assert_allclose(df["dp_error"], np.exp(-df["delta_G"]) * c)
    np.testing.assert_allclose(df["sp_error"], np.exp(-df["L"]) * c)
    capped = sp.expected_errors([1, 1], [2, 9], beta=3, k=1, eps=1.0, cap=6)
    np.testing.assert_array_equal(capped["delta_G"], [1, 3])


def test_class_random_and_ranked():
    df = table()
    cm = class_mean = sp.class_mean_errors(df)
    assert cm.loc["anomaly", "n"] == 3 and cm.loc["normal", "n"] == 3
    assert class_mean.loc["anomaly", "dp_error"] == pytest.approx(df["dp_error"][:3].mean())
    assert sp.random_record_error(df)["sp_error"] == pytest.approx(df["sp_error"].mean())
    assert sp.random_anomaly_error(df)["dp_error"] == pytest.approx(df["dp_error"][:3].mean())
    w = np.array([2, 1, 1, 1, 1, 1])
    assert sp.random_record_error(df, weights=w)["dp_error"] == pytest.approx(np.dot(w, df["dp_error"]) / 7)
    rk = sp.ranked_errors(df, "sp_error", "anomaly")
    assert list(rk["rank"]) == [1, 2, 3]
    assert rk["sp_error"].is_monotonic_decreasing
    with pytest.raises(ValueError):
        sp.ranked_errors(df, cls="weird")


def test_expected_precision_recall_is_exact_expectation():
    truth = np.array([1, 1, 0, 0, 0])
    p1 = np.array([0.9, 0.5, 0.1, 0.2, 0.0])
    pr = sp.expected_precision_recall(p1, truth)
    assert pr["tp"] == pytest.approx(1.4) and pr["fp"] == pytest.approx(0.3) and pr["fn"] == pytest.approx(0.6)
    assert pr["recall"] == pytest.approx(0.7)
    assert pr["precision"] == pytest.approx(1.4 / 1.7)
    # recall is an exact expectation: the Monte-Carlo mean of TP/#pos converges to it
    rng = np.random.default_rng(0)
    draws = rng.random((200_000, 5)) < p1
    assert (draws[:, :2].sum(axis=1) / 2).mean() == pytest.approx(0.7, abs=0.005)
    nan = sp.expected_precision_recall(np.zeros(3), np.zeros(3, int))
    assert np.isnan(nan["precision"]) and np.isnan(nan["recall"])
    assert isinstance(sp.class_mean_errors(table()), pd.DataFrame)
