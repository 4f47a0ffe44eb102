"""One table of the project's run records: jobs, CPU, wall, work, overhead share, the machine.

Reads the records (:mod:`privanomaly.run.record`, JSON) the other benchmarks and runs leave; it runs nothing:

* the default run: ``benchmarks/bench_runs.json`` (``bench_runs.py``);
* the 1,008-row sweep: ``benchmarks/bench_sweeps.json`` (``bench_sweeps.py``): the Snakemake run against the same
  computation in one process, and the rerun after adding an ε;
* ``make scale``: ``.scale/results/run_time.json`` when a scale run left one, else ``benchmarks/scale.json``
  (``scale_report.py``; copied from a measured run);
* adding an ε to a sweep at real size: ``benchmarks/scale_add_eps.json`` (``scale_add_eps.py``);
* ``make test-cluster``: ``benchmarks/cluster.json`` (``tools/cluster_check.py`` writes ``.cluster/report.json``;
  copied from a measured run): the local and the SLURM run.

Overhead share = (CPU - work) / CPU, where the record has both. The machine column is the record's: what the
person who ran it stated (e.g. "machine otherwise idle") and the 1-minute load at the start and the end.
Writes ``benchmarks/bench_table.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from privanomaly.run import record as runrecord  # noqa: E402


def sources(root: Path = ROOT) -> list[Path]:
    """The record files read, in table order."""
    bench = root / "benchmarks"
    scale_run = root / ".scale" / "results" / "run_time.json"
    return [bench / "bench_runs.json", bench / "bench_sweeps.json",
            scale_run if scale_run.is_file() else bench / "scale.json", bench / "scale_add_eps.json",
            bench / "cluster.json"]


def collect(root: Path = ROOT) -> list[dict]:
    """Every row of every record, with its machine, commit and source file."""
    rows = []
    for path in sources(root):
        rec = runrecord.read(path)
        m = rec["machine"]
        for r in rec["rows"]:
            cpu, work = r["cpu_s"], r["work_cpu_s"]
            rows.append({**r, "share": None if cpu is None or work is None or cpu <= 0 else (cpu - work) / cpu,
                         "machine": runrecord.machine_text(m), "commit": m.get("commit", "unknown"),
                         "when": m.get("utc", ""), "source": path})
    return rows


def render(rows: list[dict], root: Path = ROOT) -> str:
    def fmt(v):
        return "—" if v is None else format(v, ".2f" if v < 10 else ".1f")

    lines = ["# Run records in one table (`make bench`: benchmarks/bench_table.py)", "",
             "Read from each run's own record (source column); every time is that run's, on the machine as it was "
             "then. Work = the computation's own CPU (in one process, or in the jobs' bodies); overhead share = "
             "(CPU − work) / CPU.", "",
             "| run | jobs | CPU (s) | wall (s) | work (s) | CPU / work | overhead share | machine | commit, time | source |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        share = "—" if r["share"] is None else f"{100 * r['share']:.0f} %"
        ratio = "—" if r["share"] is None or not r["work_cpu_s"] else f"{r['cpu_s'] / r['work_cpu_s']:.2f}"
        lines.append(f"| {r['run']} | {r['jobs']} | {fmt(r['cpu_s'])} | {fmt(r['wall_s'])} | "
                     f"{fmt(r['work_cpu_s'])} | {ratio} | {share} | {r['machine']} | {r['commit']}, {r['when']} | "
                     f"{Path(r['source']).relative_to(root)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    text = render(collect())
    (ROOT / "benchmarks" / "bench_table.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
