"""Negative controls of paper A: broken mechanisms the harness must catch (each one a known failure mode).

* ``sp_L_plus_1`` — SP with L + 1 in place of L: overstates the distance to a label flip by one step.
* ``optimal_dp_float_sampler`` — the pre-fix sampler ``rng.random() < p``: its realised law is
  P(1) = ceil(p 2^53) / 2^53 (``random()`` returns k / 2^53), which breaks the ratio where p is tiny
  (issue 12 item 5: 1.81 e^eps at eps = 0.1). Only the exact check can see this; sampling cannot.
* ``laplace_count_half_noise`` — the count baseline run with DLap(2 eps) (half the noise) but claiming eps.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from privanomaly.mechanisms.exact import ExactDist, QRat
from privanomaly.mechanisms.paper_a import LaplaceCount, OptimalDP, SPConstruction1
from privanomaly.sp.mdd import mdd_sp_lower

from .harness import negative_control

__all__ = ["SPLPlusOne", "FloatSamplerDP", "LaplaceHalfNoise"]


@negative_control("sp_L_plus_1", "SP with Delta = L + 1 (one step too far): must fail on G_S(k)")
class SPLPlusOne(SPConstruction1):
    label = "SP with L + 1 (broken)"
    reference = "negative control (Construction 1 with L + 1)"

    def distance(self, x_i, B, *, beta, k, cap=None):
        return mdd_sp_lower(x_i, B, beta, k, cap=cap) + 1


@negative_control("optimal_dp_float_sampler",
                  "optimal DP sampled with rng.random() < p (the pre-fix sampler): its realised law must fail")
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


@negative_control("laplace_count_half_noise", "count baseline with DLap(2 eps) claimed eps-DP: must fail on G")
class LaplaceHalfNoise(LaplaceCount):
    label = "Laplace (count), half the noise (broken)"
    reference = "negative control (Laplace count at 2 eps)"

    def probs(self, x_i, B, *, beta, k=None, eps, cap=None):
        return super().probs(x_i, B, beta=beta, k=k, eps=2 * eps, cap=cap)

    def exact_distribution(self, x_i: int, B: int, *, beta, k=None, eps, cap=None) -> ExactDist:
        return super().exact_distribution(x_i, B, beta=beta, k=k, eps=2 * eps, cap=cap)

    def sample(self, x_i, B, *, beta, k=None, eps, rng, n_trials, cap=None) -> np.ndarray:
        return super().sample(x_i, B, beta=beta, k=k, eps=2 * eps, rng=rng, n_trials=n_trials, cap=cap)
