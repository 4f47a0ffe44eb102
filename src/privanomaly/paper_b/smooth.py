"""The smooth upper bound of q_count as the experiments use it: Algorithm 2 under a budget, else the fast bound.

:func:`privanomaly.outliers.smooth_sensitivity` computes both. The paper's method (Algorithm 2 with the
exponential Algorithm 1) runs under :func:`privanomaly.paper_b.budget.run_with_budget`; when it is cut, the
fast bound is used instead and the row says so (``method_used`` = ``fast``, ``cut`` = True). The fast bound
is called with ``exact_max`` (config ``paper_b.fast_exact_max``): 0 keeps it polynomial; larger values let
it run the exact (exponential) Algorithm 1 on small windows.
"""

from __future__ import annotations

import numpy as np

from privanomaly import outliers as ol
from privanomaly.paper_b.budget import run_with_budget


def _as_dict(res, method_used: str, seconds: float, cut: bool) -> dict:
    ls = np.asarray(res.ls_bounds)
    return {
        "value": float(res.value),
        "ls0": float(ls[0]) if ls.size else np.nan,  # min(N, B_0): the un-smoothed t = 0 bound >= LS(X)
        "t_max": int(res.t_max),
        "t_stop": int(res.t_stop),
        "method_used": method_used,
        "seconds": float(seconds),
        "cut": bool(cut),
    }


def _missing(seconds: float) -> dict:
    return {"value": np.nan, "ls0": np.nan, "t_max": None, "t_stop": None, "method_used": "none",
            "seconds": float(seconds), "cut": True}


def smooth_bound(
    X: np.ndarray,
    k: int,
    r: float,
    beta: float,
    method: str,
    budget_seconds: float | None,
    fast_exact_max: int = 0,
    fast_budget_seconds: float | None = None,
    fallback: bool = True,
) -> dict:
    """S_beta(X) by ``method`` (``paper`` or ``fast``); ``paper`` falls back to ``fast`` past its budget.

    ``budget_seconds`` limits Algorithm 2 (<= 0: skip it, the caller's total budget is spent);
    ``fast_budget_seconds`` limits the fast bound (None = no limit). If the bound needed is not obtained,
    the value is NaN and ``method_used`` = ``none`` (also when Algorithm 2 is cut and ``fallback`` is False).
    ``seconds_paper`` is the time spent in Algorithm 2.
    """
    if method not in ("paper", "fast"):
        raise ValueError(f"method: expected 'paper' or 'fast', got {method!r}")
    spent = 0.0
    if method == "paper":
        if budget_seconds is None or budget_seconds > 0:
            run = run_with_budget(ol.smooth_sensitivity, X, k, r, beta, method="paper", budget_seconds=budget_seconds)
            if run.completed:
                out = _as_dict(run.value, "paper", run.seconds, False)
                out["seconds_paper"] = run.seconds
                return out
            if run.error is not None:
                raise RuntimeError(f"Algorithm 2 failed: {run.error}")
            spent = run.seconds
        if not fallback:
            out = _missing(spent)
            out["seconds_paper"] = spent
            return out
    fast = run_with_budget(
        ol.smooth_sensitivity, X, k, r, beta, method="fast", exact_max=fast_exact_max,
        budget_seconds=fast_budget_seconds,
    )
    if fast.error is not None:
        raise RuntimeError(f"fast smooth bound failed: {fast.error}")
    out = _as_dict(fast.value, "fast", fast.seconds, method == "paper") if fast.completed else _missing(fast.seconds)
    out["seconds_paper"] = spent
    return out


class Budget:
    """A total wall-clock budget shared by several Algorithm-2 calls, each also capped at ``per_call``."""

    def __init__(self, per_call: float | None, total: float | None):
        self.per_call, self.total, self.spent = per_call, total, 0.0

    def next(self) -> float | None:
        """The budget of the next call (None = unlimited, 0 = skip)."""
        if self.total is None:
            return self.per_call
        left = max(0.0, self.total - self.spent)
        return left if self.per_call is None else min(self.per_call, left)

    def charge(self, seconds: float) -> None:
        self.spent += seconds
