"""A user's tiny CSV dataset, added by config only, and ONE paper-A run on it shared by two slow tests.

tests/test_add_dataset.py (a new dataset is one config entry) and tests/test_report_follows_run.py (the
report describes the run that was made) both need the same thing: a user's finished run - a clone of the whole
``.test`` DAG's run (fixture ``dag_run``, ``workflow_copy.clone``) - with a tiny CSV, a ``datasets:`` entry for
it, and paper A's per-dataset rules run on it. Building it once per pytest process (``functools.cache``) instead
of once per test module saves a whole Snakemake run, and starting from the finished run the jobs that do not
read the new dataset (Figures 2-3's 2-D mixture) are not run again; each module keeps its own assertions.

The data: 400 normal records N(0, 0.5² I₃) and 8 anomalies, each alone at distance ≥ 12 from everything, so
the (β, r) selection finds them exactly and the optimal DP mechanism errs on each with 1/(1+e^ε).

The copy holds two overlays, both merged over ``.test/config.yaml``:
- ``mydata.yaml`` — the smallest change a user makes: ONE ``datasets:`` entry and its name appended to
  ``paper_a.datasets``. ``paper_a_all`` is dry-run with it BEFORE the new dataset's jobs run (the plan must hold
  the new dataset's per-dataset jobs and Tables 1-3 must read its files);
- ``report.yaml`` — the same entry, with paper A's dataset lists (tables, growth, compiler, and the β-r sweep
  the claims read) set to the new dataset alone, so the run does no other dataset's paper-A work. The run is
  ``snakemake paper_a_all --configfile .test/config.yaml report.yaml`` in the clone: the new dataset's jobs and
  the tables, claims and figures that list the datasets run; the rest is the finished run's.

The new dataset's own tables (prepared table, selection, records, errors, detection) do not depend on which
list names it: every rule keys its inputs, parameters and seeds by the dataset's name.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

import workflow_copy as wf

NAME = "tiny_csv"
N_NORMAL, N_ANOMALY = 400, 8
CSV_REL = "mydata/tiny.csv"
USER_OVERLAY = "mydata.yaml"  # test_add_dataset: the user's whole change
RUN_OVERLAY = "report.yaml"  # the run: paper A on the new dataset only


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


def dataset_entry(csv_rel: str, sha256: str) -> dict:
    """The one ``datasets:`` entry a user writes for the CSV."""
    return {
        NAME: {
            "description": "tiny CSV added through config only (tests/tiny_dataset.py)",
            "files": [{"path": csv_rel, "sha256": sha256}],
            "format": "csv",
            "label": {"column": "status", "anomaly_values": ["faulty"], "normal_values": ["ok"]},
            "preprocess": {"missing": "error", "standardize": True},
        }
    }


def user_overlay(csv_rel: str, sha256: str) -> dict:
    """The user's whole change: one ``datasets:`` entry and the name appended to paper A's dataset list."""
    test_cfg = yaml.safe_load((wf.ROOT / ".test" / "config.yaml").read_text(encoding="utf-8"))
    base_cfg = yaml.safe_load((wf.ROOT / "config.yaml").read_text(encoding="utf-8"))
    paper_a_list = test_cfg.get("paper_a", {}).get("datasets", base_cfg["paper_a"]["datasets"])
    return {"datasets": dataset_entry(csv_rel, sha256), "paper_a": {"datasets": [*paper_a_list, NAME]}}


def run_overlay(csv_rel: str, sha256: str) -> dict:
    """The entry with paper A's dataset lists set to the new dataset alone (tables, growth, compiler, and the
    β-r sweep that claims A3, A6 and A8 read)."""
    return {
        "datasets": dataset_entry(csv_rel, sha256),
        "paper_a": {"datasets": [NAME], "growth": {"datasets": [NAME]}, "compiler": {"dataset": NAME}},
        "sweeps": {"paperAbetaR": {"datasets": [NAME]}},
    }


def snakemake(copy: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([wf.SNAKEMAKE, *args], cwd=copy, env=wf.env_for(copy), capture_output=True, text=True,
                          timeout=timeout)


def with_overlay(overlay: str, *args: str) -> list[str]:
    # targets first: --config takes every following word as key=value
    return [*args, "--configfile", ".test/config.yaml", overlay, "--config", f"data_mirror={wf.MIRROR}"]


@dataclass(frozen=True)
class PaperARun:
    copy: Path
    raw: pd.DataFrame  # the CSV as written
    dry: str  # output of `snakemake paper_a_all -n` with the user's overlay, before anything ran
    log: str  # output of the run

    @property
    def results(self) -> Path:
        return self.copy / wf.RESULTS


@functools.cache
def paper_a_run(dag: wf.Run) -> PaperARun:
    """The run, in a clone of the whole .test DAG's finished run ``dag`` (fixture ``dag_run``)."""
    copy = wf.clone(dag.copy, wf.base_dir() / "tiny-dataset")
    raw = tiny_csv(copy / CSV_REL)
    sha = hashlib.sha256((copy / CSV_REL).read_bytes()).hexdigest()
    (copy / USER_OVERLAY).write_text(yaml.safe_dump(user_overlay(CSV_REL, sha)), encoding="utf-8")
    (copy / RUN_OVERLAY).write_text(yaml.safe_dump(run_overlay(CSV_REL, sha)), encoding="utf-8")
    dry = snakemake(copy, *with_overlay(USER_OVERLAY, "paper_a_all", "-n"))
    assert dry.returncode == 0, dry.stdout[-3000:] + dry.stderr[-3000:]
    run = snakemake(copy, *with_overlay(RUN_OVERLAY, "paper_a_all", "--cores", "2"))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return PaperARun(copy, raw, dry.stdout + dry.stderr, run.stdout + run.stderr)
