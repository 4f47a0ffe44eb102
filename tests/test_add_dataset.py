"""A new dataset is one config entry: no code change, and paper A's per-dataset rules run on it end to end.

In a user's finished run (a clone of the whole ``.test`` DAG's run, in a temporary copy of the workflow), a tiny
CSV with a text label column is written, and a config file adds ONE entry under ``datasets:`` plus its name to
``paper_a.datasets`` (merged over ``.test/config.yaml``, as a user would with ``--configfile``). ``paper_a_all``
plans the per-dataset jobs for it; Snakemake runs prepare → (β, r) selection → per-record counts → exact errors →
detection rows for that dataset, and the outputs are checked against values known in closed form: the 8 anomalies
are isolated far from a tight cloud of 400 normal records, so the selection finds them exactly (F1 = 1) and the
optimal DP mechanism's error on each of them is the trade-off bound 1/(1+e^ε) (paper A, Fig. 1; the error the DP
mechanism commits on a unique record).

The copy and the run are tests/tiny_dataset.py's, shared with tests/test_report_follows_run.py (one
Snakemake run for both). Marked slow (runs Snakemake). How long the add-a-dataset run takes is measured in
benchmarks/bench_add_dataset.py, not asserted here.
"""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pandas as pd
import pytest
import yaml

import tiny_dataset as td
from tiny_dataset import N_ANOMALY, N_NORMAL, NAME

RESULTS = td.wf.RESULTS  # results_dir of .test/config.yaml

pytestmark = [pytest.mark.slow, pytest.mark.mirror]


@pytest.fixture(scope="module")
def added(dag_run):
    run = td.paper_a_run(dag_run)
    return {"copy": run.copy, "raw": run.raw, "dry": run.dry, "log": run.log}


def test_no_code_change_only_config(added):
    """The copy differs from the checkout only by the CSV and the config file."""
    copy = added["copy"]
    diff = subprocess.run(["git", "-C", str(td.wf.ROOT), "status", "--porcelain"], capture_output=True, text=True).stdout
    assert "mydata" not in diff  # nothing was written into the real checkout
    cfg = yaml.safe_load((copy / td.USER_OVERLAY).read_text(encoding="utf-8"))
    assert list(cfg["datasets"]) == [NAME]
    assert cfg["paper_a"]["datasets"][-1] == NAME


def test_paper_a_tables_and_sweeps_pick_it_up(added):
    """Dry run of paper_a_all: the per-dataset jobs exist for the new dataset and Tables 1-3 read its files."""
    dry = added["dry"]
    for rule in ("prepare", "paper_a_select", "paper_a_records", "paper_a_errors", "paper_a_detection"):
        assert f"rule {rule}:" in dry
    for path in (
        f"paper_a/work/records/{NAME}.parquet",  # Table 1 input
        f"paper_a/work/errors/{NAME}_summary.csv",  # Table 2 and the error-vs-ε figure
        f"paper_a/work/detection/{NAME}.csv",  # Table 3
    ):
        assert path in dry, path


def test_prepared_table(added):
    df = pd.read_parquet(added["copy"] / RESULTS / "data" / f"{NAME}.parquet")
    assert list(df.columns) == ["height", "width", "depth", "label"]
    assert len(df) == N_NORMAL + N_ANOMALY and int(df["label"].sum()) == N_ANOMALY
    assert str(df["label"].dtype) == "int8" and all(str(df[c].dtype) == "float64" for c in ("height", "width", "depth"))
    # standardised: zero mean, unit variance (population or sample convention)
    assert np.allclose(df[["height", "width", "depth"]].mean(), 0.0, atol=1e-12)
    assert np.allclose(df[["height", "width", "depth"]].std(ddof=0), 1.0, atol=2e-3)
    # row order and labels kept: the anomalies are the rows labelled 'faulty' in the CSV
    assert (df["label"].to_numpy() == (added["raw"]["status"] == "faulty").to_numpy()).all()


def test_selection_finds_the_isolated_anomalies(added):
    choice = json.loads((added["copy"] / RESULTS / "paper_a" / "work" / "selection" / f"{NAME}.json").read_text())
    assert choice["dataset"] == NAME and choice["n_records"] == N_NORMAL + N_ANOMALY
    assert choice["f1"] == pytest.approx(1.0) and choice["precision"] == pytest.approx(1.0)
    assert choice["recall"] == pytest.approx(1.0)


def test_exact_errors_follow_the_closed_forms(added):
    s = pd.read_csv(added["copy"] / RESULTS / "paper_a" / "work" / "errors" / f"{NAME}_summary.csv")
    assert set(s["dataset"]) == {NAME}
    anomalies = s[s["group"] == "anomaly"]
    assert set(anomalies["n_records"]) == {N_ANOMALY}
    dp = anomalies[anomalies["mechanism"] == "DP"]
    assert len(dp) >= 2
    # each anomaly is a unique record whose removal flips the answer: DP errs with 1/(1+e^ε) exactly
    assert np.allclose(dp["mean_error"], 1.0 / (1.0 + np.exp(dp["eps"])), rtol=1e-9)
    sp = anomalies[anomalies["mechanism"] == "SP"]
    merged = sp.merge(dp, on=["eps", "k", "group"], suffixes=("_sp", "_dp"))
    assert len(merged) >= 2 and (merged["mean_error_sp"] < merged["mean_error_dp"]).all()


def test_detection_rows(added):
    d = pd.read_csv(added["copy"] / RESULTS / "paper_a" / "work" / "detection" / f"{NAME}.csv")
    assert set(d["dataset"]) == {NAME}
    ref = d[d["method"] == "(β,r)-anomaly, non-private"].iloc[0]
    assert ref["precision_labels"] == pytest.approx(1.0) and ref["recall_labels"] == pytest.approx(1.0)
    sp = d[d["method"] == "SP"].iloc[0]
    assert 0.0 < sp["recall_labels"] <= 1.0 and sp["expected_flagged"] > 0
