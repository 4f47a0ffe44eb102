"""The audit's rows side by side (privanomaly.audit.parallel): same rows, same order, whatever the workers."""

from __future__ import annotations

import subprocess
import sys
import time

import pandas as pd
import pytest

from privanomaly import audit
from privanomaly.audit import parallel
from privanomaly.audit.__main__ import main as audit_main


def _slow(value: int, seconds: float) -> int:
    time.sleep(seconds)
    return value


def test_results_and_log_in_task_order_whatever_finishes_first():
    # the first task is the slowest: a pool that returned rows as they finish would put it last
    tasks = [(f"t{i}", lambda i=i: _slow(i * i, 0.3 if i == 0 else 0.01)) for i in range(5)]  # closures: never pickled
    lines: list[str] = []
    assert parallel.run_tasks(tasks, workers=2, log=lines.append) == [0, 1, 4, 9, 16]
    assert [ln.split(" in ")[0] for ln in lines] == ["t0", "t1", "t2", "t3", "t4"]
    assert parallel.run_tasks(tasks, workers=1) == [0, 1, 4, 9, 16]


def test_a_failing_task_fails_the_run_with_its_own_error():
    def broken() -> int:
        raise RuntimeError("sampler never accepted")

    with pytest.raises(RuntimeError, match="sampler never accepted"):
        parallel.run_tasks([("ok", lambda: 1), ("broken", broken)], workers=2)


def test_a_failing_task_drops_the_rows_not_started(tmp_path):
    # the rows after a failure are not all audited before the error is raised (the serial run stops at once too)
    def slow(i: int) -> int:
        time.sleep(0.2)
        (tmp_path / f"ran{i}").touch()
        return i

    def broken() -> int:
        raise RuntimeError("broken")

    tasks = [("broken", broken)] + [(f"slow{i}", lambda i=i: slow(i)) for i in range(12)]
    with pytest.raises(RuntimeError, match="broken"):
        parallel.run_tasks(tasks, workers=2)
    assert len(list(tmp_path.glob("ran*"))) < 12


def test_default_workers_are_the_cpus_here_at_most_eight():
    import os

    assert parallel.available_cpus() == max(1, min(len(os.sched_getaffinity(0)), 8))
    assert parallel.available_cpus(at_most=1) == 1


def test_workers_must_be_positive():
    with pytest.raises(ValueError, match="workers: expected a positive number"):
        parallel.run_tasks([("a", lambda: 1)], workers=0)
    with pytest.raises(SystemExit):
        audit_main(["--level", "fast", "--workers", "0", "--only", "laplace_count"])


def test_the_table_is_the_same_row_for_row_with_two_workers():
    # a paper-A family (exact edges + sampled audit), a paper-B Gaussian and the exponential mechanism
    names = ["laplace_count", "gaussian_gs_upper", "exp_select_r"]
    one = audit.run("fast", names=names, controls=False, workers=1)
    two = audit.run("fast", names=names, controls=False, workers=2)
    assert list(one["mechanism"]) == names
    pd.testing.assert_frame_equal(one, two)
    assert one["ok"].all()


def test_a_process_running_numba_threads_audits_in_itself_instead_of_forking():
    # GNU OpenMP aborts a forked child that uses it ("fork() called from a process already using GNU OpenMP"):
    # once a parallel kernel ran here, the rows run in this process. In a subprocess: the layer stays started.
    code = """
import numpy as np
from privanomaly.audit import parallel
from privanomaly.sp._fastballs import capped_counts
X = np.random.default_rng(0).random((2000, 2))
w = np.ones(len(X), dtype=np.int64)
count = lambda: int(capped_counts(X, X, w, 0.1, "euclidean", 20, workers=2).sum())
count()
lines = []
print(parallel.run_tasks([("a", count), ("b", count)], workers=2, log=lines.append) == [count(), count()])
print(lines[0])
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == [
        "True", "rows one after another: numba's threading layer already runs in this process (no fork)"]
