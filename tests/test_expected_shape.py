"""The shape a dataset's prepared table will have, told before `prepare` runs (the start-up outlook of paper B's
jobs): equal to the shape `datasets.build` then gives, for generators and local CSV files with column and
preprocessing options; and the run's notices use it, marked as expected, until the table exists."""

import numpy as np
import pandas as pd
import pytest

from privanomaly.datasets.builder import build
from privanomaly.datasets.expected_shape import expected_shape
from privanomaly.paper_b import plan as pb_plan
from privanomaly.paper_b.released_bound import EXPECTED_NOTE


@pytest.fixture
def csv_file(tmp_path):
    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.standard_normal((240, 6)), columns=[f"c{i}" for i in range(6)])
    df.insert(2, "status", np.where(rng.random(240) < 0.1, "bad", "ok"))
    path = tmp_path / "mine.csv"
    df.to_csv(path, index=False)
    return str(path)


LABEL = {"column": "status", "anomaly_values": ["bad"], "normal_values": ["ok"]}


@pytest.mark.parametrize("pre", [
    {"missing": "drop", "standardize": True},
    {"drop_columns": ["c0", "c5"]},
    {"keep_columns": ["c1", "c3", "c4"]},
    {"pca": 3},
    {"subsample": {"n_normal": 50, "n_anomaly": 5}},
])
def test_a_csv_files_expected_shape_is_the_prepared_one(csv_file, pre):
    entry = {"files": [{"path": csv_file}], "format": "csv", "label": LABEL, "preprocess": pre}
    table, _ = build("mine", entry, [csv_file], seed=1)
    assert expected_shape(entry, [csv_file]) == (len(table), table.shape[1] - 1)


@pytest.mark.parametrize("gen", [
    {"name": "gaussian_mixture", "dim": 4, "n_components": 2, "n_normal": 300, "n_anomaly": 7, "mean_low": -5.0,
     "mean_high": 5.0},
    {"name": "gaussian_outliers", "dim": 2, "n_normal": 120, "n_anomaly": 4,
     "normal": {"mean": [0.0, 0.0], "var": [1.0, 1.0]}, "anomaly": {"mean": [9.0, 9.0], "var": [4.0, 4.0]}},
])
def test_a_generators_expected_shape_is_the_prepared_one(gen):
    entry = {"generator": gen, "preprocess": {"standardize": True}}
    table, _ = build("gen", entry, [], seed=5)
    assert expected_shape(entry, []) == (len(table), table.shape[1] - 1)


def test_a_last_line_without_its_newline_is_a_record(tmp_path, csv_file):
    cut = tmp_path / "cut.csv"
    cut.write_bytes(open(csv_file, "rb").read().rstrip(b"\n"))
    entry = {"files": [{"path": str(cut)}], "format": "csv", "label": LABEL}
    table, _ = build("cut", entry, [str(cut)], seed=1)
    assert expected_shape(entry, [str(cut)]) == (len(table), table.shape[1] - 1) == (240, 6)


def test_no_shape_without_a_local_file_or_for_other_formats(tmp_path, csv_file):
    assert expected_shape({"files": [{"path": str(tmp_path / "absent.csv")}], "format": "csv", "label": LABEL},
                          [str(tmp_path / "absent.csv")]) is None
    assert expected_shape({"files": [{"path": csv_file}], "format": "npz", "label": LABEL}, [csv_file]) is None
    for read in ({"skiprows": 2}, {"comment": "#"}, {"sep": r"\s+"}, {"header": None, "names": ["a", "b"]}):
        assert expected_shape({"files": [{"path": csv_file}], "format": "csv", "label": LABEL, "read": read},
                              [csv_file]) is None, read


def test_the_notices_estimate_a_table_not_prepared_yet_and_say_so(tmp_path, csv_file):
    pb = {"k": 3, "delta": 0.01, "scenario1": {"eps": [0.5, 1.0], "conventions": ["printed"], "methods": ["fast"],
                                               "max_work": 5000, "methods_by_dataset": {}}}
    parquet = lambda d: str(tmp_path / f"{d}.parquet")  # noqa: E731
    later = pb_plan.scenario1_estimates(pb, ["mine"], parquet)
    told = pb_plan.scenario1_estimates(pb, ["mine"], parquet, lambda d: (240, 6))
    assert later == ["scenario1 mine (fast): estimated once its table is prepared"]
    assert told[0].endswith(EXPECTED_NOTE) and "N = 240, d = 6" in told[0]
    table, _ = build("mine", {"files": [{"path": csv_file}], "format": "csv", "label": LABEL}, [csv_file], seed=1)
    table.to_parquet(parquet("mine"))  # once prepared, its own shape, no note
    prepared = pb_plan.scenario1_estimates(pb, ["mine"], parquet, lambda d: (1, 1))
    assert prepared == [told[0][: -len(EXPECTED_NOTE)]]


@pytest.mark.slow  # the whole config check and every planner: about a second
def test_the_runs_notices_give_a_new_csv_datasets_paper_b_estimates_before_prepare(tmp_path, csv_file):
    """README Recipe 1's overlay, first run: every paper-B job of the new dataset has its estimate at the start."""
    from pathlib import Path

    import yaml

    from privanomaly import preflight
    from privanomaly.config import check

    root = Path(__file__).resolve().parents[1]
    overlay = tmp_path / "my.yaml"
    overlay.write_text(yaml.safe_dump({
        "datasets": {"mine": {"files": [{"path": csv_file}], "format": "csv", "label": LABEL,
                              "preprocess": {"missing": "drop", "standardize": True}}},
        "paper_b": {"extra_datasets": {"mine": "Mine"}}, "results_dir": str(tmp_path / "results"),
        "resources_dir": str(tmp_path / "resources")}))
    cfg = check.check_config(check.merged_config([root / "config.yaml", overlay], ["data_mirror=null"]),
                             root / "workflow" / "schemas" / "config.schema.yaml")
    mine = [line for line in preflight.notices(cfg) if " mine" in line]
    assert {line.split(" mine")[0] for line in mine} >= {"paper_b: scenario1", "paper_b: tune_r"}
    assert all(line.endswith(EXPECTED_NOTE) and "N = 240, d = 6" in line for line in mine), mine
