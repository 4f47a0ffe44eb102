"""Exact discrete Laplace (two-sided geometric) noise: closed-form tails and an exact integer sampler.

DLap(a) for a rational a > 0 has P(Z = z) = (1 - p)/(1 + p) * p^|z| with p = exp(-a); it is the
"discrete Laplace with scale 1/a". Adding DLap(eps) to an integer query of sensitivity 1 is eps-DP
(P(z)/P(z +- 1) <= e^eps). Floating-point Laplace noise leaks through its low-order bits
(Mironov, CCS 2012); this sampler works on integers only: it is Algorithm 2 of Canonne, Kamath and
Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), driven by exact uniform
integers from a ``numpy.random.Generator`` (Lemire's unbiased bounded integers) and vectorised over
all samples by rejection rounds. The rate a must be rational: a float eps is replaced by the best
rational approximation *from below* (:func:`rational_rate`; never above eps, relative error <= 2^-29),
and the closed-form probabilities use the same rational value, so sampler and formulas describe the
same distribution and the privacy actually spent is the rate used, never more than asked.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from .loop_budget import Rounds, factorial_budget, geometric_budget

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
"""Denominator bound of :func:`rational_rate` for rates >= 1/2 (smaller rates get proportionally larger ones)."""
MAX_DENOMINATOR_BITS = 50
"""Hard bound 2^50 on the denominator: keeps every integer of the samplers far inside int64."""


def _best_lower(x: Fraction, max_den: int) -> Fraction:
    """The largest fraction p/q <= x with q <= max_den (best one-sided approximation, Stern–Brocot).

    ``Fraction.limit_denominator`` computes the two best one-sided approximations and returns the closer;
    here the one from below is kept, whichever is closer.
    """
    if x.denominator <= max_den:
        return x
    p0, q0, p1, q1 = 0, 1, 1, 0
    n, d = x.numerator, x.denominator
    while True:
        a = n // d
        q2 = q0 + a * q1
        if q2 > max_den:
            break
        p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
        n, d = d, n - a * d
    k = (max_den - q0) // q1
    bounds = (Fraction(p0 + k * p1, q0 + k * q1), Fraction(p1, q1))
    return max(b for b in bounds if b <= x)


def rational_rate(a) -> Fraction:
    """The rational rate actually used for DLap(a): the largest p/q <= a with q <= max(2^30, 2^(30-e)), a = m 2^e.

    Always rounds *down* (the privacy spent never exceeds the ``a`` asked for) and keeps a relative
    precision of 2^-29 for every a >= 2^-20 (about 1e-6); for smaller a the denominator stops at 2^50,
    so rates below 2^-50 (about 9e-16) are rejected with a clear error. A ``Fraction`` is used as given.
    """
    if isinstance(a, Fraction):
        f = a
    else:
        af = float(a)
        if not np.isfinite(af) or af <= 0:
            raise ValueError(f"the discrete Laplace rate must be finite and > 0, got {a!r}")
        _, e = math.frexp(af)  # af = m 2^e, 0.5 <= m < 1
        bits = min(MAX_DENOMINATOR_BITS, max(30, 30 - e))
        f = _best_lower(Fraction(af), 2**bits)
        if f <= 0:
            raise ValueError(
                f"the discrete Laplace rate {a!r} is below 2^-{MAX_DENOMINATOR_BITS}, the smallest rational rate "
                "the exact sampler supports"
            )
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


def _bernoulli_frac(rng: np.random.Generator, num: np.ndarray, den: np.ndarray | int) -> np.ndarray:
    """Exact Bernoulli(num/den) for integer arrays 0 <= num <= den, den >= 1 (``den`` an array like ``num``, or one
    integer for all: ``rng.integers`` draws the same integers from the same stream for a scalar bound as for an
    array of that bound, tests/test_dlap_stream.py, with less work)."""
    return rng.integers(0, den, size=np.shape(num), dtype=np.int64) < num


_INT64_SAFE = 2**62


def cks_algorithm1(n: int, bernoulli_ratio: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """CKS 2020, Algorithm 1: exact Bernoulli(exp(-gamma_i)) for n rationals gamma_i in [0, 1].

    K = 1; repeat: A ~ Bernoulli(gamma / K); stop if A = 0; K += 1. Return K odd. ``bernoulli_ratio(active,
    K)`` draws Bernoulli(gamma_i / K_i) for the still-running indices ``active`` (ascending) and their K (every
    running draw is in the same round, so the K_i are all equal); it is the only place the representation of
    gamma enters (int64 here, big ``Fraction`` digits in
    :class:`privanomaly.outliers.exact_random.ExpBernoulliTable`).
    """
    out = np.empty(n, dtype=bool)
    active = np.arange(n)
    rounds = Rounds("CKS Algorithm 1 (exact Bernoulli(exp(-gamma)))", factorial_budget(n),
                    "a draw goes on past round K with probability gamma^K / K! <= 1 / K!")
    K = 1
    while active.size:
        a = bernoulli_ratio(active, np.full(active.size, K, dtype=np.int64))
        out[active[~a]] = K % 2 == 1
        active = active[a]
        K += 1
        rounds.tick(active.size)
    return out


def _bernoulli_exp_le1(rng: np.random.Generator, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Exact Bernoulli(exp(-num/den)) for integer arrays 0 <= num <= den (:func:`cks_algorithm1`, int64); a ``den``
    equal for all draws is one bound (:func:`_bernoulli_frac`)."""
    d0 = int(den[0]) if den.size else 1
    same_den = bool((den == d0).all())

    def ratio(active: np.ndarray, K: np.ndarray) -> np.ndarray:
        k = int(K[0])  # every running draw is in round K (cks_algorithm1)
        if (d0 if same_den else int(den[active].max())) * k >= _INT64_SAFE:
            raise OverflowError("bernoulli_exp: den * K would leave int64 (denominator too large)")
        return _bernoulli_frac(rng, num[active], d0 * k if same_den else den[active] * k)

    return cks_algorithm1(num.size, ratio)


def exp_minus_whole(rng: np.random.Generator, whole: np.ndarray) -> np.ndarray:
    """Exact Bernoulli(exp(-w)) for integers w >= 0: w independent Bernoulli(exp(-1)) draws must all be 1
    (drawn round by round, each element stopping at its first failure)."""
    ok = np.ones(whole.size, dtype=bool)
    j = 0
    rounds = Rounds("exact Bernoulli(exp(-w)), w whole", geometric_budget(whole.size, math.exp(-1.0)),
                    "a draw stays alive through a round with probability exp(-1)")
    while True:
        live = np.flatnonzero(ok & (whole > j))
        if live.size == 0:
            return ok
        rounds.tick(live.size, step=0 if j == 0 else 1)
        one = np.ones(live.size, dtype=np.int64)
        ok[live] = _bernoulli_exp_le1(rng, one, one)
        j += 1


def bernoulli_exp(rng: np.random.Generator, num, den) -> np.ndarray:
    """Exact Bernoulli(exp(-gamma)) for rational gamma = num/den >= 0 (integers; CKS 2020, Algorithm 1).

    gamma <= 1: Algorithm 1 directly. gamma > 1: floor(gamma) independent Bernoulli(exp(-1)) draws must
    all be 1, and then a Bernoulli(exp(-(gamma - floor(gamma)))) (exp(-gamma) = exp(-1)^q exp(-rem/den)).
    No floating-point number is involved. Elements with gamma <= 1 use exactly the draws of Algorithm 1.
    """
    num = np.asarray(num, dtype=np.int64)
    shape = num.shape
    num_f = num.reshape(-1)
    den_f = np.broadcast_to(np.asarray(den, dtype=np.int64), shape).reshape(-1)
    if np.any(num_f < 0) or np.any(den_f < 1):
        raise ValueError("bernoulli_exp needs num >= 0 and den >= 1")
    small = num_f <= den_f
    out = np.empty(num_f.size, dtype=bool)
    if small.all():
        out[:] = _bernoulli_exp_le1(rng, num_f, den_f)
        return out.reshape(shape)
    idx = np.flatnonzero(small)
    out[idx] = _bernoulli_exp_le1(rng, num_f[idx], den_f[idx])
    big = np.flatnonzero(~small)
    q, rem = np.divmod(num_f[big], den_f[big])
    ok = exp_minus_whole(rng, q)
    live = np.flatnonzero(ok)
    if live.size:
        ok[live] = _bernoulli_exp_le1(rng, rem[live], den_f[big][live])
    out[big] = ok
    return out.reshape(shape)


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
    p_acc = _dlap_acceptance(s, t)
    rounds = Rounds(f"discrete Laplace sampler (rate {s}/{t})", geometric_budget(n, 1.0 - p_acc),
                    f"a round accepts a draw with probability {p_acc:.4g}")
    while todo.size:
        m = todo.size
        U = rng.integers(0, t, size=m, dtype=np.int64)
        D = bernoulli_exp(rng, U, t)
        # V: count successes of Bernoulli(exp(-1)) until the first failure
        V = np.zeros(m, dtype=np.int64)
        act = np.arange(m)
        geometric = Rounds(f"discrete Laplace sampler (rate {s}/{t}), geometric part V",
                           geometric_budget(m, math.exp(-1.0)), "V goes on with probability exp(-1) per step")
        while act.size:
            A = bernoulli_exp(rng, np.ones(act.size, dtype=np.int64), 1)
            V[act[A]] += 1
            act = act[A]
            geometric.tick(act.size)
        X = U + t * V
        Y = X // s
        Bs = rng.integers(0, 2, size=m, dtype=np.int64)
        ok = D & ~((Bs == 1) & (Y == 0))
        out[todo[ok]] = ((1 - 2 * Bs) * Y)[ok]
        todo = todo[~ok]
        rounds.tick(todo.size)
    return out.reshape(shape)


def _dlap_acceptance(s: int, t: int) -> float:
    """The probability that one round of :func:`sample_dlap` at rate s/t accepts (a slightly smaller float):
    P(D = 1) = (1 - e^-1) / (t (1 - e^(-1/t))) (X = U + tV is geometric with ratio e^(-1/t) given D = 1),
    times 1 - P(B = 1) P(Y = 0) = 1 - (1 - e^(-s/t)) / 2. At least (1 - e^-1) / 2 = 0.316."""
    p_d = -math.expm1(-1.0) / (t * -math.expm1(-1.0 / t))
    return min(1.0, p_d) * (1.0 + math.exp(-s / t)) / 2.0 * (1.0 - 1e-9)
