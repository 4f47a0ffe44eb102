"""Degenerate datasets stop at prepare time with an error naming the dataset (they used to be accepted and fail
later, or give meaningless tables): fewer than 2 rows, one label only, all rows identical. A dataset whose
anomalies are the majority is prepared with a warning."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
import pytest

from privanomaly.datasets import DataError
from privanomaly.datasets.builder import build
from privanomaly.datasets.schema import check_degenerate


def csv_entry(tmp_path, rows: list[tuple[float, float, int]]):
    path = tmp_path / "mine.csv"
    pd.DataFrame(rows, columns=["a", "b", "cls"]).to_csv(path, index=False)
    entry = {"files": [{"path": "mine.csv"}], "format": "csv", "label": {"column": "cls", "anomaly_values": [1]},
             "preprocess": {"standardize": False}}
    return entry, [str(path)]


@pytest.mark.parametrize("rows, words", [
    ([(1.0, 2.0, 1)], "1 row(s) after preprocessing; at least 2"),
    ([(1.0, 2.0, 0), (2.0, 3.0, 0), (0.5, 1.0, 0)], "match no row"),  # the loader's own check
    ([(1.0, 2.0, 1), (2.0, 3.0, 1)], "only anomalies (every label is 1)"),
    ([(1.0, 2.0, 0), (1.0, 2.0, 0), (1.0, 2.0, 1)], "all 3 rows are identical"),
], ids=["one_row", "no_anomaly", "all_anomalies", "identical_rows"])
def test_degenerate_dataset_is_an_error_naming_it(tmp_path, rows, words):
    entry, raw = csv_entry(tmp_path, rows)
    with pytest.raises(DataError) as exc:
        build("mine", entry, raw, seed=1)
    assert str(exc.value).startswith("datasets.mine") and words in str(exc.value), str(exc.value)


def test_identical_after_standardize_is_caught():
    # two columns, each constant: standardize sets them to 0, so every prepared row is the same
    df = pd.DataFrame({"a": [0.0, 0.0, 0.0], "label": np.array([0, 0, 1], dtype=np.int8)})
    with pytest.raises(DataError, match="datasets.x: all 3 rows are identical"):
        check_degenerate(df, "x")


def test_no_anomaly_after_preprocessing_is_an_error():
    df = pd.DataFrame({"a": [0.0, 1.0, 2.0], "label": np.zeros(3, dtype=np.int8)})  # e.g. a subsample or generator
    with pytest.raises(DataError, match=r"datasets.g: no anomaly \(every label is 0\) in 3 rows"):
        check_degenerate(df, "g")


def test_majority_of_anomalies_is_a_warning(tmp_path, caplog):
    entry, raw = csv_entry(tmp_path, [(1.0, 2.0, 1), (2.0, 3.0, 1), (0.5, 1.0, 0)])
    with caplog.at_level(logging.WARNING, logger="privanomaly"):
        df, prov = build("mine", entry, raw, seed=1)
    assert len(df) == 3 and prov["n_anomalies"] == 2
    assert "datasets.mine: anomalies are the majority (2 of 3 rows" in caplog.text


def test_ordinary_dataset_passes_quietly():
    df = pd.DataFrame({"a": [0.0, 1.0, 2.0, 9.0], "label": np.array([0, 0, 0, 1], dtype=np.int8)})
    assert check_degenerate(df, "ok") == []
