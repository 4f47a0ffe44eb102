"""Readings of paper B's noise constants (Theorems 1-2) as data, evaluated by one function.

Paper B's Figures 3-4 ("sigma_Global approximately 10-30 times sigma_Smooth", "sigma_Smooth < 7 for
eps >= 0.7") cannot come from the printed constants (sigma_Global / sigma_Smooth = GS / (5 S) <= GS / 5; see
:mod:`privanomaly.outliers.gaussian`).  Scenario 1 therefore recomputes them under a few named, discrete
*readings* of the text.  Each reading is a :class:`NoiseConvention` - plain data: the log of Theorem 1, its
variance read as the std or not, the factor in alpha, the rule for beta, S or the un-smoothed t = 0 bound -
and :func:`noise_scales` is the one function that turns a reading into numbers (with the formulas of
:mod:`privanomaly.outliers.gaussian`, which exist only there).  None is fitted; only ``printed`` carries the
(eps, delta)-DP guarantee.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, NamedTuple

__all__ = ["NoiseConvention", "NoiseScales", "CONVENTIONS", "noise_scales"]

_LOGS = {"ln": math.log, "log10": math.log10}


@dataclass(frozen=True)
class NoiseConvention:
    """One reading of Theorems 1-2.

    ``log``: the log of Theorem 1 (``ln`` as printed, or ``log10``); ``variance_as_std``: Theorem 1's variance
    taken as the std; ``alpha_factor``: the factor in ``alpha = eps / (factor sqrt(2 ln(2/delta)))`` (printed:
    5); ``beta``: ``printed`` (``eps / (4 (p + ln(2/delta)))``) or ``eps`` (eq. 29 literally); ``use_ls0``: S
    replaced by the un-smoothed t = 0 bound B_0 >= LS(X) (no smoothing); ``privacy_proven``: the printed
    constants, whose sigma_Global is only released where the Theorem 1 condition holds.
    """

    name: str
    description: str
    log: Literal["ln", "log10"] = "ln"
    variance_as_std: bool = False
    alpha_factor: float = 5.0
    beta: Literal["printed", "eps"] = "printed"
    use_ls0: bool = False
    privacy_proven: bool = False


class NoiseScales(NamedTuple):
    """The numbers of one reading at (gs, eps, delta): ``sigma_global`` (NaN where the printed Theorem 1
    refuses eps), ``alpha`` (sigma_Smooth = S / alpha) and ``beta`` (the smoothing S must be computed with)."""

    sigma_global: float
    alpha: float
    beta: float


def noise_scales(conv: NoiseConvention, gs: float, eps: float, delta: float, p: int = 1) -> NoiseScales:
    """sigma_Global, alpha and beta of reading ``conv`` (the only reader of its constants: ``log``,
    ``variance_as_std``, ``alpha_factor``, ``beta``; Scenario 1's table also reads ``use_ls0`` and
    ``privacy_proven``, which choose the smoothed value and the guarantee)."""
    from .gaussian import sigma_global, theorem1_sigma, theorem2_alpha, theorem2_beta  # scipy: only when used

    if conv.privacy_proven:
        try:
            s_global = sigma_global(gs, eps, delta)  # checks the Theorem 1 condition
        except ValueError:
            s_global = float("nan")
    else:
        s_global = theorem1_sigma(gs, eps, delta, _LOGS[conv.log], conv.variance_as_std)
    beta = theorem2_beta(eps, delta, p) if conv.beta == "printed" else eps
    return NoiseScales(s_global, theorem2_alpha(eps, delta, conv.alpha_factor), beta)


CONVENTIONS: dict[str, NoiseConvention] = {
    c.name: c
    for c in [
        NoiseConvention(
            "printed",
            "Theorems 1-2 as printed (ln): sigma_G = GS sqrt(2 ln(2/d))/eps; alpha = eps/(5 sqrt(2 ln(2/d))); "
            "beta = eps/(4(p + ln(2/d))).  The only convention with a proven (eps, delta)-DP guarantee here "
            "(sigma_G only with a GS upper bound and under the Theorem 1 condition).",
            privacy_proven=True,
        ),
        NoiseConvention("log10_global", "Theorem 1's 'log' read as log10 (smooth side as printed).", log="log10"),
        NoiseConvention("alpha_without_5", "Smooth side with alpha = eps/sqrt(2 ln(2/d)) (no factor 5), beta as "
                        "printed.", alpha_factor=1.0),
        NoiseConvention("beta_equals_eps", "Eq. (29) literally: smoothing with e^{-t eps} (beta = eps), alpha as "
                        "printed.", beta="eps"),
        NoiseConvention("global_variance_as_std", "Theorem 1's variance GS^2 2 ln(2/d)/eps^2 used as the standard "
                        "deviation; smooth side printed.", variance_as_std=True),
        NoiseConvention("beta_equals_eps_alpha_without_5", "beta = eps as in eq. (29) and alpha = eps/sqrt(2 "
                        "ln(2/d)) (no factor 5).", alpha_factor=1.0, beta="eps"),
        NoiseConvention("local_theorem1", "No smoothing: S replaced by the t = 0 bound B_0 >= LS(X) (Theorem 5), "
                        "scaled like Theorem 1 (sigma = B_0 sqrt(2 ln(2/d))/eps). Not differentially private.",
                        alpha_factor=1.0, beta="eps", use_ls0=True),
    ]
}
