"""Scenario 1 of paper B (Figs. 3/4): sigma_Global vs sigma_Smooth of the Gaussian release of q_count.

sigma_Global uses the *lower* bound min(N, 2dk + 1) of eq. (18) in Theorem 1, as the paper does (kept: it is
the paper's figure) - but a lower bound on GS proves nothing (the 2-D pentagon changes the count by 16 > 13,
a 7-D configuration by 49 > 43), so those rows say ``sigma_global_proven = False``. The proven global row is
``sigma_global_upper``: Theorem 1 with the *upper* bound min(N, k K_d + 1), proven where the Theorem 1
condition holds (:func:`privanomaly.outliers.theorem1_exact_delta`). sigma_Smooth uses the smooth upper bound
of Algorithm 2 (or the fast bound; which one is a public choice, never the data's) in Theorem 2. As printed
(Theorem 1 / Theorem 2):

    sigma_Global = GS sqrt(2 ln(2/delta)) / eps
    sigma_Smooth = S_beta(X) / alpha,  alpha = eps / (5 sqrt(2 ln(2/delta))),  beta = eps / (4 (p + ln(2/delta)))

so sigma_Global / sigma_Smooth = GS / (5 S) <= GS / 5 (S >= 1). The paper's figures ("10-30 times",
"sigma_Smooth < 7 for eps >= 0.7") cannot come from these constants. We evaluate the named readings of
:data:`privanomaly.outliers.CONVENTIONS` (data, read by :func:`privanomaly.outliers.noise_scales`) side by
side; none is fitted - each is a discrete reading of the text, and only ``printed`` carries the privacy
guarantee.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from privanomaly import outliers as ol

SmoothFn = Callable[[float], dict]
"""beta -> {"value", "ls0", "t_max", "t_stop", "method_used", "work_paper"} (:func:`.released_bound.smooth_bound`).

No wall-clock time enters the table, and the bound released is chosen by the configured method only."""


def scenario1_table(
    X: np.ndarray,
    k: int,
    r: float,
    eps_grid: list[float],
    delta: float,
    conventions: list[str],
    smooth_fn: SmoothFn,
    skip_infeasible: bool = False,
) -> pd.DataFrame:
    """One row per (convention, eps): true count, GS lower and upper bounds, beta, S, sigma_Global (lower-bound
    GS, the paper's figure), sigma_Global_upper (upper-bound GS), sigma_Smooth, ratio, and per sigma whether
    every premise of its theorem holds, in ``<σ>_proven`` right after that σ (``sigma_global_proven`` is always
    False: GS lower bound).

    ``smooth_fn(beta)`` computes the smooth bound (Algorithm 2 or the fast bound); it is called once per
    distinct beta (largest beta first: those are the cheap ones), shared by the conventions.

    ``skip_infeasible``: when Algorithm 2 exceeds its counted work guard at some beta (:class:`~privanomaly.
    paper_b.released_bound.AlgorithmTooCostly` past ``max_work``), the rows of that beta and of every smaller
    one (costlier still) are kept with the global columns, no smooth bound (NaN) and ``skipped`` saying why -
    no other bound takes its place (no data-dependent switch). Column ``skipped`` is "" on computed rows.
    The wall-clock safety timeout (:class:`~privanomaly.paper_b.released_bound.SafetyTimeout`) makes the rows
    of its beta and the smaller ones ``skipped`` in every case: a machine-dependent limit never fails a run.
    """
    X = np.asarray(X, dtype=float)
    N, d = X.shape
    known = ol.CONVENTIONS
    for name in conventions:
        if name not in known:
            raise ValueError(f"paper_b.scenario1.conventions: unknown {name!r}; known: {', '.join(known)}")
    scales = _scales(N, d, k, eps_grid, delta, conventions)
    betas = {key: float(sc.beta) for key, sc in scales.items()}
    cache, skipped = _smooth_bounds(smooth_fn, set(betas.values()), skip_infeasible)
    shape = {"N": N, "d": d, "k": k, "r": float(r), "true_count": int(ol.q_count(X, k, r)),
             "gs_lower": int(ol.gs_lower(N, d, k)), "gs_upper": int(ol.gs_upper(N, d, k))}
    rows = [_row(name, eps, delta, betas[(name, eps)], scales[(name, eps)], shape, cache, skipped)
            for name in conventions for eps in eps_grid]
    df = pd.DataFrame(rows)
    return df[[*ANSWER_COLUMNS, *(c for c in df.columns if c not in ANSWER_COLUMNS)]]


def _smooth_bounds(smooth_fn: SmoothFn, betas: set[float], skip_infeasible: bool) -> tuple[dict[float, dict], str]:
    """``smooth_fn`` at each β, largest first (the cheap ones), until one is skipped (:func:`scenario1_table`'s
    ``skip_infeasible`` and safety timeout): ({β: its bound}, why the smaller β were skipped, or "")."""
    from privanomaly.paper_b.released_bound import AlgorithmTooCostly, SafetyTimeout

    cache: dict[float, dict] = {}
    for beta in sorted(betas, reverse=True):
        try:
            cache[beta] = smooth_fn(beta)
        except AlgorithmTooCostly as exc:
            if not skip_infeasible:
                raise
            return cache, f"beta <= {beta:.4g}: {exc}"
        except SafetyTimeout as exc:  # never a failed job: the rows say why
            return cache, f"beta <= {beta:.4g}: {exc}"
    return cache, ""


def _row(name: str, eps: float, delta: float, beta: float, scale, shape: dict, cache: dict[float, dict],
         skipped: str) -> dict:
    """The row of convention ``name`` at ``eps`` (:func:`scenario1_table`): ``scale`` its noise scales
    (:func:`_scales`), ``shape`` N, d, k, r, the true count and the GS bounds, ``cache`` the smooth bounds."""
    conv = ol.CONVENTIONS[name]
    sm = cache.get(beta) or {"value": np.nan, "ls0": np.nan, "t_max": None, "t_stop": None, "method_used": "",
                             "work_paper": np.nan}
    S = float(sm["ls0"]) if conv.use_ls0 else float(sm["value"])
    s_glob = scale.sigma_global
    s_glob_up = ol.noise_scales(conv, shape["gs_upper"], eps, delta).sigma_global
    s_smooth = S / scale.alpha
    theorem1_ok = ol.theorem1_exact_delta(eps, delta) <= delta
    theorem2_ok = ol.theorem2_worst_delta(eps, delta) <= delta
    return {
        "convention": name,
        "eps": float(eps),
        "delta": float(delta),
        **shape,
        "beta": beta,
        "smooth_sensitivity": S,
        "t_max": np.nan if conv.use_ls0 or sm.get("t_max") is None else sm["t_max"],
        "t_stop": np.nan if sm.get("t_stop") is None else sm["t_stop"],
        "method_used": sm["method_used"],
        "work_paper": sm["work_paper"] if beta not in cache else int(sm.get("work_paper", 0)),
        # each σ's flag: every premise of its theorem holds. σ_Global: GS is an upper bound (never
        # for gs_lower), printed constants, Theorem 1's condition
        "sigma_global": s_glob,
        "sigma_global_proven": False,
        "sigma_global_upper": s_glob_up,
        "sigma_global_upper_proven": bool(conv.privacy_proven and theorem1_ok),
        # σ_Smooth: a beta-smooth upper bound chosen by public parameters, printed constants of
        # Theorem 2, and its condition (exact worst-case delta <= delta; fails for large eps)
        "sigma_smooth": s_smooth,
        "sigma_smooth_proven": bool(beta in cache and conv.privacy_proven and not conv.use_ls0 and theorem2_ok),
        "ratio": s_glob / s_smooth,
        "ratio_upper": s_glob_up / s_smooth,
        "skipped": "" if beta in cache else skipped,
    }


def _scales(N: int, d: int, k: int, eps_grid: list[float], delta: float, conventions: list[str]) -> dict:
    """(convention, eps) -> the noise scales of Theorems 1-2 under that reading (public: N, d, k, eps, delta)."""
    gs = int(ol.gs_lower(N, d, k))
    return {(name, eps): ol.noise_scales(ol.CONVENTIONS[name], gs, eps, delta) for name in conventions for eps in eps_grid}


def scenario1_betas(N: int, d: int, k: int, eps_grid: list[float], delta: float, conventions: list[str]) -> list[float]:
    """The distinct smoothing parameters beta of a Scenario-1 table, smallest first (public quantities only)."""
    return sorted({float(sc.beta) for sc in _scales(N, d, k, eps_grid, delta, conventions).values()})


# The answer first: the columns a reader wants (each sigma with its own proven flag right after it, the ratios,
# why a row is empty) lead the table; the diagnostics (N, d, k, r, bounds, beta, S, t_max, work ...) follow.
ANSWER_COLUMNS = ["convention", "eps", "sigma_global", "sigma_global_proven", "sigma_global_upper",
                  "sigma_global_upper_proven", "sigma_smooth", "sigma_smooth_proven", "ratio", "ratio_upper", "skipped"]
