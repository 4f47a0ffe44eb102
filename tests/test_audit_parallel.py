"""The audit's rows side by side (privanomaly.audit.parallel): same rows, same order, whatever the workers.

The pool forks only from a process whose numba threading layer has not started; this test session's process
may have started it (ball counts in earlier tests), so every check of the forked path runs in a fresh process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from privanomaly.audit import parallel
from privanomaly.audit.__main__ import main as audit_main


def _fresh(code: str) -> dict:
    """Run ``code`` in a new interpreter (no numba threads started); it prints one JSON object."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.subprocess
def test_results_and_log_in_task_order_whatever_finishes_first():
    # the first task is the slowest: a pool that returned rows as they finish would put it last
    out = _fresh("""
        import json, os, time
        from privanomaly.audit import parallel
        def slow(i, s):
            time.sleep(s)
            return i * i, os.getpid()
        tasks = [(f"t{i}", lambda i=i: slow(i, 0.3 if i == 0 else 0.01)) for i in range(5)]  # closures
        lines = []
        res = parallel.run_tasks(tasks, workers=2, log=lines.append)
        print(json.dumps({"values": [v for v, _ in res], "pids": [p for _, p in res], "me": os.getpid(),
                          "labels": [ln.split(" in ")[0] for ln in lines]}))
    """)
    assert out["values"] == [0, 1, 4, 9, 16]
    assert out["labels"] == ["t0", "t1", "t2", "t3", "t4"]
    assert out["me"] not in out["pids"] and len(set(out["pids"])) == 2  # the rows ran in two forked workers
    assert parallel.run_tasks([(f"t{i}", lambda i=i: i * i) for i in range(5)], workers=1) == [0, 1, 4, 9, 16]


@pytest.mark.subprocess
def test_a_failing_task_fails_the_run_and_drops_the_rows_not_started(tmp_path):
    out = _fresh(f"""
        import json, pathlib, time
        from privanomaly.audit import parallel
        d = pathlib.Path({str(tmp_path)!r})
        def slow(i):
            time.sleep(0.2)
            (d / f"ran{{i}}").touch()
            return i
        def broken():
            raise RuntimeError("sampler never accepted")
        try:
            parallel.run_tasks([("broken", broken)] + [(f"s{{i}}", lambda i=i: slow(i)) for i in range(12)], workers=2)
            print(json.dumps({{"raised": None}}))
        except RuntimeError as e:
            print(json.dumps({{"raised": str(e), "ran": len(list(d.glob("ran*")))}}))
    """)
    assert out["raised"] == "sampler never accepted"
    assert out["ran"] < 12


@pytest.mark.subprocess
def test_the_table_is_the_same_row_for_row_with_two_workers():
    # a paper-A family (exact edges + sampled audit), a paper-B Gaussian and the exponential mechanism
    out = _fresh("""
        import json
        from privanomaly import audit
        names = ["laplace_count", "gaussian_gs_upper", "exp_select_r"]
        lines = []
        one = audit.run("fast", names=names, controls=False, workers=1)
        two = audit.run("fast", names=names, controls=False, workers=2, log=lines.append)
        print(json.dumps({"same": one.equals(two), "names": list(one["mechanism"]), "ok": bool(one["ok"].all()),
                          "forked": not any("one after another" in ln for ln in lines)}))
    """)
    assert out == {"same": True, "names": ["laplace_count", "gaussian_gs_upper", "exp_select_r"], "ok": True,
                   "forked": True}


@pytest.mark.subprocess
def test_a_process_running_numba_threads_audits_in_itself_instead_of_forking():
    # GNU OpenMP aborts a forked child that uses it ("fork() called from a process already using GNU OpenMP"):
    # once a parallel kernel ran here, the rows run in this process
    out = _fresh("""
        import json
        import numpy as np
        from privanomaly.audit import parallel
        from privanomaly.sp._fastballs import capped_counts
        X = np.random.default_rng(0).random((2000, 2))
        w = np.ones(len(X), dtype=np.int64)
        count = lambda: int(capped_counts(X, X, w, 0.1, "euclidean", 20, workers=2).sum())
        first = count()
        lines = []
        res = parallel.run_tasks([("a", count), ("b", count)], workers=2, log=lines.append)
        print(json.dumps({"same": res == [first, first], "first_line": lines[0]}))
    """)
    assert out == {"same": True,
                   "first_line": "rows one after another: numba's threading layer already runs in this process (no fork)"}


def test_default_workers_are_the_cpus_here_at_most_eight():
    assert parallel.available_cpus() == max(1, min(len(os.sched_getaffinity(0)), 8))
    assert parallel.available_cpus(at_most=1) == 1


def test_workers_must_be_positive():
    with pytest.raises(ValueError, match="workers: expected a positive number"):
        parallel.run_tasks([("a", lambda: 1)], workers=0)
    with pytest.raises(SystemExit):
        audit_main(["--level", "fast", "--workers", "0", "--only", "laplace_count"])
