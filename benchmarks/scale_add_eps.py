"""Adding one ε to a sweep at real size: the rerun's CPU against that ε's points computed in one process.

Needs a checkout where ``make scale`` has finished (its ``.scale/results``: stand-ins for credit card and APS at
real size, the ``paperAbetaR`` sweep on all five datasets). For each chunking - the default
(``sweep_points_per_job`` 128: each batch's ε values in one block, one chunk per batch - a dataset, or the
datasets of the sweep's ``batches``) and one chunk per ε
(``sweep_points_per_job`` = the points of one ε) - it

1. brings the sweep to that chunking (not timed: every chunk computed afresh, none left from an earlier run);
2. appends ε (default 8) to the sweep in an overlay and rebuilds the sweep's table: the jobs that rerun (a
   dry-run first) and the CPU of Snakemake and all its jobs (``getrusage`` of the children), and the same
   without Snakemake's own start and DAG (the CPU of a dry-run with nothing to do);
3. computes that ε's rows in this process from the same counts files, as the chunks do
   (:func:`privanomaly.sweeps.chunks.chunk_rows`, the counts already in memory);
4. rebuilds the sweep as it was (without the ε, default chunking; not timed).

Run: ``python benchmarks/scale_add_eps.py --workdir DIR [--note "machine otherwise idle"]``. Writes
benchmarks/scale_add_eps.md and its record benchmarks/scale_add_eps.json (:mod:`privanomaly.run.record`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from workflow_copy import SNAKEMAKE, env_for, timed_run  # noqa: E402

from privanomaly.run import record as runrecord  # noqa: E402
from privanomaly.privacy import scope  # noqa: E402
from privanomaly.sweeps import chunks, partition, spec  # noqa: E402

OVERLAY = "add_eps_overlay.yaml"


def snakemake(workdir: Path, target: str, *args: str) -> tuple[float, float, str]:
    """(wall, CPU of Snakemake and its jobs, log) of one run with the scale config and the overlay."""
    cmd = [SNAKEMAKE, target, *args, "--cores", "2", "--configfile", ".scale/config.yaml", OVERLAY]
    wall, cpu, proc = timed_run(cmd, workdir, env_for(workdir))
    if proc.returncode != 0:
        raise SystemExit(f"snakemake {target} {' '.join(args)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return wall, cpu, proc.stdout + proc.stderr


def jobs_of(log: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", log, re.M)
            if m.group(1) not in ("total", "job")}


def in_process(results: Path, name: str, sw: spec.Sweep, eps: float) -> tuple[float, int]:
    """(CPU, rows) of ε's points on every dataset, from the sweep's counts files (read before timing)."""
    present = [ds for ds in sw.datasets if (results / "data" / f"{ds}.parquet").is_file()]
    tables = {}
    for batch, members in partition.dataset_batches(sw, present).items():  # a counts file per batch
        counts = pd.read_parquet(results / "sweeps" / name / "counts" / f"{batch}.parquet")
        tables.update({ds: counts[counts["dataset"] == ds] for ds in members})
    provs = {ds: scope.read_provenance(results / "data" / f"{ds}.json") for ds in tables}
    pts = partition.at_eps(eps, partition.eps_grid(sw))
    c0, rows = time.process_time(), 0
    for ds, table in tables.items():
        rows += len(chunks.chunk_rows(table, ds, pts, list(sw.mechanisms), int(table["cap"].iloc[0]), provs[ds]))
    return time.process_time() - c0, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, required=True, help="a checkout where `make scale` has finished")
    ap.add_argument("--sweep", default="paperAbetaR")
    ap.add_argument("--eps", type=float, default=8.0, help="the ε appended")
    ap.add_argument("--note", default="", help='what the record states about the machine, e.g. "machine otherwise idle"')
    a = ap.parse_args(argv)
    load_start = runrecord.load_average()
    workdir = a.workdir.resolve()
    results = workdir / ".scale" / "results"
    cfg = yaml.safe_load((workdir / "config.yaml").read_text(encoding="utf-8"))
    entry = cfg["sweeps"][a.sweep]
    sw = spec.parse(a.sweep, entry)
    per_eps = len(partition.eps_grid(sw))
    target = f".scale/results/sweeps/{a.sweep}/sweep.parquet"
    overlay = workdir / OVERLAY
    out = []
    try:
        for label, ppj in (("default chunking (one block of every ε per batch)", None),
                           (f"one chunk per ε (`sweep_points_per_job` {per_eps})", per_eps)):
            base = {} if ppj is None else {"sweep_points_per_job": ppj}
            overlay.write_text(yaml.safe_dump(base), encoding="utf-8")
            shutil.rmtree(results / "sweeps" / a.sweep / "chunks", ignore_errors=True)  # no chunk of an earlier run
            snakemake(workdir, target)  # the sweep at this chunking: not timed
            _, noop_cpu, _ = snakemake(workdir, target, "-n")
            overlay.write_text(yaml.safe_dump({**base, "sweeps": {a.sweep: {"eps": list(entry["eps"]) + [a.eps]}}}),
                               encoding="utf-8")
            _, _, dry = snakemake(workdir, target, "-n")
            wall, cpu, _ = snakemake(workdir, target)
            out.append((label, jobs_of(dry), wall, cpu, noop_cpu))
    finally:  # the checkout's results as `make scale` left them: the sweep without the ε, at the default chunking
        overlay.write_text("{}\n", encoding="utf-8")
        shutil.rmtree(results / "sweeps" / a.sweep / "chunks", ignore_errors=True)
        snakemake(workdir, target)
        overlay.unlink(missing_ok=True)
    grown = spec.parse(a.sweep, {**entry, "eps": list(entry["eps"]) + [a.eps]})
    eps_cpu, eps_rows = in_process(results, a.sweep, grown, a.eps)

    load = os.getloadavg()
    lines = [f"# Adding one ε to the `{a.sweep}` sweep at real size (`make scale`'s data)", "",
             f"Written by `python benchmarks/scale_add_eps.py`: every number from one run of it, in a checkout where "
             f"`make scale` had finished (credit card and APS are STAND-INS of real size). Load average at the start "
             f"{' / '.join(f'{x:.1f}' for x in load_start)}, at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}."
             + (f" {a.note}." if a.note else ""), "",
             f"Sweep: {len(sw.datasets)} datasets ({', '.join(sw.datasets)}) x {len(sw.mechanisms)} mechanisms x "
             f"{per_eps} (β, r, k) points per ε; ε {entry['eps']} + {a.eps:g}. That ε's {eps_rows} rows in one process "
             f"(from the counts in memory): **{eps_cpu:.2f} s CPU**.", "",
             "| chunking | jobs that rerun | wall (s) | CPU (s) | / that ε in one process | CPU without Snakemake's "
             "start and DAG (s) | / that ε in one process |", "|---|---|---|---|---|---|---|"]
    rows = []
    for label, jobs, wall, cpu, noop in out:
        net = max(cpu - noop, 0.0)
        lines.append(f"| {label} | {', '.join(f'{n} `{r}`' for r, n in sorted(jobs.items()))} | {wall:.1f} | "
                     f"{cpu:.1f} | {cpu / eps_cpu:.2f}x | {net:.1f} | {net / eps_cpu:.2f}x |")
        rows.append(runrecord.row(f"adding ε {a.eps:g} to {a.sweep} at real size, {label}: the rerun",
                                  sum(jobs.values()), wall, cpu, eps_cpu))
    lines += ["", "Snakemake's own start and DAG is the CPU of a dry-run with nothing to do at that chunking "
              f"({', '.join(f'{noop:.1f} s' for *_, noop in out)}).", ""]
    (ROOT / "benchmarks" / "scale_add_eps.md").write_text("\n".join(lines), encoding="utf-8")
    runrecord.write(ROOT / "benchmarks" / "scale_add_eps.json", "scale_add_eps", rows,
                    runrecord.machine(load_start, a.note, workdir))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
