"""A researcher's own 2,000-row dataset in paper B with the paper's defaults (Algorithm 2 and the fast bound):
one overlay entry (``paper_b.extra_datasets``) registers it, the run completes, the comparison and the
Scenario-1 figure have its rows, and Algorithm 2 - infeasible on it within ``max_work`` - is ``skipped``
rows with the reason instead of a failed job that stops the run. The overlay is added to a clone of the whole
``.test`` DAG's run (tests/test_dag_run.py), as to a user's finished run. Marked slow (runs Snakemake in a copy)."""

from __future__ import annotations

import subprocess

import numpy as np
import pandas as pd
import pytest
import yaml

import workflow_copy as wf

pytestmark = [pytest.mark.slow, pytest.mark.mirror]
NAME = "mine"


def test_own_dataset_in_paper_b_completes_with_skipped_rows(tmp_path, dag_run):
    copy = wf.clone(dag_run.copy, tmp_path / "work")  # a finished .test run (tests/test_dag_run.py) the user adds to
    rng = np.random.default_rng(26)
    d = 21  # as the researcher's 1,831 x 21 dataset: Algorithm 2 needs > 20,000 units at the smallest beta
    X = np.vstack([rng.normal(size=(1980, d)), rng.normal(4.0, 0.3, size=(20, d)) * rng.choice([-1, 1], size=(20, d))])
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(d)]).assign(status=["ok"] * 1980 + ["faulty"] * 20)
    (copy / "data").mkdir()
    df.to_csv(copy / "data" / "mine.csv", index=False)
    overlay = {
        "datasets": {NAME: {"files": [{"path": "data/mine.csv"}], "format": "csv",
                            "label": {"column": "status", "anomaly_values": ["faulty"], "normal_values": ["ok"]},
                            "preprocess": {"standardize": True}}},
        "paper_b": {"extra_datasets": {NAME: "My data"}, "scenario1": {"max_work": 300}},
    }
    (copy / "my.yaml").write_text(yaml.safe_dump(overlay))
    res = f"{wf.RESULTS}/paper_b"
    targets = [f"{res}/tables/scenario1_{NAME}_paper.csv", f"{res}/tables/scenario1_{NAME}_fast.csv",
               f"{res}/figures/scenario1_{NAME}_paper.png", f"{res}/comparison.md"]
    proc = subprocess.run([wf.SNAKEMAKE, "--cores", "2", *targets, "--configfile", ".test/config.yaml", "my.yaml",
                           "--config", f"data_mirror={wf.MIRROR}"], cwd=copy, env=wf.env_for(copy),
                          capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    paper = pd.read_csv(copy / targets[0])
    fast = pd.read_csv(copy / targets[1])
    assert len(paper) == len(fast) > 0 and paper["sigma_global"].notna().all()
    assert paper["skipped"].notna().any() and paper["skipped"].dropna().str.contains("max_work").all()
    assert fast["skipped"].isna().all() and fast["sigma_smooth"].notna().all()  # the fast bound finishes
    assert list(paper.columns[:4]) == ["dataset", "method", "convention", "eps"]
    comparison = (copy / targets[3]).read_text(encoding="utf-8")
    assert "My data" in comparison
