"""Wall-clock time (machine-dependent by nature): the timing benchmark of Algorithm 2 vs the fast bound
(``paper_b/tables/smooth_timing``) and the safety timeout of
:func:`privanomaly.paper_b.released_bound.smooth_bound`, which fails loudly.

Algorithm 1 enumerates subsets (O(2^|P|) smallest-enclosing-ball calls), so on large data the paper's
method may not finish. The timing benchmark cuts it by the library's one budget, the deterministic work
budget of Algorithm 1 (:class:`privanomaly.outliers.WorkBudgetExceeded`): which datasets finish is the same on
every machine, only the seconds are measured. :func:`run_with_time_limit` runs a call in a forked child and
stops it when the time is spent - a safety limit, never a budget.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from privanomaly import outliers as ol


@dataclass(frozen=True)
class TimedRun:
    """``value`` is None when the time limit ran out (``completed`` False) or the call failed (``error``)."""

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


def run_with_time_limit(fn: Callable, *args, seconds: float | None, **kwargs) -> TimedRun:
    """Call ``fn(*args, **kwargs)`` and time it; with a limit, in a forked child that is terminated after
    ``seconds``.

    ``seconds=None`` runs in-process without a limit. The result must be picklable.
    """
    start = time.perf_counter()
    if seconds is None:
        value = fn(*args, **kwargs)
        return TimedRun(value, time.perf_counter() - start, True)
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs), daemon=True)
    proc.start()
    child.close()
    try:
        ready = parent.poll(seconds)
        if not ready:
            return TimedRun(None, time.perf_counter() - start, False)
        try:
            status, payload = parent.recv()
        except EOFError:
            status, payload = "error", f"child exited with code {proc.exitcode} without a result"
        seconds = time.perf_counter() - start
        if status == "error":
            return TimedRun(None, seconds, False, payload)
        return TimedRun(payload, seconds, True)
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(5)
        parent.close()


def timed_bound(X: np.ndarray, k: int, r: float, beta: float, method: str, max_work: int | None,
                fast_exact_max: int = 0) -> dict:
    """S_beta(X) by ``method`` under Algorithm 1's deterministic work budget ``max_work``, and its wall-clock time.

    Whether the bound completes depends on the data and ``max_work`` only (the same on every machine); the
    time is the benchmark. Returns ``completed`` (False: the work budget ran out, value NaN), ``seconds``,
    ``value``, ``t_max``, ``t_stop`` and ``work`` (Algorithm-1 work units; when cut, the count that passed
    the budget).
    """
    if method not in ("paper", "fast"):
        raise ValueError(f"method: expected 'paper' or 'fast', got {method!r}")
    fn, kwargs = (ol.algorithm2, {}) if method == "paper" else (ol.block_smooth_bound, {"exact_max": fast_exact_max})
    start = time.perf_counter()
    try:
        res = fn(X, k, r, beta, max_work=max_work, **kwargs)
    except ol.WorkBudgetExceeded as cut:
        return {"completed": False, "seconds": time.perf_counter() - start, "value": np.nan, "t_max": np.nan,
                "t_stop": np.nan, "work": int(cut.used)}
    return {"completed": True, "seconds": time.perf_counter() - start, "value": float(res.value),
            "t_max": int(res.t_max), "t_stop": int(res.t_stop), "work": int(res.work)}
