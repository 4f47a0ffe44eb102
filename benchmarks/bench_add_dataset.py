"""Benchmark: how long adding a dataset takes - the run tests/test_add_dataset.py checks, timed here instead.

The unit test used to assert a 90 s wall-clock budget; on a shared machine that assertion failed for load,
not for a defect ("Timings go in benchmarks/ as ratios measured in one run, never in timed unit tests").
This measures, in one run, in a temporary copy of the workflow (tests/workflow_copy.py) with the tiny CSV and
the user's overlay of tests/tiny_dataset.py (one ``datasets:`` entry + its name in ``paper_a.datasets``):

1. ``snakemake <the new dataset's prepared table, selection, errors, detection> --cores 2``: the add-a-dataset
   run (prepare → (β, r) selection → per-record counts → exact errors → detection rows), wall and CPU
   (``getrusage(RUSAGE_CHILDREN)``: Snakemake and all its jobs);
2. ``snakemake paper_a_all -n`` of the same copy afterwards: the fixed cost of one Snakemake start and DAG
   build, wall and CPU;
3. the ratio 1 / 2, and run 1 against the 90 s budget on 2 cores the README quotes.

Writes benchmarks/bench_add_dataset.md. Run: python benchmarks/bench_add_dataset.py
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

import tiny_dataset as td  # noqa: E402
import workflow_copy as wf  # noqa: E402

MIRROR = wf.MIRROR
BUDGET_S = 90.0


def timed(copy: Path, *args: str) -> tuple[float, float, str]:
    """Wall and CPU seconds (children: Snakemake and its jobs) of one Snakemake call."""
    cmd = [wf.SNAKEMAKE, *args, "--configfile", ".test/config.yaml", td.USER_OVERLAY, "--config",
           f"data_mirror={MIRROR}"]
    wall, cpu, proc = wf.timed_run(cmd, copy, wf.env_for(copy))
    if proc.returncode != 0:
        raise SystemExit(f"snakemake failed:\n{proc.stderr[-4000:]}")
    return wall, cpu, proc.stdout + proc.stderr


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-add-dataset-") as tmp:
        copy = wf.copy_workflow(Path(tmp) / "wf")
        td.tiny_csv(copy / td.CSV_REL)
        sha = hashlib.sha256((copy / td.CSV_REL).read_bytes()).hexdigest()
        (copy / td.USER_OVERLAY).write_text(yaml.safe_dump(td.user_overlay(td.CSV_REL, sha)), encoding="utf-8")
        work = f"{wf.RESULTS}/paper_a/work"
        targets = [f"{wf.RESULTS}/data/{td.NAME}.parquet", f"{work}/selection/{td.NAME}.json",
                   f"{work}/errors/{td.NAME}_summary.csv", f"{work}/detection/{td.NAME}.csv"]
        run_wall, run_cpu, log = timed(copy, *targets, "--cores", "2")
        dry_wall, dry_cpu, _ = timed(copy, "paper_a_all", "-n")
    jobs = log.count("\nrule ") + log.count("\nlocalrule ")
    load = os.getloadavg()
    lines = [
        "# Adding a dataset: the run of tests/test_add_dataset.py, timed\n",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, `--cores 2`; "
        f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (the machine may be shared: CPU "
        "seconds are the steadier figure).\n",
        "| what | wall-clock (s) | CPU (s) |",
        "|---|---|---|",
        f"| add-a-dataset run: prepare → selection → records → errors → detection of the new CSV ({jobs} jobs) "
        f"| {run_wall:.1f} | {run_cpu:.1f} |",
        f"| `snakemake paper_a_all -n` of the same copy (one start + DAG build) | {dry_wall:.1f} | {dry_cpu:.1f} |",
        "",
        f"Ratio run / dry-run: **{run_wall / dry_wall:.1f}x** wall, **{run_cpu / dry_cpu:.1f}x** CPU. "
        f"Against the {BUDGET_S:.0f} s budget on 2 cores: {run_wall:.0f} s wall "
        f"({'within' if run_wall <= BUDGET_S else 'OVER'} budget at this load).\n",
    ]
    out = Path(__file__).with_suffix(".md")
    out.write_text("\n".join(lines), encoding="utf-8")
    print(out.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
