"""Gaussian mechanisms for the outlier count (paper B, Theorems 1 and 2, eqs. 4 and 9).

Formulas as printed (checked against the LaTeX source of paper B):

* Theorem 1 (eq. 4): ``Y ~ N(0, GS^2 * 2 log(2/delta) / eps^2)``; ``log`` is read as the natural log
  (the same theorem in [10] and Theorem 2 write ``ln``).  Hence ``sigma_Global = GS sqrt(2 ln(2/delta)) / eps``.
* Theorem 2 (eq. 9, from Nissim-Raskhodnikova-Smith [2], Lemma 2.9): ``alpha = eps / (5 sqrt(2 ln(2/delta)))``,
  ``beta = eps / (4 (p + ln(2/delta)))`` with ``p`` the output dimension (p = 1 for a count), release
  ``q(X) + (S_beta(X) / alpha) Y`` with ``Y ~ N(0, 1)``.  Hence ``sigma_Smooth = S_beta(X) / alpha
  = 5 S sqrt(2 ln(2/delta)) / eps``.

Consequence (NOTES.md B5): ``sigma_Global / sigma_Smooth = GS / (5 S)``; with S >= 1 this is at most GS/5,
so the paper's "10-30 times" claim cannot come from the printed constants.  The named *readings* of these
constants that Scenario 1 compares (log base, factor on alpha, rule for beta ...) are data in
:mod:`privanomaly.outliers.conventions`, evaluated with the functions of this module; only the printed one
carries the privacy guarantee.

Floating point never weakens a proven claim: the scales that carry one are rounded *outward* by a relative
``2^-48`` (:data:`OUTWARD`) - sigma_Global up (:func:`sigma_global`), alpha and beta down
(:func:`theorem2_alpha`, :func:`theorem2_beta`), so sigma_Smooth = S/alpha goes up and a bound that is
beta-smooth for the rounded beta is smooth for the theorem's. Each formula is a handful of correctly rounded
float operations (relative error < 2^-50), so the rounded value is always on the safe side of the real one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np
from scipy.special import log_ndtr, ndtr

from .exact_normal import gaussian_release_exact

__all__ = [
    "gaussian_hockey_stick",
    "theorem1_factor",
    "theorem1_sigma",
    "sigma_global",
    "theorem1_exact_delta",
    "theorem1_max_epsilon",
    "theorem2_worst_delta",
    "smooth_parameters",
    "sigma_smooth",
    "gaussian_release",
]


OUTWARD = 2.0**-48
"""Relative outward rounding of the privacy-carrying scales (module docstring)."""


def _up(x: float) -> float:
    """x rounded up by a relative :data:`OUTWARD` (larger than the float error of the formulas here)."""
    return x * (1.0 + OUTWARD)


def _down(x: float) -> float:
    """x rounded down by a relative :data:`OUTWARD`."""
    return x * (1.0 - OUTWARD)


def _check(eps: float, delta: float) -> None:
    if not (eps > 0 and math.isfinite(eps)):
        raise ValueError(f"epsilon must be a positive finite number, got {eps!r}")
    if not (0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")


def theorem1_exact_delta(eps: float, delta: float) -> float:
    """Exact delta(eps) of Theorem 1's release on a worst neighbouring pair (shift = GS, sigma as printed).

    With ``c = sqrt(2 ln(2/delta))`` the shift is ``GS / sigma = eps / c`` and the exact hockey-stick
    divergence of two Gaussians (Balle & Wang, ICML 2018, Theorem 8) is
    ``Phi(eps/(2c) - c) - e^eps Phi(-eps/(2c) - c)`` - a function of (eps, delta) only."""
    _check(eps, delta)
    c = theorem1_factor(delta)
    return float(ndtr(eps / (2 * c) - c) - math.exp(eps + float(log_ndtr(-eps / (2 * c) - c))))


def theorem1_max_epsilon(delta: float) -> float:
    """The largest eps for which Theorem 1's sigma gives (eps, delta)-DP: the *Theorem 1 condition*
    ``theorem1_exact_delta(eps, delta) <= delta`` holds exactly for eps in (0, this] (about 7.9 at
    delta = 0.01; the exact delta is increasing in eps there).  Found by bisection to ~1e-12."""
    lo, hi = 1e-9, 1.0
    while theorem1_exact_delta(hi, delta) <= delta:
        lo, hi = hi, 2 * hi
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if theorem1_exact_delta(mid, delta) <= delta else (lo, mid)
    return lo


def theorem1_factor(delta: float, log: Callable[[float], float] = math.log) -> float:
    """``sqrt(2 log(2/delta))`` (natural log as printed): Theorem 1's sigma is GS times this over eps,
    Theorem 2's alpha is eps over 5 times this."""
    return math.sqrt(2.0 * log(2.0 / delta))


def theorem1_sigma(gs: float, eps: float, delta: float, log: Callable[[float], float] = math.log,
                   variance_as_std: bool = False) -> float:
    """Theorem 1's formula (eq. 4), unchecked: ``GS sqrt(2 log(2/delta)) / eps`` - or, with
    ``variance_as_std``, its variance ``GS^2 2 log(2/delta) / eps^2`` taken as the std (a misreading that
    Scenario 1 evaluates).  The released sigma is :func:`sigma_global`, which checks the Theorem 1 condition."""
    if variance_as_std:
        return float(gs) ** 2 * 2.0 * log(2.0 / delta) / eps**2
    return float(gs) * theorem1_factor(delta, log) / eps


def sigma_global(gs: float, eps: float, delta: float) -> float:
    """Theorem 1 (eq. 4): ``GS * sqrt(2 ln(2/delta)) / eps`` - std of the global-sensitivity Gaussian.

    Raises ``ValueError`` when the Theorem 1 condition fails (:func:`theorem1_exact_delta` > delta, i.e.
    eps > :func:`theorem1_max_epsilon`): that sigma is then not (eps, delta)-DP for any sensitivity."""
    _check(eps, delta)
    if theorem1_exact_delta(eps, delta) > delta:
        raise ValueError(
            f"Theorem 1 condition fails at eps = {eps:g}, delta = {delta:g}: sigma = GS sqrt(2 ln(2/delta))/eps "
            f"has exact delta {theorem1_exact_delta(eps, delta):.3g} > delta (holds only for eps <= "
            f"{theorem1_max_epsilon(delta):.4g})"
        )
    return _up(theorem1_sigma(gs, eps, delta))


def theorem2_alpha(eps: float, delta: float, factor: float = 5.0) -> float:
    """Theorem 2's ``alpha = eps / (5 sqrt(2 ln(2/delta)))`` (``factor`` = the printed 5), unchecked; rounded
    down (module docstring)."""
    return _down(eps / (factor * theorem1_factor(delta)))


def theorem2_beta(eps: float, delta: float, p: int = 1) -> float:
    """Theorem 2's ``beta = eps / (4 (p + ln(2/delta)))`` (p = output dimension), unchecked; rounded down
    (module docstring)."""
    return _down(eps / (4.0 * (p + math.log(2.0 / delta))))


def smooth_parameters(eps: float, delta: float, p: int = 1) -> tuple[float, float]:
    """Theorem 2: ``(alpha, beta) = (eps / (5 sqrt(2 ln(2/delta))), eps / (4 (p + ln(2/delta))))``."""
    _check(eps, delta)
    return theorem2_alpha(eps, delta), theorem2_beta(eps, delta, p)


def _phi(x: float) -> float:
    """Standard normal CDF (erfc form: accurate in both tails)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def gaussian_hockey_stick(m1: float, s1: float, m2: float, s2: float, epsilon: float) -> float:
    """Exact δ(ε) = sup_E P1(E) − e^ε P2(E) for P1 = N(m1, s1²), P2 = N(m2, s2²) (s1, s2 > 0).

    The optimal event is A = {x : ln p1(x) − ln p2(x) > ε}, where the log-ratio is the quadratic
    a x² + b x + c with a = 1/(2 s2²) − 1/(2 s1²), b = m1/s1² − m2/s2², c = m2²/(2 s2²) − m1²/(2 s1²)
    + ln(s2/s1); so A is a half-line (a = 0), an interval (a < 0) or the complement of one (a > 0).
    """
    if not (s1 > 0 and s2 > 0):
        raise ValueError(f"gaussian_hockey_stick: standard deviations must be > 0, got {s1}, {s2}")
    a = 0.5 / s2**2 - 0.5 / s1**2
    b = m1 / s1**2 - m2 / s2**2
    c = 0.5 * m2**2 / s2**2 - 0.5 * m1**2 / s1**2 + math.log(s2 / s1) - epsilon
    e = math.exp(epsilon)

    def mass(lo: float, hi: float) -> float:  # P1((lo, hi)) − e^ε P2((lo, hi))
        p1 = _phi((hi - m1) / s1) - _phi((lo - m1) / s1)
        p2 = _phi((hi - m2) / s2) - _phi((lo - m2) / s2)
        return p1 - e * p2

    inf = math.inf
    if abs(a) <= 1e-15 * max(1 / s1**2, 1 / s2**2):
        if b == 0:
            return max(0.0, 1.0 - e) if c > 0 else 0.0  # constant log-ratio: A is everything or nothing
        t = -c / b
        return max(0.0, mass(t, inf) if b > 0 else mass(-inf, t))
    disc = b * b - 4 * a * c
    if disc <= 0:
        # the quadratic has one sign everywhere: A is everything (a > 0) or nothing (a < 0)
        return max(0.0, 1.0 - e) if a > 0 else 0.0
    r = math.sqrt(disc)
    x1, x2 = sorted(((-b - r) / (2 * a), (-b + r) / (2 * a)))
    if a < 0:
        return max(0.0, mass(x1, x2))
    return max(0.0, mass(-inf, x1) + mass(x2, inf))


@functools.lru_cache(maxsize=4096)
def theorem2_worst_delta(eps: float, delta: float, p: int = 1) -> float:
    """Largest exact delta(eps) of Theorem 2's release (p = 1) over every pair it must cover: a beta-smooth
    S >= LS lets neighbours have ``S'/S = rho in [e^-beta, e^beta]`` and ``|q - q'| = m <= min(S, S')``;
    the releases are N(0, (S/alpha)^2) and N(m, (S'/alpha)^2) (scale-free: S = 1).  Exact closed-form
    hockey stick (:func:`gaussian_hockey_stick`, both directions) maximised over a grid of
    41 ratios x 11 shifts including the ends.  The *Theorem 2 condition* is ``this <= delta``: it holds on
    Scenario 1's range but fails for large eps (e.g. 0.0265 > 0.01 at eps = 30, delta = 0.01)."""
    if p != 1:
        raise ValueError("theorem2_worst_delta: only p = 1 (a count) is implemented")
    alpha, beta = smooth_parameters(eps, delta, p)
    worst = 0.0
    for rho in np.exp(np.linspace(-beta, beta, 41)):
        for m in np.linspace(0.0, min(1.0, rho), 11):
            s1, s2 = 1.0 / alpha, rho / alpha
            worst = max(worst, gaussian_hockey_stick(0.0, s1, m, s2, eps), gaussian_hockey_stick(m, s2, 0.0, s1, eps))
    return float(worst)


def sigma_smooth(S: float, eps: float, delta: float, p: int = 1) -> float:
    """Theorem 2 (eq. 9): ``S / alpha`` - std of the smooth-sensitivity Gaussian (S = beta-smooth bound)."""
    alpha, _ = smooth_parameters(eps, delta, p)
    return float(S) / alpha


def gaussian_release(
    value: float,
    sigma: float,
    rng: np.random.Generator,
    size: int | None = None,
) -> float | np.ndarray:
    """``value + sigma * N(0, 1)`` (eqs. 4, 9), sampled exactly and rounded to the public grid 2^-32
    (:func:`privanomaly.outliers.exact_normal.gaussian_release_exact`: Karney's exact normal from uniform
    integers; rounding by a fixed function is post-processing, so Theorems 1-2 hold for the release)."""
    if np.ndim(value) != 0:
        raise TypeError("gaussian_release: value must be a scalar (call it once per released value)")
    return gaussian_release_exact(float(value), sigma, rng, size)
