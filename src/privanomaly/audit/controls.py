"""Negative controls: broken mechanisms the harness must catch (each one a known failure mode), never registered.

Paper A (:data:`PAPER_A`):

* ``sp_L_plus_1`` — SP with L + 1 in place of L: overstates the distance to a label flip by one step.
* ``optimal_dp_float_sampler`` — the pre-fix sampler ``rng.random() < p``: its realised law is
  P(1) = ceil(p 2^53) / 2^53 (``random()`` returns k / 2^53), which breaks the ratio where p is tiny
  (1.81 e^eps at eps = 0.1). Only the exact check can see this; sampling cannot.
* ``laplace_count_half_noise`` — the count baseline run with DLap(2 eps) (half the noise) but claiming eps.
* ``optimal_dp_optimistic_probs`` — the optimal DP mechanism, exact law and sampler right, whose ``probs``
  (the law every table reports) runs at 2 eps: private as claimed, but every reported error is too small.
  Only the law check (``probs`` against the exact law) can see it.
* ``optimal_dp_uncapped_distance`` — the optimal DP mechanism run on capped counts min(B, cap) whose distance
  Delta_G ignores the cap: a present normal record at B >= cap has Delta = cap - beta, its absent neighbour
  cap + 2 - beta, a ratio e^(2 eps). Private on true counts, so only an audit on capped counts sees it.
* ``optimal_dp_stalled_sampler`` — the optimal DP mechanism whose exact Bernoulli(exp(-gamma)) never stops
  (CKS Algorithm 1 with a Bernoulli(gamma / K) that always succeeds, as a flipped acceptance test makes a
  rejection loop that never accepts): the loop's budget (:mod:`privanomaly.sp.loop_budget`) stops it and the
  audit fails in seconds instead of hanging.

Paper B (:func:`paper_b_controls`):

* ``gaussian_smooth_budget_switch`` — Theorem 2 with Algorithm 2 when its work fits a budget (50), else the
  block bound: each branch is beta-smooth, the data-dependent switch is not (:func:`budget_switch_bound`).
* ``gaussian_gs_upper_half_sigma_sampler`` — Theorem 1 whose sampler draws with sigma / 2.
* ``exp_top_h_double_rate_sampler`` — Algorithm 3 whose sampler draws at 2 eps.
* ``gaussian_gs_upper_k3_11`` — Theorem 1 with min(N, k K_3 + 1) taken with K_3 = 11 (one kissing sphere short
  of 12): only a 3-D world whose count jumps by 12k + 1 (the icosahedron pair) sees it.
* ``gaussian_smooth_alpha_misread`` / ``gaussian_smooth_beta_misread`` — Theorem 2 read with alpha 1.25 times
  (the 5 read as 4) / beta twice the printed one, in the release *and* in the mechanism's own checks: only a
  check at the audit's own reading of Theorem 2 (:func:`privanomaly.audit.paper_b.theorem2_constants`) sees it.

The harness (:mod:`.harness`) runs them in this order after the registered mechanisms.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from privanomaly import outliers as ol
from privanomaly.mechanisms.base import Claim, Mechanism, check_rng, check_trials
from privanomaly.mechanisms.exact import ExactDist, QRat
from privanomaly.mechanisms.paper_a import LaplaceCount, OptimalDP, SPConstruction1
from privanomaly.mechanisms.paper_b import DEFAULT_DELTA, GaussianGlobal, GaussianSmooth, TopH
from privanomaly.sp.dlap import cks_algorithm1
from privanomaly.sp.mdd import mdd_dp, mdd_sp_lower

__all__ = ["SPLPlusOne", "FloatSamplerDP", "LaplaceHalfNoise", "OptimisticProbs", "UncappedDistance",
           "StalledSamplerDP", "PAPER_A", "GaussianBudgetSwitch", "GaussianHalfSigmaSampler", "GaussianK3Short",
           "GaussianTheorem2Misread", "TopHDoubleRateSampler", "budget_switch_bound", "paper_b_controls"]


class SPLPlusOne(SPConstruction1):
    label = "SP with L + 1 (broken)"
    reference = "negative control (Construction 1 with L + 1)"

    def distance(self, x_i, B, *, beta, k, cap=None):
        return mdd_sp_lower(x_i, B, beta, k, cap=cap) + 1


class FloatSamplerDP(OptimalDP):
    label = "DP, float Bernoulli sampler (broken)"
    reference = "negative control (Theorem 4.4 with a float sampler)"

    def exact_distribution(self, x_i: int, B: int, *, beta, k, eps, cap=None) -> ExactDist:
        p1 = float(self.prob_one(np.array([x_i]), np.array([B]), beta=beta, k=k, eps=eps, cap=cap)[0])
        real = Fraction(math.ceil(Fraction(p1) * 2**53), 2**53)  # P(k / 2^53 < p1), k uniform on 0..2^53 - 1
        return ExactDist(Fraction(0), (QRat.const(1 - real), QRat.const(real)))

    def sample(self, x_i, B, *, beta, k, eps, rng, n_trials, cap=None) -> np.ndarray:
        p1 = self.prob_one(x_i, B, beta=beta, k=k, eps=eps, cap=cap)
        return (rng.random((int(n_trials), np.size(p1))) < p1).astype(np.int8)


class LaplaceHalfNoise(LaplaceCount):
    label = "Laplace (count), half the noise (broken)"
    reference = "negative control (Laplace count at 2 eps)"

    def probs(self, x_i, B, *, beta, k=None, eps, cap=None):
        return super().probs(x_i, B, beta=beta, k=k, eps=2 * eps, cap=cap)

    def exact_distribution(self, x_i: int, B: int, *, beta, k=None, eps, cap=None) -> ExactDist:
        return super().exact_distribution(x_i, B, beta=beta, k=k, eps=2 * eps, cap=cap)

    def sample(self, x_i, B, *, beta, k=None, eps, rng, n_trials, cap=None) -> np.ndarray:
        return super().sample(x_i, B, beta=beta, k=k, eps=2 * eps, rng=rng, n_trials=n_trials, cap=cap)


class OptimisticProbs(OptimalDP):
    label = "DP, tables' law at 2 eps (broken)"
    reference = "negative control (Theorem 4.4 reported at 2 eps)"

    def probs(self, x_i, B, *, beta, k=None, eps, cap=None):
        return super().probs(x_i, B, beta=beta, k=k, eps=2 * eps, cap=cap)


class UncappedDistance(OptimalDP):
    label = "DP, distance not capped on capped counts (broken)"
    reference = "negative control (Theorem 4.4 on min(B, cap) with an uncapped Delta_G)"

    def distance(self, x_i, B, *, beta, k=None, cap=None):
        return mdd_dp(x_i, B, beta)


class StalledSamplerDP(OptimalDP):
    label = "DP, sampler whose Bernoulli(exp(-gamma)) never stops (broken)"
    reference = "negative control (Theorem 4.4, CKS Algorithm 1 with an always-true Bernoulli(gamma / K))"

    def sample(self, x_i, B, *, beta, k, eps, rng, n_trials, cap=None) -> np.ndarray:
        check_rng(rng)
        n = check_trials(n_trials) * np.size(x_i)
        cks_algorithm1(n, lambda active, K: np.ones(active.size, dtype=bool))  # raises: it never stops
        raise AssertionError("unreachable: CKS Algorithm 1 never stops here")


PAPER_A: dict[str, tuple[type[Mechanism], str]] = {
    "sp_L_plus_1": (SPLPlusOne, "SP with Delta = L + 1 (one step too far): must fail on G_S(k)"),
    "optimal_dp_float_sampler": (
        FloatSamplerDP, "optimal DP sampled with rng.random() < p (the pre-fix sampler): its realised law must fail"),
    "laplace_count_half_noise": (LaplaceHalfNoise, "count baseline with DLap(2 eps) claimed eps-DP: must fail on G"),
    "optimal_dp_optimistic_probs": (
        OptimisticProbs, "optimal DP whose reported law (probs) is at 2 eps: the tables' errors must match the "
                         "exact law"),
    "optimal_dp_uncapped_distance": (
        UncappedDistance, "optimal DP on capped counts min(B, cap) with Delta_G not capped: must fail on G"),
    "optimal_dp_stalled_sampler": (
        StalledSamplerDP, "optimal DP whose sampler's loop never stops: must fail (stalled), not hang"),
}
"""Paper A's negative controls: name -> (factory, what the harness must see)."""


def budget_switch_bound(X: np.ndarray, k: int, r: float, beta: float, max_work: int, fast_exact_max: int = 0) -> float:
    """NOT a smooth bound: Algorithm 2 when its work fits ``max_work``, else the fast bound. Each branch is
    beta-smooth; the data-dependent switch is not (S(X) can jump by far more than e^beta between neighbours:
    17.5 vs 25.0 on the 3-D cube pair of :func:`privanomaly.outliers.audit_worlds.cube_pair`)."""
    try:
        return float(ol.algorithm2(X, k, r, beta, max_work=max_work).value)
    except ol.WorkBudgetExceeded:
        return float(ol.block_smooth_bound(X, k, r, beta, exact_max=fast_exact_max).value)


class GaussianBudgetSwitch(GaussianSmooth):
    """Theorem 2 with :func:`budget_switch_bound` (a data-dependent choice between two smooth bounds: not DP)."""

    def __init__(self, max_work: int = 50):
        super().__init__("paper")
        self.max_work = max_work  # the budget of the switch: Algorithm 2 within it, else the block bound
        self.bound = "budget_switch"
        self.label = "Gaussian (smooth sensitivity, budget_switch)"
        self.reference = "Theorem 2 with Algorithm 2 within a work budget, else the block bound (NOT smooth)"

    def smooth_bound(self, X, k, r, beta) -> float:
        return budget_switch_bound(X, k, r, beta, self.max_work)

    def claim(self, *, eps, delta=DEFAULT_DELTA, **_) -> Claim:
        return Claim(eps, delta, self.neighbours, proven=False, note="data-dependent choice of bound: not DP")


class GaussianHalfSigmaSampler(GaussianGlobal):
    """Negative control: Theorem 1 with the GS upper bound whose *sampler* draws with sigma / 2 while its law
    and claim say sigma (a sampler that does not sample its stated law; only the goodness-of-fit check on the
    sampler can see it - the exhaustive checks use the stated sigma)."""

    def __init__(self):
        super().__init__("upper")
        self.label = "Gaussian (GS upper bound), sampler with sigma / 2 (broken)"
        self.reference = "negative control (Theorem 1, sampler with half the stated sigma)"

    def sample(self, X, *, k, r, eps, delta, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        mean, sigma = self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta)
        return ol.gaussian_release(mean, sigma / 2, check_rng(rng), check_trials(n_trials))


class GaussianLowerClaimedProven(GaussianGlobal):
    """Negative control: Theorem 1 with the GS *lower* bound min(N, 2dk + 1) of eq. (18) (the sigma_Global of
    the paper's Figs. 3-4) claimed as (eps, delta)-DP. In 2-D, GS_2 = 5k + 1 > 4k + 1: the pentagon world of
    :mod:`privanomaly.outliers.audit_worlds` changes the count by 6 > 5 (k = 1)."""

    def __init__(self):
        super().__init__("lower")
        self.label = "Gaussian (GS lower bound) claimed proven (broken)"
        self.reference = "negative control (Theorem 1 with the GS lower bound of eq. 18, claimed as a proof)"

    def claim(self, *, eps, delta=DEFAULT_DELTA, **_) -> Claim:
        return Claim(eps, delta, self.neighbours, note="a GS lower bound taken for a proof")


class GaussianK3Short(GaussianGlobal):
    """Negative control: Theorem 1 with GS^UB = min(N, k K_d + 1) taken with K_3 = 11 instead of 12 (a kissing
    number one short; every other d as it is). Only a 3-D world where the count jumps by 12k + 1 sees it."""

    def __init__(self):
        super().__init__("upper")
        self.gs = lambda N, d, k: min(int(N), int(k) * 11 + 1) if int(d) == 3 else ol.gs_upper(N, d, k)
        self.label = "Gaussian (GS upper bound with K_3 = 11) (broken)"
        self.reference = "negative control (Theorem 1 with Theorem 4's bound at K_3 = 11)"


class GaussianTheorem2Misread(GaussianSmooth):
    """Negative control: Theorem 2 (Algorithm 2's bound) with (alpha, beta) scaled from the printed ones, in its
    release and in its own checks alike - what a wrong constant in :mod:`privanomaly.outliers.gaussian` does."""

    def __init__(self, alpha_scale: float = 1.0, beta_scale: float = 1.0):
        super().__init__("paper")
        self.alpha_scale, self.beta_scale = float(alpha_scale), float(beta_scale)
        self.label = f"Gaussian (smooth, Theorem 2 with alpha x {alpha_scale:g}, beta x {beta_scale:g}) (broken)"
        self.reference = "negative control (Theorem 2 with misread constants)"

    def theorem2(self, eps: float, delta: float) -> tuple[float, float]:
        alpha, beta = super().theorem2(eps, delta)
        return alpha * self.alpha_scale, beta * self.beta_scale


class TopHDoubleRateSampler(TopH):
    """Negative control: Algorithm 3 whose sampler draws at 2 eps while its law and claim say eps."""

    label = "exponential top-h, sampler at 2 eps (broken)"
    reference = "negative control (Algorithm 3, sampler at twice the stated eps)"

    def sample(self, utility, *, h, eps, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        return super().sample(utility, h=h, eps=2 * eps, rng=rng, n_trials=n_trials)


def paper_b_controls() -> dict[str, Mechanism]:
    """Paper B's negative controls, by name (fresh instances): the data-dependent budget switch (Algorithm 2
    within a work budget of 50, else the fast bound), a Gaussian whose sampler uses half its stated sigma, a
    top-h whose sampler runs at twice its stated eps, a Gaussian on the GS lower bound claimed proven, one on
    Theorem 4's bound with K_3 = 11, and two smooth Gaussians with Theorem 2's alpha or beta misread."""
    m = GaussianBudgetSwitch(max_work=50)
    m.name = "gaussian_smooth_budget_switch"
    half = GaussianHalfSigmaSampler()
    half.name = "gaussian_gs_upper_half_sigma_sampler"
    double = TopHDoubleRateSampler()
    double.name = "exp_top_h_double_rate_sampler"
    lower = GaussianLowerClaimedProven()
    lower.name = "gaussian_gs_lower_claimed_proven"
    k3 = GaussianK3Short()
    k3.name = "gaussian_gs_upper_k3_11"
    alpha = GaussianTheorem2Misread(alpha_scale=1.25)
    alpha.name = "gaussian_smooth_alpha_misread"
    beta = GaussianTheorem2Misread(beta_scale=2.0)
    beta.name = "gaussian_smooth_beta_misread"
    return {c.name: c for c in (m, half, double, lower, k3, alpha, beta)}
