"""A new dataset is one config entry: no code change, and paper A's per-dataset rules run on it end to end.

In a temporary copy of the workflow (the files git knows, no results), a tiny CSV with a text label column is
written, and a config file adds ONE entry under ``datasets:`` plus its name to ``paper_a.datasets`` (merged
over ``.test/config.yaml``, as a user would with ``--configfile``). Snakemake then runs prepare → (β, r)
selection → per-record counts → exact errors → detection rows for that dataset, and the outputs are checked
against values known in closed form: the 8 anomalies are isolated far from a tight cloud of 400 normal
records, so the selection finds them exactly (F1 = 1) and the optimal DP mechanism's error on each of them
is the trade-off bound 1/(1+e^ε) (paper A, Fig. 1; the error the DP mechanism commits on a unique record).

Marked slow (runs Snakemake); budget ≤ 90 s on 2 cores.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
MIRROR = (ROOT.parent / "shared" / "datasets").resolve()
NAME = "tiny_csv"
RESULTS = ".test/results"  # results_dir of .test/config.yaml
N_NORMAL, N_ANOMALY = 400, 8

pytestmark = pytest.mark.slow


def copy_tracked_workflow(dest: Path) -> None:
    """The files git knows (tracked, plus new files not ignored), without any results."""
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    for rel in filter(None, out.split("\0")):
        src = ROOT / rel
        if not src.is_file() or rel.startswith((".test/results/", "results/", "docs/gallery/")):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / rel)


def tiny_csv(path: Path) -> pd.DataFrame:
    """400 normal records N(0, 0.5² I₃) and 8 anomalies, each alone at distance ≥ 12 from everything."""
    rng = np.random.default_rng(7)
    normal = rng.normal(0.0, 0.5, size=(N_NORMAL, 3))
    corners = np.array([[s0, s1, s2] for s0 in (-1, 1) for s1 in (-1, 1) for s2 in (-1, 1)], dtype=float)
    anomalies = 12.0 * corners + rng.normal(0.0, 0.1, size=(N_ANOMALY, 3))
    df = pd.DataFrame(np.vstack([normal, anomalies]), columns=["height", "width", "depth"])
    df["status"] = ["ok"] * N_NORMAL + ["faulty"] * N_ANOMALY
    df = df.sample(frac=1.0, random_state=3).reset_index(drop=True)  # anomalies not at the end
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)
    return df


def new_dataset_config(csv_rel: str, sha256: str) -> dict:
    """The user's whole change: one `datasets:` entry and the name appended to paper A's dataset list."""
    test_cfg = yaml.safe_load((ROOT / ".test" / "config.yaml").read_text(encoding="utf-8"))
    base_cfg = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    paper_a_list = test_cfg.get("paper_a", {}).get("datasets", base_cfg["paper_a"]["datasets"])
    return {
        "datasets": {
            NAME: {
                "description": "tiny CSV added through config only (tests/test_add_dataset.py)",
                "files": [{"path": csv_rel, "sha256": sha256}],
                "format": "csv",
                "label": {"column": "status", "anomaly_values": ["faulty"], "normal_values": ["ok"]},
                "preprocess": {"missing": "error", "standardize": True},
            }
        },
        "paper_a": {"datasets": [*paper_a_list, NAME]},
    }


def run_snakemake(copy: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # targets first: --config takes every following word as key=value
    cmd = [SNAKEMAKE, *args, "--configfile", ".test/config.yaml", "mydata.yaml", "--config", f"data_mirror={MIRROR}"]
    return subprocess.run(cmd, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def added(tmp_path_factory):
    t0 = time.monotonic()
    copy = tmp_path_factory.mktemp("add-dataset")
    copy_tracked_workflow(copy)
    csv = copy / "mydata" / "tiny.csv"
    raw = tiny_csv(csv)
    sha = hashlib.sha256(csv.read_bytes()).hexdigest()
    (copy / "mydata.yaml").write_text(yaml.safe_dump(new_dataset_config("mydata/tiny.csv", sha)), encoding="utf-8")

    work = f"{RESULTS}/paper_a/work"
    targets = [
        f"{RESULTS}/data/{NAME}.parquet",
        f"{work}/selection/{NAME}.json",
        f"{work}/errors/{NAME}_summary.csv",
        f"{work}/detection/{NAME}.csv",
    ]
    dry = run_snakemake(copy, "paper_a_all", "-n")
    assert dry.returncode == 0, dry.stdout[-3000:] + dry.stderr[-3000:]
    proc = run_snakemake(copy, *targets, "--cores", "2")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return {"copy": copy, "raw": raw, "dry": dry.stdout + dry.stderr, "log": proc.stderr, "seconds": time.monotonic() - t0}


def test_no_code_change_only_config(added):
    """The copy differs from the checkout only by the CSV and the config file."""
    copy = added["copy"]
    diff = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True).stdout
    assert "mydata" not in diff  # nothing was written into the real checkout
    cfg = yaml.safe_load((copy / "mydata.yaml").read_text(encoding="utf-8"))
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


def test_within_budget(added):
    assert added["seconds"] <= 90, f"add-a-dataset run took {added['seconds']:.0f} s"
