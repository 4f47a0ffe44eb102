"""Scenario 1 of paper B (Figs. 3/4): sigma_Global vs sigma_Smooth of the Gaussian release of q_count.

sigma_Global uses the *lower* bound min(N, 2dk + 1) of eq. (18) in Theorem 1, as the paper does (kept: it is
the paper's figure) - but a lower bound on GS proves nothing (the 2-D pentagon changes the count by 16 > 13,
a 7-D configuration by 49 > 43), so those rows say ``proven_global_lower = False``. The proven global row is
``sigma_global_upper``: Theorem 1 with the *upper* bound min(N, k K_d + 1), proven where the Theorem 1
condition holds (:func:`privanomaly.outliers.theorem1_exact_delta`). sigma_Smooth uses the smooth upper bound
of Algorithm 2 (or the fast bound; which one is a public choice, never the data's) in Theorem 2. As printed
(Theorem 1 / Theorem 2):

    sigma_Global = GS sqrt(2 ln(2/delta)) / eps
    sigma_Smooth = S_beta(X) / alpha,  alpha = eps / (5 sqrt(2 ln(2/delta))),  beta = eps / (4 (p + ln(2/delta)))

so sigma_Global / sigma_Smooth = GS / (5 S) <= GS / 5 (S >= 1). The paper's figures ("10-30 times",
"sigma_Smooth < 7 for eps >= 0.7") cannot come from these constants. We evaluate the named readings of
:data:`privanomaly.outliers.CONVENTIONS` plus two more (:data:`EXTRA_CONVENTIONS`) side by side; none is
fitted - each is a discrete reading of the text, and only ``printed`` carries the privacy guarantee.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from privanomaly import outliers as ol
from privanomaly.outliers.gaussian import _ln2d  # ln(2/δ): one definition


@dataclass(frozen=True)
class Reading:
    """A noise convention and whether S is replaced by the un-smoothed t = 0 bound B_0 >= LS(X)."""

    convention: ol.NoiseConvention
    use_ls0: bool = False


EXTRA_CONVENTIONS: dict[str, Reading] = {
    "beta_equals_eps_alpha_without_5": Reading(
        ol.NoiseConvention(
            "beta_equals_eps_alpha_without_5",
            "beta = eps as in eq. (29) and alpha = eps/sqrt(2 ln(2/d)) (no factor 5).",
            lambda gs, e, d: gs * math.sqrt(2 * _ln2d(d)) / e,
            lambda e, d: e / math.sqrt(2 * _ln2d(d)),
            lambda e, d, p=1: e,
            False,
        )
    ),
    "local_theorem1": Reading(
        ol.NoiseConvention(
            "local_theorem1",
            "No smoothing: S replaced by the t = 0 bound B_0 >= LS(X) (Theorem 5), scaled like Theorem 1 "
            "(sigma = B_0 sqrt(2 ln(2/d))/eps). Not differentially private.",
            lambda gs, e, d: gs * math.sqrt(2 * _ln2d(d)) / e,
            lambda e, d: e / math.sqrt(2 * _ln2d(d)),
            lambda e, d, p=1: e,  # irrelevant: only B_0 is used
            False,
        ),
        use_ls0=True,
    ),
}


def readings() -> dict[str, Reading]:
    """Every named reading: the core's conventions, then ours."""
    out = {name: Reading(c) for name, c in ol.CONVENTIONS.items()}
    out.update(EXTRA_CONVENTIONS)
    return out


SmoothFn = Callable[[float], dict]
"""beta -> {"value", "ls0", "t_max", "t_stop", "method_used", "work_paper"} (:func:`.smooth.smooth_bound`).

No wall-clock time enters the table, and the bound released is chosen by the configured method only."""


def _sigma_or_nan(conv: ol.NoiseConvention, gs: int, eps: float, delta: float) -> float:
    """sigma_Global of ``conv``; NaN where the printed Theorem 1 refuses eps (its condition fails)."""
    try:
        return float(conv.sigma_global(gs, eps, delta))
    except ValueError:
        return float("nan")


def scenario1_table(
    X: np.ndarray,
    k: int,
    r: float,
    eps_grid: list[float],
    delta: float,
    conventions: list[str],
    smooth_fn: SmoothFn,
) -> pd.DataFrame:
    """One row per (convention, eps): true count, GS lower and upper bounds, beta, S, sigma_Global (lower-bound
    GS, the paper's figure), sigma_Global_upper (upper-bound GS), sigma_Smooth, ratio, and per sigma whether
    every premise of its theorem holds (``proven_global_lower`` is always False: GS lower bound).

    ``smooth_fn(beta)`` computes the smooth bound (Algorithm 2 or the fast bound); it is called once per
    distinct beta (largest beta first: those are the cheap ones), shared by the conventions.
    """
    X = np.asarray(X, dtype=float)
    N, d = X.shape
    true_count = int(ol.q_count(X, k, r))
    gs = int(ol.gs_lower(N, d, k))
    gs_up = int(ol.gs_upper(N, d, k))
    known = readings()
    for name in conventions:
        if name not in known:
            raise ValueError(f"paper_b.scenario1.conventions: unknown {name!r}; known: {', '.join(known)}")
    betas = {
        (name, eps): float(known[name].convention.beta(eps, delta, 1)) for name in conventions for eps in eps_grid
    }
    cache: dict[float, dict] = {}
    for beta in sorted(set(betas.values()), reverse=True):
        cache[beta] = smooth_fn(beta)
    rows = []
    for name in conventions:
        reading = known[name]
        conv = reading.convention
        for eps in eps_grid:
            beta = betas[(name, eps)]
            sm = cache[beta]
            S = float(sm["ls0"]) if reading.use_ls0 else float(sm["value"])
            s_glob = _sigma_or_nan(conv, gs, eps, delta)
            s_glob_up = _sigma_or_nan(conv, gs_up, eps, delta)
            s_smooth = float(conv.sigma_smooth(S, eps, delta))
            theorem1_ok = ol.theorem1_exact_delta(eps, delta) <= delta
            theorem2_ok = ol.theorem2_worst_delta(eps, delta) <= delta
            rows.append(
                {
                    "convention": name,
                    "eps": float(eps),
                    "delta": float(delta),
                    "N": N,
                    "d": d,
                    "k": k,
                    "r": float(r),
                    "true_count": true_count,
                    "gs_lower": gs,
                    "gs_upper": gs_up,
                    "beta": beta,
                    "smooth_sensitivity": S,
                    "t_max": np.nan if reading.use_ls0 or sm.get("t_max") is None else sm["t_max"],
                    "t_stop": np.nan if sm.get("t_stop") is None else sm["t_stop"],
                    "method_used": sm["method_used"],
                    "work_paper": int(sm.get("work_paper", 0)),
                    "sigma_global": s_glob,
                    "sigma_global_upper": s_glob_up,
                    "sigma_smooth": s_smooth,
                    "ratio": s_glob / s_smooth,
                    "ratio_upper": s_glob_up / s_smooth,
                    # premises: GS is an upper bound (never for gs_lower), printed constants, Theorem 1 condition
                    "proven_global_lower": False,
                    "proven_global_upper": bool(conv.privacy_proven and theorem1_ok),
                    # a beta-smooth upper bound chosen by public parameters, printed constants of Theorem 2,
                    # and the Theorem 2 condition (exact worst-case delta <= delta; fails for large eps)
                    "proven_smooth": bool(conv.privacy_proven and not reading.use_ls0 and theorem2_ok),
                }
            )
    return pd.DataFrame(rows)
