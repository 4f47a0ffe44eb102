"""Where a run's CPU goes: the default run (``make reproduce``'s job) as Snakemake jobs, its work and its overhead.

Every job logs the CPU its process spent before its body (``job start:``, interpreter start, Snakemake's script
preamble, imports) and at its end (``job usage:``; :mod:`privanomaly.run.log`). For a finished run:

* jobs, wall-clock, CPU of Snakemake and all its jobs (``getrusage(RUSAGE_CHILDREN)`` around the run);
* work = the sum over jobs of (end CPU - start CPU): the computation itself, as it would cost in one process;
* overhead share = (CPU - work) / CPU: job starts, imports and Snakemake's own bookkeeping;
* per-job overhead: each job's start CPU plus an equal share of Snakemake's own CPU (CPU - all jobs' CPU);
  the median over jobs is the figure to compare with the target (<= 0.5 s).

Rows for the whole run and for its sweep jobs (rules ``sweep_*``). Run: ``python benchmarks/bench_runs.py``
(runs the default config in a temporary copy with the mirrored data, ``--cores 2``; minutes) or
``python benchmarks/bench_runs.py --results DIR --cpu S --wall S`` for a run made by hand; ``--note`` states what
no program measures (e.g. "machine otherwise idle"). Writes benchmarks/bench_runs.md and its record
benchmarks/bench_runs.json (:mod:`privanomaly.run.record`, read by bench_table.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from privanomaly.run import record as runrecord  # noqa: E402
from privanomaly.run.log import read_job_cpu  # noqa: E402

RUN_NAMES = {"default run (all jobs)": "default run (`make reproduce`'s DAG)",
             "its sweeps (rules sweep_*)": "default run: its sweep jobs (rules sweep_*)"}


def job_cpu(results: Path) -> dict[str, tuple[float, float]]:
    """{log path: (start CPU, end CPU)} of every job log of a run that has both lines (the last of each)."""
    out = {}
    for log in sorted((results / "logs").rglob("*.log")):
        job = read_job_cpu(log.read_text(encoding="utf-8", errors="replace"))
        if job is not None and job.start_cpu_s is not None:
            out[str(log.relative_to(results / "logs"))] = (job.start_cpu_s, job.cpu_s)
    return out


def rows(results: Path, cpu: float, wall: float, jobs: int) -> list[dict]:
    per = job_cpu(results)
    if not per:
        raise SystemExit(f"{results}/logs: no job logs with 'job start:' and 'job usage:' lines")
    snakemake_own = max(cpu - sum(e for _, e in per.values()), 0.0) / max(jobs, 1)
    out = []
    for name, pick in (("default run (all jobs)", lambda k: True), ("its sweeps (rules sweep_*)", lambda k: k.startswith("sweep_"))):
        sel = {k: v for k, v in per.items() if pick(k)}
        total = sum(e for _, e in sel.values()) + snakemake_own * len(sel)
        work = sum(e - s for s, e in sel.values())
        over = [s + snakemake_own for s, _ in sel.values()]
        whole = name.startswith("default")
        out.append({"what": name, "jobs": len(sel), "cpu": cpu if whole else total, "wall": wall if whole else None,
                    "work": work,
                    "median_overhead": statistics.median(over) if over else float("nan")})
    for r in out:
        r["share"] = (r["cpu"] - r["work"]) / r["cpu"] if r["cpu"] else float("nan")
    return out


def per_rule(results: Path) -> list[tuple[str, int, float, float]]:
    """(rule, jobs, CPU before the bodies, CPU in all) per rule of a finished run, largest CPU first."""
    agg: dict[str, list] = {}
    for name, (start, end) in job_cpu(results).items():
        a = agg.setdefault(name.split("/")[0], [0, 0.0, 0.0])
        a[0], a[1], a[2] = a[0] + 1, a[1] + start, a[2] + end
    return sorted(((r, n, s, e) for r, (n, s, e) in agg.items()), key=lambda x: -x[3])


def render_rules(per: list[tuple[str, int, float, float]], top: int = 15) -> list[str]:
    lines = ["", "## Per rule (CPU of the jobs' processes, from their logs)", "",
             "| rule | jobs | CPU (s) | before the body (s) | body (s) |", "|---|---|---|---|---|"]
    for rule, n, s, e in per[:top]:
        lines.append(f"| {rule} | {n} | {e:.1f} | {s:.1f} | {e - s:.1f} |")
    rest = per[top:]
    if rest:
        n, s, e = sum(x[1] for x in rest), sum(x[2] for x in rest), sum(x[3] for x in rest)
        lines.append(f"| {len(rest)} other rules | {n} | {e:.1f} | {s:.1f} | {e - s:.1f} |")
    return lines + [""]


def render(rs: list[dict], note: str) -> str:
    lines = ["# Where a run's CPU goes (`make bench`: benchmarks/bench_runs.py)", "", note, "",
             "| run | jobs | wall (s) | CPU (s) | work in the jobs' bodies (s) | overhead share | median per-job overhead (s CPU) |",
             "|---|---|---|---|---|---|---|"]
    for r in rs:
        wall = f"{r['wall']:.0f}" if r["wall"] else "—"
        lines.append(f"| {r['what']} | {r['jobs']} | {wall} | {r['cpu']:.0f} | {r['work']:.0f} | {100 * r['share']:.0f} % | "
                     f"{r['median_overhead']:.2f} |")
    lines += ["", "Overhead share = (CPU − work) / CPU; per-job overhead = the job's CPU before its body + its share of "
              "Snakemake's own CPU. The sweep row counts only its jobs (Snakemake's share spread per job).", ""]
    return "\n".join(lines)


def run_default() -> tuple[Path, float, float, int]:
    from workflow_copy import MIRROR, SNAKEMAKE, copy_workflow, env_for, timed_run

    copy = copy_workflow(Path(tempfile.mkdtemp(prefix="bench-runs-")) / "wf")
    wall, cpu, proc = timed_run([SNAKEMAKE, "--cores", "2", "--config", f"data_mirror={MIRROR}"], copy, env_for(copy))
    if proc.returncode != 0:
        raise SystemExit(proc.stdout[-3000:] + proc.stderr[-3000:])
    m = re.findall(r"(\d+) of (\d+) steps \(100%\) done", proc.stdout + proc.stderr)
    jobs = int(m[-1][1]) if m else 0
    return copy / "results", cpu, wall, jobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, help="results_dir of a finished run (default: run one)")
    ap.add_argument("--cpu", type=float, help="CPU seconds of that run (Snakemake and its jobs)")
    ap.add_argument("--wall", type=float, help="wall-clock seconds of that run")
    ap.add_argument("--jobs", type=int, help="jobs of that run")
    ap.add_argument("--note", default="", help='what the record states about the machine, e.g. "machine otherwise idle"')
    args = ap.parse_args(argv)
    load_start = None if args.results else runrecord.load_average()
    if args.results:
        results, cpu, wall, jobs = args.results, args.cpu, args.wall, args.jobs or len(job_cpu(args.results))
    else:
        results, cpu, wall, jobs = run_default()
    load = os.getloadavg()
    at_start = "" if load_start is None else f"at the start {' / '.join(f'{x:.1f}' for x in load_start)}, "
    note = (f"Machine: {platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, `--cores 2`; "
            f"load average {at_start}at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.")
    if args.note:
        note += f" {args.note}."
    rs = rows(results, cpu, wall, jobs)
    text = render(rs, note) + "\n".join(render_rules(per_rule(results)))
    (ROOT / "benchmarks" / "bench_runs.md").write_text(text, encoding="utf-8")
    runrecord.write(ROOT / "benchmarks" / "bench_runs.json", "bench_runs",
                    [runrecord.row(RUN_NAMES[r["what"]], r["jobs"], r["wall"], r["cpu"], r["work"]) for r in rs],
                    runrecord.machine(load_start, args.note, ROOT))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
