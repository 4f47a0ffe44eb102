"""Exact discrete Laplace (two-sided geometric) noise: closed-form tails and an exact integer sampler.

DLap(a) for a rational a > 0 has P(Z = z) = (1 - p)/(1 + p) * p^|z| with p = exp(-a); it is the
"discrete Laplace with scale 1/a". Adding DLap(eps) to an integer query of sensitivity 1 is eps-DP
(P(z)/P(z +- 1) <= e^eps). Floating-point Laplace noise leaks through its low-order bits
(Mironov, CCS 2012); this sampler works on integers only: it is Algorithm 2 of Canonne, Kamath and
Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), driven by exact uniform
integers from a ``numpy.random.Generator`` (Lemire's unbiased bounded integers) and vectorised over
all samples by rejection rounds. The rate a must be rational: a float eps is replaced by
``Fraction(eps).limit_denominator(2**30)`` (:func:`rational_rate`), and the closed-form
probabilities use the same rational value, so sampler and formulas describe the same distribution.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = [
    "rational_rate",
    "dlap_pmf",
    "dlap_sf",
    "dlap_diff_pmf",
    "dlap_diff_sf",
    "sample_dlap",
    "bernoulli_exp",
]

MAX_DENOMINATOR = 2**30


def rational_rate(a) -> Fraction:
    """The rational rate actually used for DLap(a): ``Fraction(a).limit_denominator(2**30)``."""
    if isinstance(a, Fraction):
        f = a
    else:
        af = float(a)
        if not np.isfinite(af) or af <= 0:
            raise ValueError(f"the discrete Laplace rate must be finite and > 0, got {a!r}")
        f = Fraction(af).limit_denominator(MAX_DENOMINATOR)
    if f <= 0:
        raise ValueError(f"the discrete Laplace rate must be > 0, got {a!r}")
    return f


def _p(a) -> float:
    return float(np.exp(-float(rational_rate(a))))


def dlap_pmf(z, a) -> np.ndarray:
    """P(Z = z) for Z ~ DLap(a)."""
    p = _p(a)
    z = np.abs(np.asarray(z, dtype=np.int64))
    return (1 - p) / (1 + p) * p ** z.astype(float)


def dlap_sf(n, a) -> np.ndarray:
    """P(Z >= n) for Z ~ DLap(a) (also = P(Z <= -n) by symmetry). Exact closed form.

    n >= 1: p^n / (1 + p);   n <= 0: 1 - p^(1 - n) / (1 + p).
    """
    p = _p(a)
    n = np.asarray(n, dtype=np.int64)
    pos = p ** np.maximum(n, 1).astype(float) / (1 + p)
    neg = 1.0 - p ** np.maximum(1 - n, 1).astype(float) / (1 + p)
    return np.where(n >= 1, pos, neg)


def dlap_diff_pmf(w, a) -> np.ndarray:
    """P(W = w) for W = Z1 - Z2, Z1, Z2 iid DLap(a): c^2 p^|w| ((1 + p^2)/(1 - p^2) + |w|), c = (1-p)/(1+p)."""
    p = _p(a)
    c = (1 - p) / (1 + p)
    A = (1 + p * p) / (1 - p * p)
    w = np.abs(np.asarray(w, dtype=np.int64)).astype(float)
    return c * c * p**w * (A + w)


def dlap_diff_sf(n, a) -> np.ndarray:
    """P(W >= n) for W = Z1 - Z2 (Z1, Z2 iid DLap(a)). Exact closed form.

    n >= 1: c^2 p^n ((A + n)/(1 - p) + p/(1 - p)^2) with A = (1 + p^2)/(1 - p^2);
    n <= 0: 1 - P(W >= 1 - n) (symmetry of W).
    """
    p = _p(a)
    c = (1 - p) / (1 + p)
    A = (1 + p * p) / (1 - p * p)

    def tail(m):
        m = m.astype(float)
        return c * c * p**m * ((A + m) / (1 - p) + p / (1 - p) ** 2)

    n = np.asarray(n, dtype=np.int64)
    pos = tail(np.maximum(n, 1))
    neg = 1.0 - tail(np.maximum(1 - n, 1))
    return np.where(n >= 1, pos, neg)


# ----------------------------------------------------------------------------------------- sampler


def _bernoulli_frac(rng: np.random.Generator, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Exact Bernoulli(num/den) for integer arrays 0 <= num <= den, den >= 1."""
    return rng.integers(0, den, dtype=np.int64) < num


def bernoulli_exp(rng: np.random.Generator, num: np.ndarray, den: int) -> np.ndarray:
    """Exact Bernoulli(exp(-num/den)) for integers 0 <= num <= den (CKS 2020, Algorithm 1, gamma <= 1).

    K = 1; repeat: A ~ Bernoulli(gamma / K); stop if A = 0; K += 1. Return K odd.
    """
    num = np.asarray(num, dtype=np.int64)
    out = np.empty(num.size, dtype=bool)
    num_f = num.reshape(-1)
    K = np.ones(num.size, dtype=np.int64)
    active = np.arange(num.size)
    while active.size:
        a = _bernoulli_frac(rng, num_f[active], den * K[active])
        done = active[~a]
        out[done] = (K[done] % 2) == 1
        cont = active[a]
        K[cont] += 1
        active = cont
    return out.reshape(num.shape)


def sample_dlap(a, size, rng: np.random.Generator) -> np.ndarray:
    """Exact samples of DLap(a) (P(Z = z) proportional to exp(-a |z|)), a rational > 0, as int64.

    CKS 2020 Algorithm 2 with a = s/t: U ~ Unif{0..t-1}, accept with prob exp(-U/t); V ~ Geometric
    (failures before a Bernoulli(exp(-1)) failure); X = U + tV; Y = floor(X/s); B ~ Bernoulli(1/2);
    reject (B = 1, Y = 0); return (1 - 2B) Y. Rejected draws are redrawn (vectorised rounds).
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator")
    f = rational_rate(a)
    s, t = f.numerator, f.denominator
    shape = (size,) if np.isscalar(size) else tuple(size)
    n = int(np.prod(shape))
    out = np.empty(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        U = rng.integers(0, t, size=m, dtype=np.int64)
        D = bernoulli_exp(rng, U, t)
        # V: count successes of Bernoulli(exp(-1)) until the first failure
        V = np.zeros(m, dtype=np.int64)
        act = np.arange(m)
        while act.size:
            A = bernoulli_exp(rng, np.ones(act.size, dtype=np.int64), 1)
            V[act[A]] += 1
            act = act[A]
        X = U + t * V
        Y = X // s
        Bs = rng.integers(0, 2, size=m, dtype=np.int64)
        ok = D & ~((Bs == 1) & (Y == 0))
        out[todo[ok]] = ((1 - 2 * Bs) * Y)[ok]
        todo = todo[~ok]
    return out.reshape(shape)
