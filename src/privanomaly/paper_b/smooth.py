"""The smooth upper bound of q_count as the experiments use it: Algorithm 2 under a work budget, else the fast bound.

:func:`privanomaly.outliers.smooth_sensitivity` computes both. The paper's method (Algorithm 2 with the
exponential Algorithm 1) runs under a *deterministic work budget* (``max_work``: smallest-enclosing-ball
evaluations of Algorithm 1, counted inside the library, :class:`privanomaly.outliers.WorkBudgetExceeded`); when it is
exceeded, the fast bound is used instead and the row says so (``method_used`` = ``fast``, ``cut`` = True).
Whether a call is cut depends only on the data and the config, never on the machine or its load, so the
Scenario-1 tables are byte-identical between runs. A wall-clock ``timeout_seconds`` is only a safety net:
if it fires, :class:`SafetyTimeout` is raised (the tables are never changed by it). The fast bound is called
with ``exact_max`` (config ``paper_b.fast_exact_max``): 0 keeps it polynomial; larger values let it run the
exact (exponential) Algorithm 1 on small windows.

Wall-clock timings are measured only by :func:`timed_bound` for the separate benchmark table
(``paper_b/tables/smooth_timing.csv``), which is machine-dependent by nature.
"""

from __future__ import annotations

import functools

import numpy as np

from privanomaly import outliers as ol
from privanomaly.paper_b.budget import run_with_budget


class SafetyTimeout(RuntimeError):
    """The wall-clock safety timeout fired: lower the work budget rather than let time decide the table."""


def _as_dict(res, method_used: str, cut: bool, work_paper: int) -> dict:
    ls = np.asarray(res.ls_bounds)
    return {
        "value": float(res.value),
        "ls0": float(ls[0]) if ls.size else np.nan,  # min(N, B_0): the un-smoothed t = 0 bound >= LS(X)
        "t_max": int(res.t_max),
        "t_stop": int(res.t_stop),
        "method_used": method_used,
        "cut": bool(cut),
        "work_paper": int(work_paper),
    }


def _paper_or_cut(X, k, r, beta, max_work):
    """Algorithm 2 under ``max_work``: ("ok", result) or ("cut", units counted when the budget was passed)."""
    try:
        return "ok", ol.smooth_sensitivity(X, k, r, beta, method="paper", max_work=max_work)
    except ol.WorkBudgetExceeded as exc:
        return "cut", exc.used


def _run(fn, *args, timeout_seconds, what: str):
    run = run_with_budget(fn, *args, budget_seconds=timeout_seconds)
    if run.error is not None:
        raise RuntimeError(f"{what} failed: {run.error}")
    if not run.completed:
        raise SafetyTimeout(
            f"{what} hit the safety timeout of {timeout_seconds} s (a machine-dependent limit that must not "
            "decide the table): lower paper_b.scenario1.max_work / fast_exact_max or raise the timeout"
        )
    return run.value


def smooth_bound(
    X: np.ndarray,
    k: int,
    r: float,
    beta: float,
    method: str,
    max_work: int | None,
    fast_exact_max: int = 0,
    timeout_seconds: float | None = None,
    fallback: bool = True,
) -> dict:
    """S_beta(X) by ``method`` (``paper`` or ``fast``); ``paper`` falls back to ``fast`` past its work budget.

    ``max_work`` limits Algorithm 1 inside Algorithm 2 (work units, see the module doc; 0: Algorithm 2 is
    cut at its first smallest-enclosing-ball evaluation; None: no limit). The decision depends only on (X, k, r, beta,
    max_work). ``timeout_seconds`` (None = none) is a safety net per computation; if it fires,
    :class:`SafetyTimeout` is raised. If Algorithm 2 is cut and ``fallback`` is False, the value is NaN and
    ``method_used`` = ``none``. ``work_paper`` = work units spent in Algorithm 2 (deterministic).
    """
    if method not in ("paper", "fast"):
        raise ValueError(f"method: expected 'paper' or 'fast', got {method!r}")
    work_paper = 0
    if method == "paper":
        status, payload = _run(_paper_or_cut, X, k, r, beta, max_work, timeout_seconds=timeout_seconds,
                               what="Algorithm 2")
        if status == "ok":
            return _as_dict(payload, "paper", False, payload.work)
        work_paper = int(payload)
        if not fallback:
            return {"value": np.nan, "ls0": np.nan, "t_max": None, "t_stop": None, "method_used": "none",
                    "cut": True, "work_paper": work_paper}
    fast_fn = functools.partial(ol.smooth_sensitivity, method="fast", exact_max=fast_exact_max)
    fast = _run(fast_fn, X, k, r, beta, timeout_seconds=timeout_seconds, what="fast smooth bound")
    return _as_dict(fast, "fast", method == "paper", work_paper)


def timed_bound(X: np.ndarray, k: int, r: float, beta: float, method: str, budget_seconds: float | None,
                fast_exact_max: int = 0) -> dict:
    """Benchmark only (machine-dependent): S_beta(X) by ``method`` under a wall-clock budget, and its time.

    Returns ``completed`` (False: cut by the time budget, value NaN), ``seconds``, ``value``, ``t_max``,
    ``t_stop`` and ``work`` (Algorithm-1 work units; None when cut).
    """
    kwargs = {"method": method} if method == "paper" else {"method": "fast", "exact_max": fast_exact_max}
    run = run_with_budget(ol.smooth_sensitivity, X, k, r, beta, budget_seconds=budget_seconds, **kwargs)
    if run.error is not None:
        raise RuntimeError(f"{method} smooth bound failed: {run.error}")
    if not run.completed:
        return {"completed": False, "seconds": run.seconds, "value": np.nan, "t_max": np.nan, "t_stop": np.nan,
                "work": None}
    res = run.value
    return {"completed": True, "seconds": run.seconds, "value": float(res.value), "t_max": int(res.t_max),
            "t_stop": int(res.t_stop), "work": int(res.work)}


class WorkBudget:
    """A total work budget shared by several Algorithm-2 calls, each also capped at ``per_call`` (None = no cap).

    Deterministic: charges are work units counted by the library, and the calls come in a fixed order.
    """

    def __init__(self, per_call: int | None, total: int | None):
        self.per_call, self.total, self.spent = per_call, total, 0

    def next(self) -> int | None:
        """The work budget of the next call (None = unlimited, 0 = cut at once)."""
        if self.total is None:
            return self.per_call
        left = max(0, self.total - self.spent)
        return left if self.per_call is None else min(self.per_call, left)

    def charge(self, work: int) -> None:
        self.spent += int(work)
