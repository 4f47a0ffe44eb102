"""Per-rule run time and memory of a finished Snakemake run: `make scale` writes benchmarks/scale.md.

Sources, per job:
* ``<results>/benchmarks/<rule>/….tsv`` (Snakemake ``benchmark:``): wall time ``s``; its ``max_rss`` and
  ``cpu_time`` are *sampled* (every 0.5 s for 30 s, then every 30 s), so they can miss peaks and tails;
* ``<results>/logs/<rule>/….log``, last ``job usage:`` line (``privanomaly.run.log``): exact CPU time and peak
  RSS of the job's Python process from ``getrusage`` (absent for shell rules); last ``job start:`` line: the CPU
  spent before the job's body (interpreter, imports, Snakemake's script preamble), so work = CPU - start CPU.

The summary (jobs, the jobs' CPU, work in their bodies, wall, load averages) also goes to ``--json``, the run's
record (:mod:`privanomaly.run.record`) that ``benchmarks/bench_table.py`` reads.

Usage: ``python benchmarks/scale_report.py <results_dir> [--out benchmarks/scale.md] [--json FILE] [--title …]
[--wall-seconds N] [--load-start L1 L5 L15] [--note …]``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pandas as pd

from privanomaly.run import record as runrecord
from privanomaly.run.log import read_job_cpu


def job_table(results: Path) -> pd.DataFrame:
    """One row per job: rule, job (path under the rule), wall_s, cpu_s, peak_rss_mb (exact where logged)."""
    rows = []
    bench_root = results / "benchmarks"
    for tsv in sorted(bench_root.rglob("*.tsv")):
        rel = tsv.relative_to(bench_root)
        rule, job = rel.parts[0], rel.with_suffix("").as_posix().split("/", 1)[-1]
        b = pd.read_csv(tsv, sep="\t").iloc[-1]
        row = dict(rule=rule, job=job, wall_s=float(b["s"]),
                   cpu_s=pd.to_numeric(b.get("cpu_time"), errors="coerce"),
                   peak_rss_mb=pd.to_numeric(b.get("max_rss"), errors="coerce"), exact=False)
        log = results / "logs" / rel.with_suffix(".log")
        job = read_job_cpu(log.read_text(encoding="utf-8", errors="replace")) if log.is_file() else None
        row["start_cpu_s"] = float("nan") if job is None or job.start_cpu_s is None else job.start_cpu_s
        if job is not None:
            row.update(cpu_s=job.cpu_s, peak_rss_mb=job.peak_rss_mb, exact=True)
        rows.append(row)
    return pd.DataFrame(rows)


def rule_table(jobs: pd.DataFrame) -> pd.DataFrame:
    """Per rule: #jobs, summed and largest wall time, summed CPU time, largest peak RSS."""
    g = jobs.groupby("rule")
    out = pd.DataFrame({
        "jobs": g.size(),
        "wall_s_sum": g["wall_s"].sum(),
        "wall_s_max": g["wall_s"].max(),
        "cpu_s_sum": g["cpu_s"].sum(min_count=1),
        "peak_rss_mb_max": g["peak_rss_mb"].max(),
        "exact": g["exact"].all(),
    }).reset_index()
    slowest = jobs.loc[jobs.groupby("rule")["wall_s"].idxmax(), ["rule", "job"]].set_index("rule")["job"]
    out["slowest_job"] = out["rule"].map(slowest)
    return out.sort_values("wall_s_sum", ascending=False).reset_index(drop=True)


def work_cpu(jobs: pd.DataFrame) -> float:
    """CPU in the jobs' bodies: each logged job's CPU less what it spent before its body."""
    timed = jobs[jobs["start_cpu_s"].notna()] if "start_cpu_s" in jobs else jobs.iloc[:0]
    return float((timed["cpu_s"] - timed["start_cpu_s"]).sum())


def to_markdown(rules: pd.DataFrame, jobs: pd.DataFrame, title: str, note: str, wall: float | None,
                load: tuple[float, float, float] | None = None) -> str:
    lines = [f"# {title}", "", note, ""] if note else [f"# {title}", ""]
    total_cpu = jobs["cpu_s"].sum()
    work = work_cpu(jobs)
    share = (total_cpu - work) / total_cpu if total_cpu > 0 else float("nan")
    peak = jobs.loc[jobs["peak_rss_mb"].idxmax()]
    lines += [
        f"- Jobs: {len(jobs)}; summed job wall time {jobs['wall_s'].sum():.0f} s; summed job CPU time "
        f"{total_cpu:.0f} s" + (f"; whole run {wall:.0f} s wall" if wall else "") + ".",
        f"- Work in the jobs' bodies: {work:.0f} s CPU; overhead share of the jobs' CPU: {100 * share:.0f} % "
        "(job starts: interpreter, imports, Snakemake's script preamble; Snakemake's own CPU is not in it).",
        *([f"- Load average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}."] if load else []),
        f"- Largest peak RSS: {peak['peak_rss_mb']:.0f} MB ({peak['rule']}/{peak['job']}).",
        "- `exact` = CPU time and peak RSS from getrusage (the job's `job usage:` log line); otherwise "
        "Snakemake's sampled benchmark values.",
        "",
        "| rule | jobs | wall s (sum) | wall s (max) | CPU s (sum) | peak RSS MB (max) | exact | slowest job |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in rules.itertuples():
        lines.append(f"| {r.rule} | {r.jobs} | {r.wall_s_sum:.1f} | {r.wall_s_max:.1f} | {r.cpu_s_sum:.1f} | "
                     f"{r.peak_rss_mb_max:.0f} | {'yes' if r.exact else 'no'} | {r.slowest_job} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--csv", type=Path, default=None, help="per-job table as CSV")
    ap.add_argument("--title", default="Run time and memory per rule")
    ap.add_argument("--note", default="")
    ap.add_argument("--wall-seconds", type=float, default=None)
    ap.add_argument("--json", type=Path, default=None, help="the run's record (privanomaly.run.record)")
    ap.add_argument("--load-start", type=float, nargs=3, default=None, help="load averages when the run started")
    a = ap.parse_args()
    jobs = job_table(a.results)
    if jobs.empty:
        raise SystemExit(f"{a.results}/benchmarks: no benchmark files (is this a finished run's results_dir?)")
    text = to_markdown(rule_table(jobs), jobs, a.title, a.note, a.wall_seconds, os.getloadavg())
    if a.csv:
        jobs.to_csv(a.csv, index=False)
    if a.out:
        a.out.write_text(text, encoding="utf-8")
    if a.json:
        runrecord.write(a.json, "scale", [runrecord.row(
            "`make scale` (stand-ins at real size; the jobs' CPU)", len(jobs), a.wall_seconds,
            float(jobs["cpu_s"].sum()), work_cpu(jobs))], runrecord.machine(a.load_start, a.note, Path(__file__).parents[1]))
    print(text)


if __name__ == "__main__":
    main()
