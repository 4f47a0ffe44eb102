"""Private selection over a public candidate grid by permute-and-flip (McKenna & Sheldon, NeurIPS 2020).

Claim (their privacy theorem, stated again beside :func:`select`): given a public list of candidates, integer utilities u(D, c)
and a public bound Δu >= max over neighbours D ~ D' and candidates c of |u(D, c) - u(D', c)|, visit the
candidates in a uniformly random order and stop at the first c whose coin Bernoulli(p_c) lands heads,

    p_c = exp(ε (u(D, c) - u*) / (2 Δu)),   u* = max_c' u(D, c'),

which is ε-DP on that neighbour relation (the relation is the caller's: the claim holds on every pair of
neighbours whose utilities move by at most Δu). The candidate of largest utility has p = 1, so the walk
stops within one pass. Its expected utility is never below the exponential mechanism's at the same ε and Δu
(their comparison of the two); its law differs (report-noisy-max with Gumbel noise *is* the exponential
mechanism; permute-and-flip is report-noisy-max with one-sided exponential noise - Ding, Kifer et al. 2021,
"The permute-and-flip mechanism is identical to report-noisy-max with exponential noise"). ε is the project's
rational rate (:func:`privanomaly.sp.dlap.rational_rate`, rounded down: the claim reports it).

Exact output law: the random order is the order of iid uniform arrival times T_c on [0, 1]; c is output iff
its coin lands heads and every candidate that arrived before it (each independently with probability t =
T_c) landed tails, so

    Pr[c] = p_c ∫_0^1 Π_{s != c} (1 - t p_s) dt = p_c Σ_j (-1)^j e_j({p_s}_{s != c}) / (j + 1),

e_j the elementary symmetric polynomials. With q = exp(-θ), θ = rate / (2 Δu) and g_c = u* - u_c, p_c =
q^(g_c): :func:`exact_law` is this polynomial in q with rational coefficients
(:class:`privanomaly.mechanisms.exact.ExactDist`, so the audit decides Pr[c | D] <= e^ε Pr[c | D'] exactly);
:func:`probs` evaluates the integral in floats by Gauss-Legendre quadrature with enough nodes to be exact
for its degree (every term positive: no cancellation).

Sampler (:func:`select`): the order is ``Generator.permuted`` (an exact uniform permutation, integer draws)
and each coin an exact Bernoulli(exp(-θ g_c)) on the rational θ g_c
(:class:`privanomaly.outliers.exact_random.ExpBernoulliTable`): no float comparison draws the output.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from privanomaly.mechanisms.base import Claim
from privanomaly.mechanisms.exact import ExactDist, QRat
from privanomaly.outliers.exact_random import ExpBernoulliTable
from privanomaly.sp.dlap import rational_rate

from .private_selection import check_utility

__all__ = ["claim", "exact_law", "law_at", "probs", "select", "theta"]


def theta(eps: float, sensitivity: int) -> Fraction:
    """θ = rational_rate(ε) / (2 Δu): p_c = exp(-θ (u* - u_c))."""
    return rational_rate(eps) / (2 * int(sensitivity))


def claim(eps: float, sensitivity: int, neighbours: str, utility_text: str = "") -> Claim:
    """The selection's claim: rational_rate(ε)-DP on ``neighbours`` when Δu bounds the utility's sensitivity
    (McKenna & Sheldon 2020, permute-and-flip's privacy theorem)."""
    rate = rational_rate(eps)
    what = f" of {utility_text}" if utility_text else ""
    return Claim(float(rate), 0.0, neighbours, epsilon_exact=rate,
                 note=f"permute-and-flip{what} with Δu = {int(sensitivity)} (McKenna-Sheldon 2020)")


def law_at(utility, th: Fraction) -> ExactDist:
    """The exact law at a given θ (module docstring): Pr[c] = q^(g_c) Σ_j (-1)^j e_j(q^(g_s), s != c) / (j + 1)."""
    u = np.asarray(utility).astype(np.int64)
    gaps = [int(u.max() - v) for v in u]
    probs = []
    for c in range(len(gaps)):
        # Π_{s != c} (1 - t q^(g_s)) as {(j, e): coefficient of t^j q^e}
        poly: dict[tuple[int, int], int] = {(0, 0): 1}
        for s, g in enumerate(gaps):
            if s == c:
                continue
            nxt = dict(poly)
            for (j, e), a in poly.items():
                nxt[(j + 1, e + g)] = nxt.get((j + 1, e + g), 0) - a
            poly = nxt
        num: dict[int, Fraction] = {}
        for (j, e), a in poly.items():
            num[e + gaps[c]] = num.get(e + gaps[c], Fraction(0)) + Fraction(a, j + 1)
        probs.append(QRat.make(num))
    return ExactDist(Fraction(th), tuple(probs), outputs=tuple(range(len(gaps))))


def exact_law(utility, eps: float, sensitivity: int) -> ExactDist:
    """The exact output law of :func:`select` as polynomials in q = exp(-θ), θ = rational_rate(ε) / (2 Δu)."""
    return law_at(check_utility(utility, sensitivity), theta(eps, sensitivity))


def probs(utility, eps: float, sensitivity: int) -> np.ndarray:
    """The same law in floats: p_c ∫_0^1 Π_{s != c} (1 - t p_s) dt by Gauss-Legendre (exact for the degree)."""
    u = check_utility(utility, sensitivity)
    p = np.exp(-float(theta(eps, sensitivity)) * (u.max() - u).astype(float))
    nodes, weights = np.polynomial.legendre.leggauss(u.size // 2 + 1)  # exact up to degree >= u.size
    t, w = (nodes + 1.0) / 2.0, weights / 2.0
    logs = np.log1p(-t[:, None] * p[None, :])  # 1 - t p >= 1 - max(t) > 0
    others = logs.sum(axis=1, keepdims=True) - logs  # ln Π_{s != c} (1 - t p_s), per node and c
    out = p * (w @ np.exp(others))
    return out / out.sum()  # the exact law sums to 1; this removes float rounding only


def select(utility, eps: float, sensitivity: int, rng: np.random.Generator, n_trials: int = 1) -> np.ndarray:
    """``n_trials`` independent exact draws of permute-and-flip (int64 indices of the chosen candidates).

    Claim: :func:`claim` - rational_rate(ε)-DP on any neighbour relation on which Δu = ``sensitivity`` bounds
    the utility's change (McKenna & Sheldon 2020; checked exactly by the audit row ``pf_select_r``)."""
    u = check_utility(utility, sensitivity)
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator")
    n, n_trials = u.size, int(n_trials)
    th = theta(eps, sensitivity)
    table = ExpBernoulliTable([th * int(u.max() - v) for v in u])  # index c: Bernoulli(p_c) exactly
    order = rng.permuted(np.tile(np.arange(n, dtype=np.int64), (n_trials, 1)), axis=1)
    out = np.full(n_trials, -1, dtype=np.int64)
    pending = np.arange(n_trials)
    for j in range(n):  # the candidate of largest utility has p = 1: every trial stops within n flips
        if not pending.size:
            break
        cand = order[pending, j]
        heads = table.draw(rng, cand)
        out[pending[heads]] = cand[heads]
        pending = pending[~heads]
    return out
