"""Private selection over a public candidate grid: the exponential mechanism (McSherry & Talwar 2007).

Given a public list of candidates (radii r, or pairs (β, r)), an integer utility u(D, c) for each and a
public bound Δu >= max over neighbours D ~ D' and candidates c of |u(D, c) - u(D', c)|, output c with

    Pr[c] = exp(ε u(D, c) / (2 Δu)) / Σ_c' exp(ε u(D, c') / (2 Δu)),

which is ε-DP on that neighbour relation: numerator and normaliser each move by at most e^{ε/2} (paper B's
Theorem 3 in the standard form; ``privanomaly.outliers.exponential``, resolution R4). ε is the project's
rational rate (:func:`privanomaly.sp.dlap.rational_rate`, rounded down: the claim reports it).

The sampler is paper B's exact one: Algorithm 3 with h = 1 (:func:`privanomaly.outliers.top_h_draws`), a
rejection sampler with exact Bernoulli(exp(-γ)) acceptances on rational γ - no float comparison draws the
output. :func:`exact_law` is the same law as rational functions of q = exp(-θ), θ = rate / (2 Δu)
(:class:`privanomaly.mechanisms.exact.ExactDist`), so the audit decides Pr[c | D] <= e^ε Pr[c | D']
exactly (:func:`privanomaly.mechanisms.exact.edge_holds`), and :func:`probs` evaluates it in floats.

Utilities used here (:mod:`.price`): the number of records whose outlier status agrees with its label
(paper B's eq. (53) accuracy times N; paper A's (β, r)-anomaly against the labels), on the private part.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from privanomaly.mechanisms.base import Claim
from privanomaly.mechanisms.exact import ExactDist, QRat
from privanomaly.outliers import exponential
from privanomaly.sp.dlap import rational_rate

__all__ = ["check_utility", "claim", "exact_law", "probs", "select"]


def check_utility(utility, sensitivity: int) -> np.ndarray:
    """Integer utilities (one per candidate) and an integer Δu >= 1, checked."""
    u = np.asarray(utility)
    if u.ndim != 1 or u.size == 0 or not np.issubdtype(u.dtype, np.integer):
        raise ValueError(f"utility must be a non-empty 1-D integer array (one per candidate), got {u.dtype} {u.shape}")
    if isinstance(sensitivity, bool) or int(sensitivity) != sensitivity or int(sensitivity) < 1:
        raise ValueError(f"utility sensitivity Δu must be an integer >= 1, got {sensitivity!r}")
    return u.astype(np.int64)


def claim(eps: float, sensitivity: int, neighbours: str, utility_text: str = "") -> Claim:
    """The selection's claim: rational_rate(ε)-DP on ``neighbours`` when Δu bounds the utility's sensitivity."""
    rate = rational_rate(eps)
    what = f" of {utility_text}" if utility_text else ""
    return Claim(float(rate), 0.0, neighbours, epsilon_exact=rate,
                 note=f"exponential mechanism{what} with Δu = {int(sensitivity)} (McSherry-Talwar; paper B Thm 3)")


def exact_law(utility, eps: float, sensitivity: int) -> ExactDist:
    """Pr[c] = q^(u_max - u_c) / Σ_c' q^(u_max - u_c'), q = exp(-θ), θ = rational_rate(ε) / (2 Δu), exactly."""
    u = check_utility(utility, sensitivity)
    theta = rational_rate(eps) / (2 * int(sensitivity))
    top = int(u.max())
    den = Counter(top - int(v) for v in u)
    return ExactDist(theta, tuple(QRat.make({top - int(v): Fraction(1)}, dict(den)) for v in u),
                     outputs=tuple(range(u.size)))


def probs(utility, eps: float, sensitivity: int) -> np.ndarray:
    """The same law as floats (log-sum-exp), at the sampler's rate."""
    return exponential.exp_mech_probs(check_utility(utility, sensitivity).astype(float), eps, float(sensitivity))


def select(utility, eps: float, sensitivity: int, rng: np.random.Generator, n_trials: int = 1) -> np.ndarray:
    """``n_trials`` independent exact draws of the chosen candidate's index (int64 array)."""
    u = check_utility(utility, sensitivity).astype(float)
    if u.size == 1:
        return np.zeros(int(n_trials), dtype=np.int64)
    return exponential.top_h_draws(u, 1, eps, rng, n_trials, sensitivity=float(sensitivity))[:, 0]
