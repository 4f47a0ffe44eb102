"""The real data rules (download from the mirror, prepare, data_summary) on the default config.

Runs Snakemake in a temporary copy of the checkout (tests/workflow_copy.py), with one extra dataset given
only as a config entry (a local CSV), and checks summary.csv against ../shared/datasets/MANIFEST.md.
"""

from __future__ import annotations

import hashlib
import subprocess

import numpy as np
import pandas as pd
import pytest
import workflow_copy as wf
import yaml

pytestmark = [
    pytest.mark.slow,
    pytest.mark.mirror,
]

# MANIFEST.md: rows / dims / #anomalies of the mirrored files; Adult: 32561 raw rows (30162 without '?').
MANIFEST = {
    "thyroid": (3772, 6, 93),
    "mammography": (11183, 6, 260),
    "ionosphere": (351, 34, 126),
}


@pytest.fixture(scope="module")
def data_run(tmp_path_factory):
    copy = wf.copy_workflow(wf.base_dir() / "data-default")
    local = tmp_path_factory.mktemp("local") / "mydata.csv"
    g = np.random.default_rng(0)
    pd.DataFrame(
        {"f1": g.normal(size=30), "f2": g.normal(size=30), "is_odd": (np.arange(30) % 10 == 0).astype(int)}
    ).to_csv(local, index=False)
    overlay = copy / "extra.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "datasets": {
                    "mydata": {
                        "files": [{"path": str(local), "sha256": hashlib.sha256(local.read_bytes()).hexdigest()}],
                        "format": "csv",
                        "label": {"column": "is_odd", "anomaly_values": [1]},
                    }
                }
            }
        )
    )
    cmd = [
        wf.SNAKEMAKE,
        "results/data/summary.csv",
        "results/data/mydata.parquet",
        "--cores",
        "2",
        "--configfile",
        "config.yaml",
        str(overlay),
        "--config",
        f"data_mirror={wf.MIRROR}",
    ]
    proc = subprocess.run(cmd, cwd=copy, env=wf.env_for(copy), capture_output=True, text=True, timeout=900)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-6000:]
    return copy, log, cmd


def test_summary_matches_manifest(data_run):
    copy, _, _ = data_run
    summary = pd.read_csv(copy / "results/data/summary.csv").set_index("dataset")
    for name, (rows, dims, anomalies) in MANIFEST.items():
        assert tuple(summary.loc[name, ["rows", "dims", "n_anomalies"]]) == (rows, dims, anomalies), name
    assert summary.loc["adult", "raw_rows"] == 32561 and summary.loc["adult", "rows"] == 30162
    sub = {
        "adult_b1": (50, 5),
        "adult_b2": (379, 10),
        "ionosphere_b": (235, 10),
        "synthetic_b1": (50, 5),
        "synthetic_b2": (500, 10),
    }
    for name, (rows, anomalies) in sub.items():
        assert tuple(summary.loc[name, ["rows", "n_anomalies"]]) == (rows, anomalies), name
    assert summary.loc["thyroid", "sha256"] == "8de161b3f235b7647bb0b39a836d983ff61d67bf234edac461da2d71e889cb87"
    assert "creditcard" not in summary.index and "aps" not in summary.index


def test_unmirrored_datasets_are_reported_not_invented(data_run):
    copy, log, _ = data_run
    unavailable = pd.read_csv(copy / "results/data/unavailable.csv")
    assert unavailable["dataset"].tolist() == ["creditcard", "aps"]
    assert (
        f"creditcard: not in mirror {wf.MIRROR} and not cached; skipped — run with internet (data_mirror: null) "
        "to include it" in log
    )
    assert not (copy / "results/data/creditcard.parquet").exists()


def test_parquet_schema_and_raw_copies(data_run):
    copy, _, _ = data_run
    for name in ["thyroid", "adult_b1", "synthetic_b2", "mydata"]:
        df = pd.read_parquet(copy / f"results/data/{name}.parquet")
        assert df["label"].dtype == np.int8
        assert all(df[c].dtype == np.float64 for c in df.columns if c != "label")
    raw = copy / "resources/raw/adult/adult.data"
    assert (
        hashlib.sha256(raw.read_bytes()).hexdigest()
        == hashlib.sha256((wf.MIRROR / "adult/adult.data").read_bytes()).hexdigest()
    )


def test_a_local_csv_is_one_config_entry(data_run):
    copy, _, _ = data_run
    df = pd.read_parquet(copy / "results/data/mydata.parquet")
    assert list(df.columns) == ["f1", "f2", "label"] and len(df) == 30 and int(df.label.sum()) == 3
    summary = pd.read_csv(copy / "results/data/summary.csv").set_index("dataset")
    assert summary.loc["mydata", "n_anomalies"] == 3


def test_rerun_is_a_no_op(data_run):
    copy, _, cmd = data_run
    proc = subprocess.run([*cmd, "-n"], cwd=copy, env=wf.env_for(copy), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "Nothing to be done" in proc.stdout + proc.stderr, proc.stdout[-3000:]
