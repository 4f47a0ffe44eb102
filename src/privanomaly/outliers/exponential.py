r"""Exponential mechanism and top-h subspace discovery (paper B, Theorem 3, Theorem 7, eq. 51, Algorithm 3).

Resolution (``docs/paper_b_resolutions.md``, R4): paper B's eq. (11) samples ``∝ exp(eps u)`` and Theorem 3
states ``2 eps Δu``-DP; Theorem 7 then says 2eps-DP while Algorithm 3 claims eps-DP with eps/h per draw.
We implement the standard McSherry-Talwar form ``Pr[t] ∝ exp(eps u(X, t) / (2 Δu))``, which is eps-DP for
every eps and Δu >= sensitivity of u: for neighbours, numerator and normaliser each change by a factor at
most ``e^{eps/2}``.  With ``u_subspace = q_count / GS^UB`` (eq. 51) ``Δu <= 1`` (Theorem 7, eq. 52) because
``GS^UB_{|S|}`` upper-bounds the global sensitivity of ``q_count`` on subspaces of that size.

Algorithm 3 ("repeat r <- ExpMech(eps/h) until r not in R_h") is *exactly* sampling without replacement:
conditioned on rejecting already-chosen items, the accepted draw has probability
``w_i / sum_{j not in R} w_j`` - the exponential mechanism with privacy parameter eps/h restricted to the
remaining candidates (a range that depends only on earlier outputs).  Each round is (eps/h)-DP, so h rounds
are eps-DP by sequential composition.

Exact sampling (no float comparison draws an output). The privacy parameter is the project's
rational rate (:func:`privanomaly.sp.dlap.rational_rate`, rounded *down*): each of the h draws spends
``rate/h`` with ``rate = rational_rate(eps) <= eps``, so the whole selection is ``rate``-DP (the claim reports
it).  A draw among the remaining candidates R is a rejection sampler: propose i uniformly from R
(``rng.integers``), accept with probability ``exp(-gamma_i)``, ``gamma_i = (rate/h) (u_ref - u_i) / (2 Δu)``
with ``u_ref = max_{j in R} u_j``; utilities and Δu are converted to ``Fraction`` exactly (a float is a
dyadic rational), so gamma_i is an exact rational and the acceptance is an exact Bernoulli(exp(-gamma_i))
(:func:`privanomaly.outliers.exact_random.bernoulli_exp_rational`).  The accepted index has probability
``w_i / sum_{j in R} w_j``, ``w_i = exp((rate/h) u_i / (2 Δu))`` - the exponential mechanism on R; at most
``|R|`` proposals are needed on average (the reference candidate is accepted surely).  The closed-form laws
below use the same rate (as floats), so sampler and formulas describe the same mechanism.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from scipy.special import logsumexp

from privanomaly.sp.dlap import rational_rate
from privanomaly.sp.loop_budget import Rounds, geometric_budget

from .exact_random import ExpBernoulliTable
from .global_sensitivity import gs_upper

__all__ = [
    "UTILITY_SENSITIVITY",
    "draw_rate",
    "exp_mech_logits",
    "exp_mech_probs",
    "top_h_draws",
    "top_h_subspaces",
    "top_h_trials",
    "top_h_sequence_probs",
    "top_h_inclusion_probs",
    "subspace_utility",
]


UTILITY_SENSITIVITY = 1.0
"""Δu of ``u_subspace`` (eq. 51): at most 1 by Theorem 7 (eq. 52), and attained (one record moved turns
GS^UB outliers of a subspace into inliers). A privacy claim uses this bound, whatever Δu the weights assume."""


def _check(eps: float, sensitivity: float) -> None:
    if not (eps > 0 and math.isfinite(eps)):
        raise ValueError(f"epsilon must be a positive finite number, got {eps!r}")
    if not (sensitivity > 0 and math.isfinite(sensitivity)):
        raise ValueError(f"sensitivity must be a positive finite number, got {sensitivity!r}")


def draw_rate(eps: float, h: int = 1) -> Fraction:
    """The exact privacy rate of one of Algorithm 3's h draws: ``rational_rate(eps) / h`` (never above eps/h;
    the h draws compose to ``rational_rate(eps) <= eps``)."""
    _check(float(eps), 1.0)
    return rational_rate(eps) / int(h)


def _check_utility(utility) -> np.ndarray:
    u = np.asarray(utility, dtype=float)
    if u.ndim != 1 or u.size == 0 or not np.all(np.isfinite(u)):
        raise ValueError("utility must be a non-empty 1-D array of finite numbers")
    return u


def _logits(utility, rate: Fraction, sensitivity: float) -> np.ndarray:
    _check(float(rate), sensitivity)
    return float(rate) * _check_utility(utility) / (2.0 * sensitivity)


def exp_mech_logits(utility: np.ndarray, eps: float, sensitivity: float = 1.0) -> np.ndarray:
    """``rate * u / (2 Δu)`` with ``rate = rational_rate(eps)`` - log-weights of the exponential mechanism (up
    to a constant), at the rate the sampler uses."""
    _check(eps, sensitivity)
    return _logits(utility, rational_rate(eps), sensitivity)


def exp_mech_probs(utility: np.ndarray, eps: float, sensitivity: float = 1.0) -> np.ndarray:
    """Exact output distribution ``Pr[t] = exp(rate u_t / (2Δu)) / sum_s exp(rate u_s / (2Δu))``, rate =
    ``rational_rate(eps)`` (rate-DP, rate <= eps; computed with log-sum-exp)."""
    z = exp_mech_logits(utility, eps, sensitivity)
    z = z - z.max()
    p = np.exp(z)
    return p / p.sum()


def top_h_draws(
    utility: np.ndarray,
    h: int,
    eps: float,
    rng: np.random.Generator,
    n_trials: int,
    sensitivity: float = 1.0,
) -> np.ndarray:
    """``n_trials`` independent runs of Algorithm 3, sampled exactly (module docstring): int64 array
    ``(n_trials, h)`` of the chosen candidate indices in draw order. eps-DP (precisely: rational_rate(eps)).

    Vectorised over trials: round after round every trial still drawing proposes remaining candidates (several
    once few trials are left) and takes the first accepted; chosen candidates are swapped to the front of the
    trial's row of ``perm``."""
    u_float = _check_utility(utility)
    n = u_float.size
    _check_h(h, n)
    _check(eps, sensitivity)
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator")
    n_trials = int(n_trials)
    u = [Fraction(float(x)) for x in u_float]  # exact: a float is a dyadic rational
    scale = draw_rate(eps, h) / (2 * Fraction(float(sensitivity)))
    table = ExpBernoulliTable()
    rows_of_ref: dict[int, np.ndarray] = {}  # ref -> table index of gamma(ref, i) for every candidate i

    def row(r: int) -> np.ndarray:
        if r not in rows_of_ref:  # candidates above the reference are already chosen: never proposed (-1)
            rows_of_ref[r] = np.array([table.add(scale * (u[r] - ui)) if ui <= u[r] else -1 for ui in u],
                                      dtype=np.int64)
        return rows_of_ref[r]

    perm = np.tile(np.arange(n, dtype=np.int64), (n_trials, 1))
    rows = np.arange(n_trials)
    for j in range(int(h)):
        # reference = a remaining candidate of largest utility (floats compare exactly), so every gamma >= 0
        ref = perm[rows, j + np.argmax(u_float[perm[:, j:]], axis=1)] if n_trials else rows
        _draw_position(perm, j, int(h), ref, rng, table, row)
    return perm[:, : int(h)].copy()


def _draw_position(perm: np.ndarray, j: int, h: int, ref: np.ndarray, rng: np.random.Generator,
                   table: ExpBernoulliTable, row) -> None:
    """Draw ``j`` of Algorithm 3 in every trial (a row of ``perm``, its first ``j`` entries already chosen): the
    remaining candidates are proposed uniformly and accepted with probability exp(-gamma(ref, i)) (``row(ref)``:
    the table indices of gamma against the trial's reference ``ref``); the first accepted one is swapped to
    position ``j``."""
    n_trials, n = perm.shape
    pending = np.arange(n_trials)
    # each proposal is accepted with probability >= 1 / (n - j) (the reference candidate surely): a trial
    # still pending after P proposals has probability <= (1 - 1/(n - j))^P
    proposals = Rounds(f"Algorithm 3, draw {j + 1} of {h} among {n - j} candidates",
                       geometric_budget(n_trials, 1.0 - 1.0 / (n - j)),
                       f"a proposal is accepted with probability at least 1/{n - j}")
    while pending.size:
        # b iid proposals per pending trial (the first accepted one is the draw; later ones are ignored,
        # which leaves the law unchanged): b grows as trials finish, keeping each round ~n_trials proposals
        b = min(n - j, max(1, n_trials // pending.size))
        pos = j + rng.integers(0, n - j, size=(pending.size, b), dtype=np.int64)
        cand = perm[pending[:, None], pos]
        ref_p = np.broadcast_to(ref[pending][:, None], cand.shape)
        ti = np.empty(cand.shape, dtype=np.int64)
        for r in np.unique(ref_p).tolist():
            here = ref_p == r
            ti[here] = row(r)[cand[here]]
        acc = table.draw(rng, ti)
        done = acc.any(axis=1)
        t, p = pending[done], pos[done, acc[done].argmax(axis=1)]
        perm[t, p], perm[t, j] = perm[t, j], perm[t, p]
        pending = pending[~done]
        proposals.tick(pending.size, step=b)


def top_h_subspaces(
    utility: np.ndarray, h: int, eps: float, rng: np.random.Generator, sensitivity: float = 1.0
) -> np.ndarray:
    """Algorithm 3: h rounds of the exponential mechanism with eps/h each, restricted to candidates not yet
    chosen (≡ the paper's resample-until-new).  Returns the chosen indices in draw order.  eps-DP. Exact
    (:func:`top_h_draws` with one trial)."""
    return top_h_draws(utility, h, eps, rng, 1, sensitivity)[0]


def top_h_trials(utility: np.ndarray, h: int, eps: float, rng: np.random.Generator, n_trials: int,
                 sensitivity: float = 1.0) -> np.ndarray:
    """``n_trials`` independent runs of Algorithm 3 (:func:`top_h_draws`, exact); bool array
    ``(n_trials, n_subspaces)`` with exactly h True per row."""
    order = top_h_draws(utility, h, eps, rng, n_trials, sensitivity)
    out = np.zeros((order.shape[0], np.asarray(utility).size), dtype=bool)
    np.put_along_axis(out, order, True, axis=1)
    return out


def top_h_sequence_probs(
    utility: np.ndarray, h: int, eps: float, sensitivity: float = 1.0
) -> dict[tuple[int, ...], float]:
    """Exact probability of every ordered output of Algorithm 3 (enumeration; for small n and h).

    Log space: ``ln Pr[seq] = sum_m (z_{seq_m} - logsumexp(z over the candidates not yet drawn))``.  (The
    remaining mass is never formed by subtraction, which cancels catastrophically when one weight dominates,
    e.g. u = (5, 0, 0.1), h = 2, eps = 40.)"""
    u = np.asarray(utility, dtype=float)
    _check_h(h, u.size)
    z = _logits(u, draw_rate(eps, h), sensitivity)
    out: dict[tuple[int, ...], float] = {}
    for seq in itertools.permutations(range(u.size), h):
        remaining = np.ones(u.size, dtype=bool)
        logp = 0.0
        for i in seq:
            logp += z[i] - float(logsumexp(z[remaining]))
            remaining[i] = False
        out[seq] = math.exp(logp)
    return out


#: above this many (prefix, candidate) pairs, :func:`top_h_inclusion_probs` integrates instead of enumerating
INCLUSION_ENUMERATION_LIMIT = 5_000_000
#: absolute accuracy of the quadrature fallback (measured worst case 1.8e-5 on adversarial utilities)
INCLUSION_QUADRATURE_ATOL = 1e-4


def top_h_inclusion_probs(utility: np.ndarray, h: int, eps: float, sensitivity: float = 1.0) -> np.ndarray:
    """``Pr[i in output of Algorithm 3]`` for every candidate.

    Exact up to float rounding (~1e-15) by enumerating the ordered prefixes of the h draws in log space
    (``n (n-1) ... (n-h+2)`` prefixes, vectorised) whenever that is at most
    :data:`INCLUSION_ENUMERATION_LIMIT` pairs - every Scenario-2 setting of the paper.  Beyond, one-dimensional
    quadrature of the Gumbel-top-h representation, accurate only to :data:`INCLUSION_QUADRATURE_ATOL`
    (callers comparing these values must use at least that tolerance)."""
    u = np.asarray(utility, dtype=float)
    n = u.size
    _check_h(h, n)
    if h == n:
        return np.ones(n)
    z = _logits(u, draw_rate(eps, h), sensitivity)
    if math.perm(n, h - 1) * n <= INCLUSION_ENUMERATION_LIMIT:
        return _inclusion_by_prefixes(z, h)
    return _inclusion_by_quadrature(z, h)


def _inclusion_by_prefixes(z: np.ndarray, h: int) -> np.ndarray:
    n = z.size
    prefixes = np.zeros((1, 0), dtype=np.int64)
    logp = np.zeros(1)
    incl = np.zeros(n)
    for m in range(h):
        avail = np.ones((len(prefixes), n), dtype=bool)
        if m:
            np.put_along_axis(avail, prefixes, False, axis=1)
        zz = np.where(avail, z[None, :], -np.inf)
        joint = logp[:, None] + zz - logsumexp(zz, axis=1, keepdims=True)  # ln Pr[prefix, then j]
        incl += np.exp(joint).sum(axis=0)
        if m < h - 1:
            rows, cols = np.nonzero(avail)
            prefixes = np.concatenate([prefixes[rows], cols[:, None]], axis=1)
            logp = joint[rows, cols]
    return np.minimum(incl, 1.0)


def _inclusion_by_quadrature(z: np.ndarray, h: int) -> np.ndarray:
    """With ``w = exp(logits)`` and ``s = e^{-x}``: ``Pr[i in top h] = ∫_0^∞ w_i e^{-w_i s}
    Pr[#{j != i : G_j > x} <= h-1] ds``, the events independent with ``Pr[G_j > x] = 1 - e^{-w_j s}``."""
    from scipy import integrate  # here: ~0.3 s of start-up that only large top-h inclusion cases use

    n = z.size
    w = np.exp(z - z.max())
    out = np.empty(n)
    for i in range(n):
        if w[i] == 0.0:  # weight below e^-745 of the largest: probability below n e^-745
            out[i] = 0.0
            continue
        others = np.delete(w, i)

        def f(s: float, i: int = i, others: np.ndarray = others) -> float:
            q = -np.expm1(-others * s)  # Pr[G_j > x]
            dist = np.zeros(h)  # Pr[exactly c of the others exceed], c < h
            dist[0] = 1.0
            for qj in q:
                dist[1:] = dist[1:] * (1 - qj) + dist[:-1] * qj
                dist[0] *= 1 - qj
            return w[i] * math.exp(-w[i] * s) * dist.sum()

        scale = 1.0 / w[i]
        val = 0.0
        edges = scale * np.array([0, 0.5, 1, 2, 4, 8, 16, 32, 64])
        for a, b in zip(edges[:-1], edges[1:]):
            val += integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-11, limit=200)[0]
        val += integrate.quad(f, edges[-1], np.inf, epsabs=1e-13, limit=200)[0]
        out[i] = val
    return out


def subspace_utility(counts: np.ndarray | int, N: int | None, dim: np.ndarray | int, k: int) -> np.ndarray:
    """Eq. (51): ``u_subspace = q_count(X, k, r, S) / GS^UB_{q_count, |S|}(k)`` with
    ``GS^UB = min(N, k K_|S| + 1)`` (eq. 18).  ``dim`` = |S| (scalar or per-subspace array)."""
    counts = np.asarray(counts, dtype=float)
    dims = np.broadcast_to(np.asarray(dim, dtype=int), counts.shape)
    gs = np.array([gs_upper(N, int(m), k) for m in dims.ravel()], dtype=float).reshape(counts.shape)
    return counts / gs


def _check_h(h: int, n: int) -> None:
    if int(h) != h or not 1 <= h <= n:
        raise ValueError(f"h must be an integer in [1, {n}] (number of candidate subspaces), got {h!r}")
