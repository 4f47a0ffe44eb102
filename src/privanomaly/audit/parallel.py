"""Run the audit's rows side by side: each row's call in one of ``workers`` forked processes.

A row is a pure function of its mechanism, level and seed, so the rows come back in the order of the tasks
whatever the number of workers and whichever process ran them. The processes are forked (not spawned): they
inherit the registry with every mechanism a config registered, the negative controls and the memo caches
the harness opened, and the calls themselves (closures) are never pickled - only their index and the rows.
A process whose numba threading layer already runs (a parallel kernel was called, e.g. ball counts in the same
test session) is not forked - GNU OpenMP aborts a forked child that uses it - and runs the rows itself.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")

_TASKS: list[Callable[[], object]] = []  # set by run_tasks before the pool forks; read by _call in the workers


def _timed(call: Callable[[], T]) -> tuple[T, float]:
    """``call()`` and its wall-clock seconds."""
    t0 = time.perf_counter()
    return call(), time.perf_counter() - t0


def _call(i: int) -> tuple[object, float]:
    return _timed(_TASKS[i])


def run_tasks(tasks: list[tuple[str, Callable[[], T]]], workers: int = 1,
              log: Callable[[str], None] | None = None) -> list[T]:
    """The results of ``tasks`` ((log label, call) pairs), in their order; ``log`` gets "<label> in <s> s" for
    each, in that order too. ``workers`` <= 1, one task, or a platform without fork: one after another here."""
    if workers < 1:
        raise ValueError(f"workers: expected a positive number of processes, got {workers}")
    n = min(workers, len(tasks))
    if n > 1 and _threads_started():
        n = 1
        if log:
            log("rows one after another: numba's threading layer already runs in this process (no fork)")
    if n <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _collect(tasks, (_timed(call) for _, call in tasks), log)
    global _TASKS
    _TASKS = [call for _, call in tasks]
    pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork"))
    try:
        return _collect(tasks, pool.map(_call, range(len(tasks)), chunksize=1), log)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a task that raised: the rows not started are dropped
        _TASKS = []


def _collect(tasks: list[tuple[str, Callable[[], T]]], timed: Iterable[tuple[T, float]],
             log: Callable[[str], None] | None) -> list[T]:
    """The results of ``timed`` (result, seconds) in the order of ``tasks``, logging "<label> in <s> s" each."""
    results = []
    for (label, _), (result, seconds) in zip(tasks, timed):
        results.append(result)
        if log:
            log(f"{label} in {seconds:.1f} s")
    return results


def _threads_started() -> bool:
    """Whether numba's threading layer has been started in this process (numba not imported: no)."""
    numba = sys.modules.get("numba")
    if numba is None:
        return False
    try:
        numba.threading_layer()
    except ValueError:  # "Threading layer is not initialized."
        return False
    return True


def available_cpus(at_most: int = 8) -> int:
    """CPUs this process may run on (its affinity; a SLURM allocation's, inside one), at most ``at_most``: each
    worker holds its own copy of the worlds and caches (~200 MB)."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(n, at_most))
