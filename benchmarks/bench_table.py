"""One table of the project's run records: jobs, CPU, wall, the machine's load, overhead share.

Reads the records the other benchmarks and runs leave (it runs nothing itself):

* the default run: ``benchmarks/bench_runs.md`` (``bench_runs.py``), its "default run (all jobs)" row;
* the 1,008-row sweep: ``benchmarks/bench_sweeps.md`` (``bench_sweeps.py``): the Snakemake run against the same
  computation in one process;
* ``make scale``: ``.scale/results/run_time.md`` when a scale run left one, else ``benchmarks/scale.md``
  (``scale_report.py``'s summary lines);
* ``make test-cluster``: ``benchmarks/cluster.md`` (``tools/cluster_check.py``): the local and the SLURM run.

Overhead share = (CPU - in-process CPU) / CPU, where the record has both. A record's machine is "idle" only
when the record says so; otherwise the load average it gives is shown. Writes ``benchmarks/bench_table.md``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
NUM = r"([0-9][0-9,]*(?:\.[0-9]+)?)"


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _find(pattern: str, text: str, source: Path) -> re.Match:
    m = re.search(pattern, text)
    if m is None:
        raise ValueError(f"{source}: no line matching {pattern!r} (was the record's format changed?)")
    return m


def machine(text: str, load_line: str | None = None) -> str:
    """'idle' when the record says its machine was otherwise idle, 'shared' when it says shared; with the load
    average it gives (``load_line``'s when given). Only the text before a comparison with earlier runs counts."""
    text = re.split(r"For comparison|The previous record", text)[0]
    load = re.search(r"(?i:load)(?: average)?(?: at the end| during the run)?:? ([0-9.]+(?:\s*(?:/|-|–)\s*[0-9.]+)*)",
                     load_line or text)
    if re.search(r"otherwise idle|idle machine|machine idle", text):
        what = "idle"
    elif re.search(r"shared|SHARED", text):
        what = "shared"
    else:
        what = "not stated"
    return f"{what}, load {load.group(1).rstrip('.')}" if load else what


def default_run(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    m = _find(r"\| default run \(all jobs\) \| (\d+) \| " + NUM + r" \| " + NUM + r" \| " + NUM + r" \| (\d+) %", text,
              path)
    return {"run": "default run (`make reproduce`'s DAG)", "jobs": int(m.group(1)), "cpu": _num(m.group(3)),
            "wall": _num(m.group(2)), "share": int(m.group(5)) / 100, "machine": machine(text.split("|")[0]),
            "source": path}


def sweep(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    jobs = _find(r"Default chunking[^=]*= (\d+) jobs", text, path)
    run = _find(r"\| Snakemake run of the sweep[^|]*\| " + NUM + r" \| " + NUM + r" \|", text, path)
    inproc = _find(r"\| the same computation in one Python process[^|]*\| " + NUM + r" \| " + NUM + r" \|", text, path)
    cpu = _num(run.group(2))
    return {"run": "the 1,008-row paper-A sweep", "jobs": int(jobs.group(1)), "cpu": cpu, "wall": _num(run.group(1)),
            "share": (cpu - _num(inproc.group(2))) / cpu, "machine": machine(text.split("|")[0]), "source": path}


def scale(path: Path) -> dict:
    """The run a scale record leads with: only the text before its first ``## `` section counts (the sections
    below keep earlier runs, e.g. on a shared machine, whose summary lines must not stand in for it)."""
    text = path.read_text(encoding="utf-8").split("\n## ")[0]
    jobs = _find(r"- Jobs: (\d+); summed job wall time " + NUM + r" s; summed job CPU time " + NUM
                 + r" s; whole run " + NUM + r" s wall", text, path)
    work = _find(r"Work in the jobs' bodies: " + NUM + r" s CPU", text, path)
    cpu = _num(jobs.group(3))
    return {"run": "`make scale` (stand-ins at real size, jobs' CPU)", "jobs": int(jobs.group(1)), "cpu": cpu,
            "wall": _num(jobs.group(4)), "share": (cpu - _num(work.group(1))) / cpu,
            "machine": machine(text.split("\n|")[0], _find(r"Load average at the end: [^\n]*", text, path).group(0)),
            "source": path}


def cluster(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    m = _find(r"Wall time: local run " + NUM + r" s[^,]*, SLURM run " + NUM + r" s", text, path)
    sub = _find(r"(\d+) SLURM submissions[^\n]*? for (\d+) jobs", text, path)
    head = text.split("\n## ")[0]
    base = {"jobs": int(sub.group(2)), "cpu": None, "share": None, "machine": machine(head), "source": path}
    return [{**base, "run": "`make test-cluster`: the `.test` DAG, local", "wall": _num(m.group(1))},
            {**base, "run": f"`make test-cluster`: the same on SLURM ({sub.group(1)} submissions)",
             "wall": _num(m.group(2))}]


def collect(root: Path = ROOT) -> list[dict]:
    bench = root / "benchmarks"
    scale_run = root / ".scale" / "results" / "run_time.md"
    rows = [default_run(bench / "bench_runs.md"), sweep(bench / "bench_sweeps.md"),
            scale(scale_run if scale_run.is_file() else bench / "scale.md")]
    return rows + cluster(bench / "cluster.md")


def render(rows: list[dict], root: Path = ROOT) -> str:
    def fmt(v, spec):
        return "—" if v is None else format(v, spec)

    lines = ["# Run records in one table (`make bench`: benchmarks/bench_table.py)", "",
             "Read from each run's own record (source column); every wall time is that record's, on the machine "
             "as it was then (idle only where the record says so). Overhead share = (CPU − in-process CPU) / CPU.",
             "", "| run | jobs | CPU (s) | wall (s) | machine | overhead share | source |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        share = "—" if r["share"] is None else f"{100 * r['share']:.0f} %"
        lines.append(f"| {r['run']} | {r['jobs']} | {fmt(r['cpu'], '.0f')} | {fmt(r['wall'], '.0f')} | "
                     f"{r['machine']} | {share} | {Path(r['source']).relative_to(root)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    text = render(collect())
    (BENCH / "bench_table.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
