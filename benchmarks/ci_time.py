"""Where `make test`'s CPU goes: CPU seconds per pytest file and per rule of the `.test` DAG.

The machine this project is developed on is shared (several agents on 2 cores), so wall-clock times say more
about the neighbours than about the suite; CPU seconds (user + system, the process and every child it waited
for) are the figure to compare. Two measurements, each in one run:

1. ``pytest`` with a plugin (this file, ``-p ci_time``) that records, around every test, the CPU of the pytest
   process and of its waited-for children (``os.times()``: Snakemake runs and their jobs included); a
   session-scoped fixture's run is charged to the first test that uses it. Written per file to
   ``<out>/pytest_cpu.csv``.
2. the ``.test`` DAG (``snakemake --cores 2 --configfile .test/config.yaml``) in a temporary copy of the
   checkout, every Python process of it (Snakemake and each job's script) logging its own CPU at exit through
   a ``sitecustomize`` module put first on ``PYTHONPATH``; summed per rule (the script's name) to
   ``<out>/dag_cpu.csv``, with the run's total from ``getrusage(RUSAGE_CHILDREN)``.

Run: ``python benchmarks/ci_time.py --out /tmp/ci_time`` (add ``--only pytest`` or ``--only dag``).
Results and the before/after of the test-suite speed-up: benchmarks/ci_time.md.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------- 1. the pytest plugin (``-p ci_time``)
_ROWS: list[tuple[str, float, float]] = []


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # noqa: ARG001 - pytest hook
    c0, w0 = _cpu(), time.monotonic()
    yield
    _ROWS.append((item.nodeid, _cpu() - c0, time.monotonic() - w0))


def pytest_sessionfinish(session):  # noqa: ARG001 - pytest hook
    out = os.environ.get("CI_TIME_OUT")
    if not out:
        return
    per_file: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for nodeid, cpu, wall in _ROWS:
        f = per_file[nodeid.split("::")[0]]
        f[0] += cpu
        f[1] += wall
        f[2] += 1
    Path(out).mkdir(parents=True, exist_ok=True)
    with open(Path(out) / "pytest_cpu.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["file", "tests", "cpu_s", "wall_s"])
        for name, (cpu, wall, n) in sorted(per_file.items(), key=lambda kv: -kv[1][0]):
            w.writerow([name, n, f"{cpu:.1f}", f"{wall:.1f}"])


# ---------------------------------------------------------------- 2. the .test DAG, CPU per rule
SITECUSTOMIZE = '''
import os
if os.environ.get("CI_TIME_CPULOG"):
    import atexit, json, sys
    def _ci_time_log():
        t = os.times()
        with open(os.environ["CI_TIME_CPULOG"], "a") as f:
            f.write(json.dumps({"argv": [os.path.basename(a) for a in sys.argv[:2]], "cpu": t.user + t.system}) + "\\n")
    atexit.register(_ci_time_log)
'''


def _rule_of(argv: list[str]) -> str:
    """A Snakemake job's script is copied to .snakemake/scripts/tmpXXXX.<script>.py; anything else by name."""
    name = argv[1] if argv and argv[0] in ("python", "python3") and len(argv) > 1 else (argv[0] if argv else "?")
    m = re.match(r"tmp[^.]*\.(.+)\.py$", name)
    return f"job: {m.group(1)}" if m else name


def measure_dag(out: Path, mirror: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    import workflow_copy as wf

    with tempfile.TemporaryDirectory(prefix="ci-time-dag-") as tmp:
        copy = wf.copy_workflow(Path(tmp) / "wf")
        (Path(tmp) / "site").mkdir()
        (Path(tmp) / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        log = Path(tmp) / "cpu.jsonl"
        env = wf.env_for(copy)
        env["PYTHONPATH"] = os.pathsep.join([str(Path(tmp) / "site"), env["PYTHONPATH"]])
        env["CI_TIME_CPULOG"] = str(log)
        wall, total, proc = wf.timed_run([wf.SNAKEMAKE, "--cores", "2", "--configfile", ".test/config.yaml",
                                          "--config", f"data_mirror={mirror}"], copy, env)
        if proc.returncode != 0:
            raise SystemExit(f"the .test DAG failed:\n{proc.stderr[-4000:]}")
        per_rule: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0])
        for line in log.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            r = per_rule[_rule_of(rec["argv"])]
            r[0] += rec["cpu"]
            r[1] += 1
    with open(out / "dag_cpu.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["process", "count", "cpu_s"])
        w.writerow(["TOTAL (getrusage of the run)", "", f"{total:.1f}"])
        w.writerow(["WALL (s)", "", f"{wall:.1f}"])
        for name, (cpu, n) in sorted(per_rule.items(), key=lambda kv: -kv[1][0]):
            w.writerow([name, n, f"{cpu:.1f}"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", choices=["pytest", "dag"])
    ap.add_argument("--mirror", type=Path, default=(ROOT.parent / "shared" / "datasets").resolve())
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "pytest"):
        env = dict(os.environ, CI_TIME_OUT=str(args.out.resolve()))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "benchmarks"), str(ROOT / "src"),
                                                          env.get("PYTHONPATH")]))
        subprocess.run([sys.executable, "-m", "pytest", "-p", "ci_time"], cwd=ROOT, env=env)
    if args.only in (None, "dag"):
        measure_dag(args.out, args.mirror)
    for name in ("pytest_cpu.csv", "dag_cpu.csv"):
        if (args.out / name).exists():
            print((args.out / name).read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
