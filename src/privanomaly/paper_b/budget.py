"""Run a possibly exponential computation (paper B's Algorithm 2 with Algorithm 1) under a wall-clock limit.

Algorithm 1 enumerates subsets (O(2^|P|) smallest-enclosing-ball calls), so on large data the paper's
method may not finish. :func:`run_with_budget` runs it in a forked child process and stops it when the
time is spent. Used only where time may decide: the timing benchmark (a machine-dependent table) and the
safety timeout of :func:`privanomaly.paper_b.smooth.smooth_bound`, which fails loudly. Which bound enters
the Scenario-1 tables is decided by the deterministic work budget of the library, never by this.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class BudgetResult:
    """``value`` is None when the budget ran out (``completed`` False) or the call failed (``error``)."""

    value: Any
    seconds: float
    completed: bool
    error: str | None = None


def _child(conn, fn, args, kwargs):  # pragma: no cover - runs in the child process
    try:
        conn.send(("ok", fn(*args, **kwargs)))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def run_with_budget(fn: Callable, *args, budget_seconds: float | None, **kwargs) -> BudgetResult:
    """Call ``fn(*args, **kwargs)``; with a budget, in a forked child that is terminated after it.

    ``budget_seconds=None`` runs in-process without a limit. The result must be picklable.
    """
    start = time.perf_counter()
    if budget_seconds is None:
        value = fn(*args, **kwargs)
        return BudgetResult(value, time.perf_counter() - start, True)
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs), daemon=True)
    proc.start()
    child.close()
    try:
        ready = parent.poll(budget_seconds)
        if not ready:
            return BudgetResult(None, time.perf_counter() - start, False)
        try:
            status, payload = parent.recv()
        except EOFError:
            status, payload = "error", f"child exited with code {proc.exitcode} without a result"
        seconds = time.perf_counter() - start
        if status == "error":
            return BudgetResult(None, seconds, False, payload)
        return BudgetResult(payload, seconds, True)
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(5)
        parent.close()
