"""The report describes the run that was made, even when the report command forgets the overlay.

To a finished run (a clone of the whole ``.test`` DAG's run) a user adds a dataset with an overlay (a tiny CSV, one
``datasets:`` entry, and paper A's lists set to it) and runs ``paper_a_all`` with ``--configfile`` (the copy and
the run are tests/tiny_dataset.py's, shared with tests/test_add_dataset.py). The run records its effective
configuration in ``results/effective_config.yaml``; then ``snakemake --report`` is called WITHOUT the overlays
(neither ``.test/config.yaml`` nor the user's file, nor the mirror). The report must be that of the run: it holds
the new dataset's rows in Tables 1-3, its claims under "Your datasets", the figures, and the data summary. A
control without the record shows the report command alone could not have known.

Kept cheap: paper A only, the new dataset as the only paper-A dataset (tables, growth, compiler and the β-r
sweep the claims read; the 2-D mixture of Figures 2-3 is the finished run's), ``--cores 2``. Marked slow.
"""

from __future__ import annotations

import io
import subprocess
import zipfile

import pandas as pd
import pytest
import yaml

import tiny_dataset as td
import workflow_copy as wf
from tiny_dataset import N_ANOMALY, N_NORMAL, NAME

pytestmark = [pytest.mark.slow, pytest.mark.mirror]


def _snakemake(copy, *args, timeout=900):
    return subprocess.run([wf.SNAKEMAKE, *args], cwd=copy, env=wf.env_for(copy), capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def reported(dag_run):
    copy = td.paper_a_run(dag_run).copy
    report = f"{wf.RESULTS}/report.zip"
    rep = _snakemake(copy, "paper_a_all", "--report", report, timeout=300)  # no overlay, no mirror
    assert rep.returncode == 0, rep.stdout[-3000:] + rep.stderr[-3000:]
    return {"copy": copy, "zip": copy / report, "log": rep.stderr}


def _member(z: zipfile.ZipFile, path: str) -> str:
    """The report's copy of results file ``path`` (a zipped report stores each file by its name)."""
    name = path.rsplit("/", 1)[-1]
    hits = [n for n in z.namelist() if n.endswith("/" + name)]
    assert len(hits) == 1, f"{path}: {len(hits)} files named {name} in the report: {sorted(z.namelist())}"
    return hits[0]


def test_run_recorded_its_effective_config(reported):
    rec = yaml.safe_load((reported["copy"] / wf.RESULTS / "effective_config.yaml").read_text(encoding="utf-8"))
    assert rec["results_dir"] == wf.RESULTS  # from .test/config.yaml
    assert rec["paper_a"]["datasets"] == [NAME] and NAME in rec["datasets"]  # from the user's overlay
    assert rec["data_mirror"] == str(wf.MIRROR)  # from --config
    assert (reported["copy"] / wf.RESULTS / "data" / "summary.csv").is_file()  # paper_a_all writes it too


def test_report_used_the_recorded_config(reported):
    assert "--report uses the configuration recorded by the run in" in reported["log"]
    assert "differs from the configuration given now in:" in reported["log"]


def test_report_holds_the_new_datasets_tables_and_figures(reported):
    with zipfile.ZipFile(reported["zip"]) as z:
        t1 = pd.read_csv(io.BytesIO(z.read(_member(z, "paper_a/tables/table1.csv"))))
        row = t1[t1["dataset"] == NAME]
        assert len(row) == 1
        assert int(row["n_records"].iloc[0]) == N_NORMAL + N_ANOMALY
        for table in ("table2.csv", "table3.csv", "parameters.csv"):
            df = pd.read_csv(io.BytesIO(z.read(_member(z, f"paper_a/tables/{table}"))))
            assert NAME in set(df["dataset"]), table
        claims = z.read(_member(z, "paper_a/claims.md")).decode("utf-8")
        assert "## Your datasets (no paper verdict)" in claims and f"`{NAME}`" in claims
        summary = pd.read_csv(io.BytesIO(z.read(_member(z, "data/summary.csv"))))
        assert NAME in set(summary["dataset"])
        for fig in ("error_vs_eps.png", "normal_and_ranked.png", "selection_surface.png", "growth.png", "compiler.png"):
            assert z.read(_member(z, f"paper_a/figures/{fig}"))[:8] == b"\x89PNG\r\n\x1a\n", fig


def test_without_the_record_the_report_command_alone_cannot_know(reported):
    copy = reported["copy"]
    record = copy / wf.RESULTS / "effective_config.yaml"
    saved = record.read_bytes()
    record.unlink()
    try:
        rep = _snakemake(copy, "paper_a_all", "--report", f"{wf.RESULTS}/control.zip", timeout=300)
        assert rep.returncode != 0 or NAME not in zipfile.ZipFile(copy / wf.RESULTS / "control.zip").namelist()
    finally:
        record.write_bytes(saved)
