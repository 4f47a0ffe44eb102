"""Benchmark of a 1,008-row paper-A sweep as Snakemake jobs against the same computation in one process.

Sweep: 3 datasets (synthetic_a, mammography, thyroid; full size) x 4 mechanisms x 7 ε x 3 k x 4 (β, r)
= 1,008 tidy rows. Jobs: 3 ``sweep_counts`` (one per dataset: every (β, r)) + ``sweep_chunk`` jobs
(privanomaly.sweeps.partition: at the default ``sweep_points_per_job`` one per dataset, every ε, β, r, k and
mechanism inside; with ``sweep_points_per_job`` = the points of one ε, one per dataset x ε) + collect.

Measured in one run, in a temporary copy of the workflow (data prepared first, not timed):
1. the Snakemake run of the sweep, ``--cores 2``: wall-clock and CPU time of Snakemake and all its jobs
   (``getrusage(RUSAGE_CHILDREN)``);
2. the same computation in one Python process through the library: wall and CPU;
3. the ratio of 1 to 2, and the per-job overhead = (CPU of 1 - CPU of 2) / number of jobs;
4. adding one ε (8) to the finished sweep, at both chunkings: the jobs that rerun and their CPU, against that
   ε's in-process CPU;
5. where the default run's CPU goes: each job's CPU before its body and in it (the `job start:`/`job usage:`
   lines of its log, ``runlog.read_job_cpu``), the rest being Snakemake's own process and the jobs' exits.

Writes benchmarks/bench_sweeps.md and its record benchmarks/bench_sweeps.json (:mod:`privanomaly.runrecord`, read
by bench_table.py). Run: python benchmarks/bench_sweeps.py [--note "machine otherwise idle"] (on an idle machine:
the load averages at the start and the end are written with the numbers; the note states what no program
measures).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from workflow_copy import MIRROR, SNAKEMAKE, copy_workflow, env_for, timed_run  # noqa: E402

from privanomaly import runlog, runrecord, seeding  # noqa: E402
from privanomaly.experiment import split_frame  # noqa: E402
from privanomaly.sweeps import chunks, counts, partition, spec  # noqa: E402

NAME = "bench1000"
DATASETS = ["synthetic_a", "mammography", "thyroid"]
SWEEP = {
    "kind": "paper_a",
    "description": "1,000-point benchmark sweep (benchmarks/bench_sweeps.py)",
    "datasets": DATASETS,
    "mechanisms": ["sp", "optimal_dp", "laplace_count", "laplace_noisy_threshold"],
    "eps": [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0],
    "k": [1, 5, 10],
    "beta": [5, 10],
    "r": {"fraction": [0.01, 0.02]},
    "n_absent": 500,
}
RESULTS = "bench_results"


def snakemake(copy: Path, *args: str) -> tuple[float, float, str]:
    cmd = [SNAKEMAKE, *args, "--cores", "2", "--configfile", "bench.yaml", "--config", f"data_mirror={MIRROR}"]
    wall, cpu, proc = timed_run(cmd, copy, env_for(copy))
    if proc.returncode != 0:
        raise SystemExit(f"snakemake {' '.join(args)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return wall, cpu, proc.stdout + proc.stderr


def in_process(copy: Path, sw: spec.Sweep, seed: int, eps: list[float] | None = None) -> tuple[float, float, int]:
    """The same counts and chunks through the library in this process (only the ε in ``eps`` if given, counts
    excluded then: adding an ε reuses them): (wall, cpu, rows)."""
    cap = counts.sweep_cap(sw.beta, sw.eps)
    tables = {}
    w0, c0 = time.perf_counter(), time.process_time()
    for ds in DATASETS:
        X, y, _ = split_frame(pd.read_parquet(copy / RESULTS / "data" / f"{ds}.parquet"), ds)
        absent = counts.absent_points(X, sw.n_absent, seeding.rng(seed, "sweep_counts", NAME, ds))
        tables[ds] = chunks.count_tables(ds, X, y, spec.ball_keys(sw), sw.metric, cap, absent)
    if eps is not None:
        w0, c0 = time.perf_counter(), time.process_time()
    n_rows = 0
    for ds in DATASETS:
        pts = [(spec.num_token(e), *p) for e in (eps if eps is not None else sw.eps) for p in partition.eps_grid(sw)]
        n_rows += len(chunks.chunk_rows(tables[ds], ds, pts, list(sw.mechanisms), cap))
    return time.perf_counter() - w0, time.process_time() - c0, n_rows


def job_cpu(copy: Path) -> list[tuple[str, str, float, float]]:
    """(rule, job, CPU before the body, CPU of the body) of every sweep job of the run in ``copy``, from its log."""
    out = []
    for log in sorted((copy / RESULTS / "logs").glob(f"sweep_*/{NAME}*/**/*.log")) + sorted(
            (copy / RESULTS / "logs").glob(f"sweep_*/{NAME}.log")):
        job = runlog.read_job_cpu(log.read_text(encoding="utf-8", errors="replace"))
        if job is not None:
            rel = log.relative_to(copy / RESULTS / "logs")
            out.append((rel.parts[0], "/".join(rel.parts[1:]).removesuffix(".log"), job.start_cpu_s or 0.0,
                        job.cpu_s - (job.start_cpu_s or 0.0)))
    return out


def add_one_eps(copy: Path, cfg: dict, target: str) -> tuple[dict, float, float]:
    """Append ε = 8 to the finished sweep of ``copy``: the jobs that rerun (dry-run), then the rerun's wall and CPU."""
    cfg["sweeps"][NAME]["eps"] = SWEEP["eps"] + [8.0]
    (copy / "bench.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    _, _, dry = snakemake(copy, target, "-n")
    rerun = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(sweep_\w+)\s+(\d+)$", dry, re.M)}
    wall, cpu, _ = snakemake(copy, target)
    return rerun, wall, cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--note", default="", help='what the record states about the machine, e.g. "machine otherwise idle"')
    args = ap.parse_args(argv)
    load_start = runrecord.load_average()
    tmp = Path(tempfile.mkdtemp(prefix="bench-sweeps-"))
    copy, per_eps = copy_workflow(tmp / "wf"), copy_workflow(tmp / "wf1")
    points_of_one_eps = len(SWEEP["beta"]) * len(SWEEP["r"]["fraction"]) * len(SWEEP["k"])
    cfg = {"results_dir": RESULTS, "sweeps": {NAME: dict(SWEEP)}}
    cfg1 = {"results_dir": RESULTS, "sweep_points_per_job": points_of_one_eps, "sweeps": {NAME: dict(SWEEP)}}
    (copy / "bench.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    (per_eps / "bench.yaml").write_text(yaml.safe_dump(cfg1), encoding="utf-8")
    target = f"{RESULTS}/sweeps/{NAME}/sweep.parquet"
    data = [f"{RESULTS}/data/{d}.parquet" for d in DATASETS]
    for c in (copy, per_eps):
        snakemake(c, *data)  # data preparation: not part of the sweep's time

    wall, cpu, log = snakemake(copy, target)
    jobs = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(sweep_\w+)\s+(\d+)$", log, re.M)}
    n_jobs = sum(jobs.values())
    table = pd.read_parquet(copy / target)
    per_job = job_cpu(copy)
    wall1, cpu1, log1 = snakemake(per_eps, target)
    n_jobs1 = sum(int(m.group(2)) for m in re.finditer(r"^(sweep_\w+)\s+(\d+)$", log1, re.M))
    same = (per_eps / target).read_bytes() == (copy / target).read_bytes()

    seed = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))["seed"]
    lib_wall, lib_cpu, lib_rows = in_process(copy, spec.parse(NAME, SWEEP), seed)

    w_noop, cpu_noop, _ = snakemake(copy, target, "-n")
    rerun, add_wall, add_cpu = add_one_eps(copy, cfg, target)
    rerun1, add_wall1, add_cpu1 = add_one_eps(per_eps, cfg1, target)
    sw8 = spec.parse(NAME, cfg["sweeps"][NAME])
    _, eps8_cpu, eps8_rows = in_process(copy, sw8, seed, eps=[8.0])

    def jobs_text(j: dict) -> str:
        return ", ".join(f"{n} `{r}`" for r, n in sorted(j.items()))

    load = os.getloadavg()
    lines = [
        "# Sweeps: a 1,008-row paper-A sweep as Snakemake jobs, in chunks",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, `--cores 2`; "
        f"load average at the start {' / '.join(f'{x:.1f}' for x in load_start)}, at the end {load[0]:.1f} / "
        f"{load[1]:.1f} / {load[2]:.1f}.{' ' + args.note + '.' if args.note else ''} Written by "
        "`python benchmarks/bench_sweeps.py`: every number below is from one run of it.",
        "",
        f"Sweep: {len(DATASETS)} datasets ({', '.join(DATASETS)}, full size) x 4 mechanisms x 7 ε x 3 k x "
        f"4 (β, r) = **{len(table)} rows** (library in-process: {lib_rows}); {points_of_one_eps} (β, r, k) points "
        "per ε and dataset.",
        f"Default chunking (`sweep_points_per_job` 128: whole ε blocks, `privanomaly.sweeps.partition`): "
        f"{jobs_text(jobs)} = {n_jobs} jobs. One chunk per ε (`sweep_points_per_job` {points_of_one_eps}): "
        f"{n_jobs1} jobs; its table is byte-identical to the default's: {'yes' if same else 'NO'}.",
        "",
        "| what | wall-clock (s) | CPU (s) |",
        "|---|---|---|",
        f"| Snakemake run of the sweep, default chunking, `--cores 2` (all jobs) | {wall:.1f} | {cpu:.1f} |",
        f"| the same, one chunk per ε | {wall1:.1f} | {cpu1:.1f} |",
        f"| the same computation in one Python process (library, after its imports) | {lib_wall:.1f} | {lib_cpu:.1f} |",
        f"| Snakemake dry-run, nothing to do ({n_jobs} jobs in the DAG) | {w_noop:.1f} | {cpu_noop:.1f} |",
        f"| adding one ε (8), default chunking: the rerun ({jobs_text(rerun)}) | {add_wall:.1f} | {add_cpu:.1f} |",
        f"| adding one ε (8), one chunk per ε: the rerun ({jobs_text(rerun1)}) | {add_wall1:.1f} | {add_cpu1:.1f} |",
        f"| that ε's {eps8_rows} rows in one process | — | {eps8_cpu:.2f} |",
        "",
        f"**Snakemake CPU / in-process CPU = {cpu / lib_cpu:.2f}** at the default chunking, {cpu1 / lib_cpu:.2f} "
        "with one chunk per ε (target ≤ 2; one job per grid point was 50×: 528.5 s vs 10.5 s). Per-job "
        f"overhead: {(cpu - lib_cpu) / n_jobs:.2f} s CPU ((CPU of the run − CPU of the library) / {n_jobs} jobs), "
        f"of which Snakemake's own start and DAG (the dry-run's CPU) is {cpu_noop:.1f} s per run.",
        f"**Adding one ε**: {add_cpu:.1f} s CPU (default chunking: each dataset's ε block reruns) or "
        f"{add_cpu1:.1f} s CPU (one chunk per ε: only the new ε's chunks) for the rerun, against "
        f"{eps8_cpu:.2f} s in process; without Snakemake's own start and DAG (the dry-run's CPU), "
        f"{max(add_cpu1 - cpu_noop, 0):.1f} s = {max(add_cpu1 - cpu_noop, 0) / max(eps8_cpu, 1e-9):.1f}× (target ≤ 2).",
        "",
        "## Where the default run's CPU goes (each job's log: CPU before its body and in it)",
        "",
        "| rule | job | before the body (s) | body (s) |",
        "|---|---|---|---|",
        *[f"| {r} | {j} | {a:.2f} | {b:.2f} |" for r, j, a, b in per_job],
        f"| all {len(per_job)} jobs | | {sum(a for *_, a, _ in per_job):.2f} | {sum(b for *_, b in per_job):.2f} |",
        "",
        f"The run's {cpu:.1f} s CPU = the jobs' {sum(a + b for *_, a, b in per_job):.1f} s + "
        f"{cpu - sum(a + b for *_, a, b in per_job):.1f} s of Snakemake's own process (its start and DAG: the "
        f"dry-run's {cpu_noop:.1f} s) and the jobs' exits. Before a body: the interpreter, Snakemake's script "
        "preamble and pandas. The bodies exceed the in-process CPU by what every process pays once: a "
        "`sweep_counts` body includes numba's first dispatch (loading its typing registries and scipy.linalg for "
        "BLAS, ~0.35 s), which the one process pays once for all three datasets, and each job reads and writes "
        "its Parquet files.",
        "",
    ]
    (ROOT / "benchmarks" / "bench_sweeps.md").write_text("\n".join(lines), encoding="utf-8")
    runrecord.write(ROOT / "benchmarks" / "bench_sweeps.json", "bench_sweeps", [
        runrecord.row("the 1,008-row paper-A sweep (default chunking)", n_jobs, wall, cpu, lib_cpu),
        runrecord.row("the same sweep, one chunk per ε", n_jobs1, wall1, cpu1, lib_cpu),
        runrecord.row("adding one ε to the sweep (default chunking): the rerun", sum(rerun.values()), add_wall,
                      add_cpu, eps8_cpu),
        runrecord.row("adding one ε to the sweep (one chunk per ε): the rerun", sum(rerun1.values()), add_wall1,
                      add_cpu1, eps8_cpu),
    ], runrecord.machine(load_start, args.note, ROOT))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
