"""Paper A's mechanisms for the anomaly identification query, registered by name.

=====================  ===================================  ==============  ==========================
registry name          paper A                              neighbours      claim at parameter eps
=====================  ===================================  ==============  ==========================
optimal_dp             Theorem 4.4 (Construction 1, Delta_G) add_remove (G)  a-DP, a = rate(eps) <= eps
sp                     Construction 1 with L (Theorem 4.6)  sensitive_k     (a, k)-SP
compiler               Construction 2 (Theorem 4.7)         sensitive_k     (a, k)-SP
laplace_count          Sec. 5 baseline: B + Lap <= beta     add_remove (G)  a-DP
laplace_noisy_threshold Sec. 5 baseline: noisy threshold    add_remove (G)  a2-DP, a2 = rate(eps/2): eps/2
=====================  ===================================  ==============  ==========================

The formulas are those of :mod:`privanomaly.sp.mechanisms` / :mod:`privanomaly.sp.mdd` (float, vectorised)
evaluated at the rational rate a = :func:`privanomaly.sp.rational_rate` (eps) that the samplers use; the
exact laws (:class:`~.exact.QRat` in q = exp(-a)) are what the audit proves the claims on.

Exact sampling (no float comparison draws an output):

* Construction 1 errs with e^(-a Delta) / (1 + e^(-a)) = P(Z >= Delta), Z ~ DLap(a) (the discrete Laplace
  tail, :func:`privanomaly.sp.dlap_sf`): draw Z with the integer sampler and answer wrongly iff Z >= Delta.
* Construction 2 errs with P(M errs) e^(-a delta / 4): M (Construction 1 with Delta_G at rate a/2) errs as
  above, and the error is kept with an exact Bernoulli(exp(-a delta / 4)) (:func:`privanomaly.sp.dlap.bernoulli_exp`).
* The Laplace baselines add integer DLap noise to the (capped) ball count.

Capped counts: with ``cap``, B is min(B, cap). The mdd-based mechanisms use min(Delta, cap - beta), still a
1-Lipschitz lower bound (:mod:`privanomaly.sp.mdd`), so their claims hold unchanged. The Laplace baselines
are then the Laplace mechanism on the capped count min(B, cap) — also sensitivity 1 on G, so the same
claim — and every probability reported is that mechanism's own (not the uncapped one's).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from privanomaly.sp import dlap
from privanomaly.sp import mechanisms as spm
from privanomaly.sp._util import as_int_array
from privanomaly.sp.mdd import compiler_delta, is_anomaly, mdd_dp, mdd_sp_lower

from .base import AIQMechanism, Claim, check_rng, check_trials
from .exact import ExactDist, QRat
from .registry import register

__all__ = [
    "Construction1",
    "OptimalDP",
    "SPConstruction1",
    "Compiler",
    "LaplaceCount",
    "LaplaceNoisyThreshold",
    "construction1_exact",
]


def _truth(x_i, B, beta) -> np.ndarray:
    return np.asarray(is_anomaly(x_i, B, beta)).astype(bool)


@lru_cache(maxsize=None)
def _error_and_correct(err_power: int, den_power: int) -> tuple[QRat, QRat]:
    """(q^err_power / (1 + q^den_power), 1 - that)."""
    err = QRat.make({err_power: 1}, {0: 1, den_power: 1})
    return err, QRat.const(1) - err


def construction1_exact(g: int, delta: int, theta: Fraction, power: int = 1) -> ExactDist:
    """Construction 1's law with q = exp(-theta): errs with q^(power*delta) / (1 + q^power)."""
    err, ok = _error_and_correct(power * int(delta), power)
    return ExactDist(Fraction(theta), (err, ok) if g else (ok, err))


def _flip(g: np.ndarray, wrong: np.ndarray) -> np.ndarray:
    return (g[None, :] ^ wrong).astype(np.int8)


def _records(x_i, B) -> tuple[np.ndarray, np.ndarray]:
    x = np.atleast_1d(as_int_array(x_i, "x_i"))
    b = np.atleast_1d(as_int_array(B, "B"))
    x, b = np.broadcast_arrays(x, b)
    if x.ndim != 1:
        raise ValueError("x_i and B must be 1-D (one value per record)")
    return x, b


class Construction1(AIQMechanism):
    """Construction 1 (paper A, Sec. 4) for a 1-Lipschitz lower bound Delta >= 1 of the mdd.

    P(M(x) != g(i, x)) = e^(-a Delta(i, x)) / (1 + e^(-a)); subclasses choose Delta (:meth:`distance`).
    """

    paper = "A"

    def distance(self, x_i, B, *, beta, k, cap=None) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def rate(self, eps) -> Fraction:
        return dlap.rational_rate(eps)

    def claim(self, *, eps, beta=None, k=None, cap=None) -> Claim:
        a = self.rate(eps)
        return Claim(float(a), 0.0, self.neighbours, a, note=self.reference)

    def probs(self, x_i, B, *, beta, k, eps, cap=None):
        err = spm.construction1_error(self.distance(x_i, B, beta=beta, k=k, cap=cap), float(self.rate(eps)))
        g = _truth(x_i, B, beta)
        return np.where(g, err, 1.0 - err), np.where(g, 1.0 - err, err)

    def exact_distribution(self, x_i: int, B: int, *, beta, k, eps, cap=None) -> ExactDist:
        d = int(self.distance(x_i, B, beta=beta, k=k, cap=cap))
        return construction1_exact(int(_truth(x_i, B, beta)), d, self.rate(eps))

    def sample(self, x_i, B, *, beta, k, eps, rng, n_trials, cap=None) -> np.ndarray:
        check_rng(rng)
        x, b = _records(x_i, B)
        d = self.distance(x, b, beta=beta, k=k, cap=cap)
        z = dlap.sample_dlap(self.rate(eps), (check_trials(n_trials), x.size), rng)
        return _flip(_truth(x, b, beta), z >= d[None, :])


@register("optimal_dp")
class OptimalDP(Construction1):
    """The Pareto-optimal eps-DP mechanism (Theorem 4.4): Construction 1 with Delta_G."""

    label = "DP"
    reference = "Theorem 4.4 (Construction 1 with Delta_G)"
    neighbours = "add_remove"

    def distance(self, x_i, B, *, beta, k=None, cap=None):
        return mdd_dp(x_i, B, beta, cap=cap)


@register("sp")
class SPConstruction1(Construction1):
    """The (eps, k)-SP mechanism: Construction 1 on the lower bound L of Delta_GS (Lemma 4.5, Theorem 4.6)."""

    label = "SP"
    reference = "Construction 1 with L (Lemma 4.5, Theorem 4.6)"
    neighbours = "sensitive_k"

    def distance(self, x_i, B, *, beta, k, cap=None):
        return mdd_sp_lower(x_i, B, beta, k, cap=cap)


@register("compiler")
class Compiler(AIQMechanism):
    """Construction 2 (Theorem 4.7): compiles the eps/2-DP optimal mechanism into an (eps, k)-SP one.

    P(U(x) != g) = P(M(x) != g) e^(-a delta(i, x) / 4), delta = L - Delta_G, M = Construction 1 with Delta_G
    at rate a/2 (valid in the sense of Eq. 9, :func:`privanomaly.sp.valid_error_bound`).
    """

    label = "Compiler"
    paper = "A"
    reference = "Construction 2 (Theorem 4.7)"
    neighbours = "sensitive_k"
    # the input runs at a/2, and the gain e^(-a δ/4) of an anomaly whose L the cap cuts falls at a/4 per unit
    noise_share = 0.25

    def claim(self, *, eps, beta=None, k=None, cap=None) -> Claim:
        a = dlap.rational_rate(eps)
        return Claim(float(a), 0.0, self.neighbours, a,
                     note="Construction 2 on the a/2-DP optimal mechanism (Theorem 4.4), a = rate(eps)")

    def probs(self, x_i, B, *, beta, k, eps, cap=None):
        a = dlap.rational_rate(eps)
        inner = spm.optimal_dp_error(x_i, B, beta, float(a / 2), cap=cap)
        err = spm.compiled_error(inner, x_i, B, beta, k, float(a), cap=cap)
        g = _truth(x_i, B, beta)
        return np.where(g, err, 1.0 - err), np.where(g, 1.0 - err, err)

    def exact_distribution(self, x_i: int, B: int, *, beta, k, eps, cap=None) -> ExactDist:
        a = dlap.rational_rate(eps)
        d_g = int(mdd_dp(x_i, B, beta, cap=cap))
        delta = int(compiler_delta(x_i, B, beta, k, cap=cap))
        # q = exp(-a/4): the input errs with q^(2 Delta_G) / (1 + q^2), the compiler keeps it with q^delta
        err, ok = _error_and_correct(2 * d_g + delta, 2)
        return ExactDist(a / 4, (err, ok) if _truth(x_i, B, beta) else (ok, err))

    def sample(self, x_i, B, *, beta, k, eps, rng, n_trials, cap=None) -> np.ndarray:
        check_rng(rng)
        x, b = _records(x_i, B)
        n = check_trials(n_trials)
        a = dlap.rational_rate(eps)
        d_g = mdd_dp(x, b, beta, cap=cap)
        delta = compiler_delta(x, b, beta, k, cap=cap)
        z = dlap.sample_dlap(a / 2, (n, x.size), rng)
        inner_wrong = z >= d_g[None, :]
        num = np.broadcast_to(a.numerator * delta, (n, x.size))
        if int(np.max(num, initial=0)) >= 2**62:
            raise OverflowError("compiler sampler: a * delta too large for exact int64 arithmetic")
        keep = dlap.bernoulli_exp(rng, num, 4 * a.denominator)
        return _flip(_truth(x, b, beta), inner_wrong & keep)


@lru_cache(maxsize=None)
def _dlap_tail_exact(n: int) -> QRat:
    """P(Z >= n), Z ~ DLap(theta), as a function of q = exp(-theta)."""
    if n >= 1:
        return QRat.make({n: 1}, {0: 1, 1: 1})
    return QRat.const(1) - _dlap_tail_exact(1 - n)


@lru_cache(maxsize=None)
def _dlap_diff_tail_exact(n: int) -> QRat:
    """P(Z1 - Z2 >= n), Z1, Z2 iid DLap(theta): q^n [1 + q^2 + (n(1-q) + q)(1+q)] / (1+q)^3 for n >= 1."""
    if n <= 0:
        return QRat.const(1) - _dlap_diff_tail_exact(1 - n)
    one_q = QRat.make({0: 1, 1: 1})
    inner = QRat.make({0: 1, 2: 1}) + (QRat.make({0: n, 1: 1 - n}) * one_q)
    return QRat.q(n) * inner / (one_q ** 3)


@lru_cache(maxsize=None)
def _complement_pair(p1: QRat) -> tuple[QRat, QRat]:
    return QRat.const(1) - p1, p1


class _Laplace(AIQMechanism):
    paper = "A"
    neighbours = "add_remove"
    variant = ""

    def rate(self, eps) -> Fraction:
        return dlap.rational_rate(eps) if self.variant == "count" else dlap.rational_rate(float(eps) / 2.0)

    def claim(self, *, eps, beta=None, k=None, cap=None) -> Claim:
        a = self.rate(eps)
        what = "count" if cap is None else f"capped count min(B, {cap})"
        return Claim(float(a), 0.0, "add_remove", a, note=f"Laplace on the {what}: sensitivity 1 on G")

    @staticmethod
    def _counts(B, cap):
        b = as_int_array(B, "B")
        return b if cap is None else np.minimum(b, as_int_array(cap, "cap"))

    def probs(self, x_i, B, *, beta, k=None, eps, cap=None):
        return spm.laplace_probs(self._counts(B, cap), beta, eps, self.variant)

    def exact_distribution(self, x_i: int, B: int, *, beta, k=None, eps, cap=None) -> ExactDist:
        n = int(self._counts(B, cap)) - int(beta)
        tail = _dlap_tail_exact if self.variant == "count" else _dlap_diff_tail_exact
        return ExactDist(self.rate(eps), _complement_pair(tail(n)))

    def sample(self, x_i, B, *, beta, k=None, eps, rng, n_trials, cap=None) -> np.ndarray:
        check_rng(rng)
        _, b = _records(x_i, B)
        return spm.laplace_sample(self._counts(b, cap), beta, eps, rng, check_trials(n_trials), self.variant)


@register("laplace_count")
class LaplaceCount(_Laplace):
    """Baseline (paper A, Sec. 5): answer 1 iff B + Z <= beta, Z ~ DLap(a): a-DP on G (a = rate(eps) <= eps)."""

    label = "Laplace (count)"
    reference = "Sec. 5 baseline (Laplace mechanism on the ball count)"
    variant = "count"


@register("laplace_noisy_threshold")
class LaplaceNoisyThreshold(_Laplace):
    """Baseline: answer 1 iff B + Z1 <= beta + Z2, Z1, Z2 ~ DLap(eps/2). Only eps/2-DP is claimed (and true):
    B + Z1 alone is eps/2-DP and Z2 is data independent; the threshold noise costs accuracy, buys no privacy."""

    label = "Laplace (noisy threshold)"
    reference = "Sec. 5 baseline (noisy count vs noisy threshold); eps/2-DP"
    variant = "noisy_threshold"
    noise_share = 0.5  # DLap(eps/2) on the count and on the threshold
