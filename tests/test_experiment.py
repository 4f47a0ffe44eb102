"""The experiment core both papers share: one dataset/choice loader and one verdict record."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from privanomaly import experiment
from privanomaly.experiment import Verdict


def _parquet(tmp_path, df):
    path = tmp_path / "d.parquet"
    df.to_parquet(path)
    return path


def test_load_dataset_splits_features_labels_and_names(tmp_path):
    df = pd.DataFrame({"a": [0.5, 1.0, 2.0], "b": [1, 2, 3], "label": [0, 1, 0]})
    X, y, features = experiment.load_dataset(_parquet(tmp_path, df))
    assert X.dtype == np.float64 and X.tolist() == [[0.5, 1.0], [1.0, 2.0], [2.0, 3.0]]
    assert y.dtype == np.int64 and y.tolist() == [0, 1, 0]
    assert features == ["a", "b"]


@pytest.mark.parametrize(
    "df, message",
    [
        (pd.DataFrame({"a": [1.0, 2.0]}), "no 'label' column"),
        (pd.DataFrame({"label": [0, 1]}), "no feature columns"),
        (pd.DataFrame({"a": [1.0, np.nan], "label": [0, 1]}), "must be finite"),
        (pd.DataFrame({"a": [1.0, 2.0], "label": [0, 2]}), "label must be 0/1, got \\[0, 2\\]"),
    ],
)
def test_load_dataset_names_the_file_and_the_problem(tmp_path, df, message):
    path = _parquet(tmp_path, df)
    with pytest.raises(ValueError, match=message) as err:
        experiment.load_dataset(path)
    assert str(path) in str(err.value)


def test_read_choice_checks_the_keys_each_paper_needs(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"dataset": "d", "beta": 3, "r": 0.5}))
    assert experiment.read_choice(path, "beta")["beta"] == 3
    path.write_text(json.dumps({"dataset": "d", "r": 0.5}))
    assert experiment.read_choice(path)["r"] == 0.5  # paper B: r only
    with pytest.raises(ValueError, match="missing key 'beta'"):
        experiment.read_choice(path, "beta")  # paper A needs beta
    for bad in (-1.0, "0.5", None, True):
        path.write_text(json.dumps({"dataset": "d", "r": bad}))
        with pytest.raises(ValueError, match="finite radius"):
            experiment.read_choice(path)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="JSON object"):
        experiment.read_choice(path)


def test_concat_of_nothing_is_empty(tmp_path):
    assert experiment.concat([]).empty
    for i in range(2):
        pd.DataFrame({"dataset": [f"d{i}"], "v": [i]}).to_csv(tmp_path / f"{i}.csv", index=False)
    got = experiment.concat([tmp_path / "0.csv", tmp_path / "1.csv"])
    assert got["dataset"].tolist() == ["d0", "d1"] and got.index.tolist() == [0, 1]


def test_one_verdict_record_for_checks_and_comparisons():
    assert [Verdict.check("A1", "c", "t", "e", ok).verdict for ok in (True, False, None)] == ["PASS", "FAIL", "N/A"]
    assert [Verdict.compare("x", "c", "p", "o", ok).verdict for ok in (True, False, None)] == [
        "MATCH", "DIFFERS", "N/A"]
    assert [Verdict("i", "c", v).passed for v in experiment.VERDICTS] == [True, False, True, False, None]
    with pytest.raises(ValueError, match="expected one of PASS, FAIL, MATCH, DIFFERS, N/A"):
        Verdict("i", "c", "OK")
    v = Verdict.compare("x", "c", "1.1", "1.0", False, "grid")
    assert (v.expected, v.evidence, v.reason) == ("1.1", "1.0", "grid")
    frame = experiment.to_frame([v], {"id": "id", "expected": "paper", "evidence": "ours", "verdict": "verdict"},
                                scope="s")
    assert frame.to_dict("records") == [{"id": "x", "paper": "1.1", "ours": "1.0", "verdict": "DIFFERS", "scope": "s"}]
    assert list(experiment.to_frame([], {"id": "claim_id"}).columns) == ["claim_id"]
    assert experiment.count([v, v, Verdict.check("A", "c", "t", "e", True)]) == {"DIFFERS": 2, "PASS": 1}


def test_numbers_print_as_the_claims_files_print_them():
    assert [experiment.number(v) for v in (None, np.nan, 0.5, 379.0, 1234.0)] == ["—", "—", "0.5", "379", "1.23e+03"]
    assert [experiment.number(v, integers=True) for v in (np.nan, 1234.0, 1234.5, 7)] == ["—", "1234", "1.23e+03", "7"]
