r"""Exact Gaussian release for paper B's Gaussian mechanisms: ``q + sigma Z`` rounded to a fixed grid.

Theorems 1 and 2 of paper B are about the continuous release ``Y = q + sigma Z``, Z ~ N(0, 1). A float sampler
(``rng.standard_normal``) does not sample Y: its output is a float whose low-order bits depend on the
sampler's arithmetic (Mironov, CCS 2012). Here Y is sampled *exactly* and released as
``round(Y / GRID) * GRID`` with the public, data-independent grid ``GRID = 2^GRID_EXPONENT``: rounding by a
fixed function is post-processing, so the release keeps Y's (eps, delta) - the claims of Theorems 1-2 carry
over unchanged. (A grid scaled with sigma would leak sigma, which is data-dependent for the smooth-sensitivity
Gaussian; the grid here depends on nothing.) Output law: ``P(j GRID) = Phi(((j + 1/2) GRID - q) / sigma) -
Phi(((j - 1/2) GRID - q) / sigma)`` (:func:`rounded_normal_cdf`); the float returned is ``j GRID`` exactly
whenever ``|j GRID| < 2^(53 + GRID_EXPONENT)`` (2^21, about 2 10^6) and its nearest float beyond.

Z is drawn with Karney's Algorithm N ("Sampling exactly from the normal distribution", ACM TOMS 42(1), 2016,
Sec. 4), using only uniform integers from the ``numpy.random.Generator``:

* N1  k >= 0 with probability ``exp(-k/2) (1 - exp(-1/2))``: count Bernoulli(exp(-1/2)) successes
  (:func:`privanomaly.sp.dlap.bernoulli_exp`, exact);
* N2  accept with probability ``exp(-k (k - 1) / 2)`` (the same exact Bernoulli);
* N3  x uniform on [0, 1), a lazy uniform (:class:`privanomaly.outliers.exact_random.LazyUniforms`);
* N4  accept with probability ``exp(-x (2k + x) / 2)``: k + 1 runs of Algorithm B, each true with probability
  ``exp(-x (2k + x) / (2k + 2))`` (von Neumann's descending-run trick with thinning probability
  ``(2k + x) / (2k + 2)``: C(2k + 2) = -1, 0, 1 w.p. 1/m, 1/m, 1 - 2/m; 0 keeps iff a fresh uniform < x);
  otherwise restart at N1;
* N5  a fair sign s; Z = s (k + x).  (Densities: ``exp(-k/2) exp(-k(k-1)/2) exp(-x(2k+x)/2) = exp(-(k+x)^2/2)``.)

The grid index j is then decided by exact integer comparisons of ``q + sigma s (k + x)`` (q and sigma as
exact dyadic ``Fraction``\ s of the floats given) against the bin edges, refining x digit by digit only when
its known digits leave two bins possible (probability about ``sigma 2^-62 / GRID`` per draw).
No floating-point number decides any step.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.special import ndtr

from privanomaly.sp.dlap import bernoulli_exp
from privanomaly.sp.loop_budget import Rounds, check_tie_digits, factorial_budget, geometric_budget

from .exact_random import DIGIT_BITS, LazyUniforms

__all__ = ["GRID_EXPONENT", "GRID", "sample_standard_normal_parts", "gaussian_release_exact", "rounded_normal_cdf"]

GRID_EXPONENT = -32
"""The release is rounded to multiples of 2^GRID_EXPONENT (public constant; about 2.3e-10)."""
GRID = Fraction(1, 2**-GRID_EXPONENT)
ACCEPTANCE = -math.expm1(-0.5) * math.sqrt(math.pi / 2.0) * (1.0 - 1e-9)
"""Probability that one pass of Algorithm N accepts (slightly rounded down): sum over k of (1 - e^-1/2) e^(-k/2)
e^(-k(k-1)/2) times the integral over [0, 1) of e^(-x(2k + x)/2), i.e. (1 - e^-1/2) times the integral of
e^(-z^2/2) over [0, inf) = (1 - e^-1/2) sqrt(pi/2) = 0.4931."""


def _bernoulli_exp_half(rng: np.random.Generator, num: np.ndarray) -> np.ndarray:
    """Exact Bernoulli(exp(-num / 2)) for an int64 array num >= 0."""
    return bernoulli_exp(rng, num, 2)


def _algorithm_b(rng: np.random.Generator, pool: LazyUniforms, k: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Karney's Algorithm B for each (k_t, x_t): True with probability exp(-x (2k + x) / (2k + 2))."""
    m = k.size
    y = x.copy()
    n = np.zeros(m, dtype=np.int64)
    out = np.empty(m, dtype=bool)
    act = np.arange(m)
    rounds = Rounds("Karney's Algorithm B", factorial_budget(m),
                    "a run of uniforms descends through j steps with probability <= 1/j!")
    while act.size:
        z = pool.new(act.size)
        go = pool.less(z, y[act])  # the run continues while it descends: z < y
        stop = act[~go]
        out[stop] = n[stop] % 2 == 0
        act, z = act[go], z[go]
        c = rng.integers(0, 2 * k[act] + 2, dtype=np.int64)  # C(2k + 2): 0 -> -1 (stop), 1 -> 0, else 1
        keep = c != 0
        zero = np.flatnonzero(c == 1)
        if zero.size:
            keep[zero] = pool.less(pool.new(zero.size), x[act[zero]])
        stop = act[~keep]
        out[stop] = n[stop] % 2 == 0
        act, z = act[keep], z[keep]
        y[act] = z
        n[act] += 1
        rounds.tick(act.size)
    return out


def sample_standard_normal_parts(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                              LazyUniforms]:
    """n exact N(0, 1) draws as their parts ``Z = s (k + x)``: sign s (int64 +-1), integer part k (int64) and
    the id of the lazy uniform x in the returned pool (Karney's Algorithm N, module docstring)."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator (see privanomaly.seeding.rng)")
    pool = LazyUniforms(rng)
    s = np.empty(n, dtype=np.int64)
    kk = np.empty(n, dtype=np.int64)
    xx = np.empty(n, dtype=np.int64)
    todo = np.arange(n)
    passes = Rounds("Karney's Algorithm N (exact normal)", geometric_budget(n, 1.0 - ACCEPTANCE),
                    f"a pass accepts a draw with probability (1 - e^-1/2) sqrt(pi/2) = {ACCEPTANCE:.4f}")
    while todo.size:
        m = todo.size
        k = np.zeros(m, dtype=np.int64)  # N1
        act = np.arange(m)
        steps = Rounds("Karney's Algorithm N, step N1", geometric_budget(m, math.exp(-0.5)),
                       "k goes on with probability exp(-1/2) per step")
        while act.size:
            a = _bernoulli_exp_half(rng, np.ones(act.size, dtype=np.int64))
            act = act[a]
            k[act] += 1
            steps.tick(act.size)
        ok = _bernoulli_exp_half(rng, k * (k - 1))  # N2
        idx = np.flatnonzero(ok)
        x = pool.new(idx.size)  # N3
        good = np.ones(idx.size, dtype=bool)  # N4: k + 1 runs of Algorithm B
        run = 0
        while True:
            live = np.flatnonzero(good & (k[idx] + 1 > run))
            if live.size == 0:
                break
            good[live] = _algorithm_b(rng, pool, k[idx[live]], x[live])
            run += 1
        acc = idx[good]
        dest = todo[acc]
        s[dest] = 1 - 2 * rng.integers(0, 2, size=acc.size, dtype=np.int64)  # N5
        kk[dest] = k[acc]
        xx[dest] = x[good]
        done = np.zeros(m, dtype=bool)
        done[acc] = True
        todo = todo[~done]
        passes.tick(todo.size)
    return s, kk, xx, pool


def _grid_index(q: Fraction, sigma: Fraction, s: np.ndarray, k: np.ndarray, x: np.ndarray,
                pool: LazyUniforms) -> np.ndarray:
    """Exact ``j = floor((q + sigma s (k + x)) / GRID + 1/2)`` per draw (object array of Python ints).

    The same integers as :func:`_grid_index_exact`, faster: t = (q + sigma s (k + x)) / GRID + 1/2 is first
    evaluated in float64 from x's first digit; where t is farther from every integer than a bound on the float
    error plus the width of x's interval (sigma 2^-62 / GRID), floor(t) is the exact j for every x in that
    interval. The few draws within that margin (every draw when the margin is not small, sigma >~ 10^4) go
    through the exact integer path.
    """
    c0, c1 = q / GRID + Fraction(1, 2), sigma / GRID
    f0, f1 = float(c0), float(c1)  # f1 = sigma 2^32 exactly; f0 correctly rounded
    if not (math.isfinite(f0) and math.isfinite(f1)):
        return _grid_index_exact(q, sigma, s, k, x, pool)
    # float error of t below: X -> float, k + u, f1 (k + u), f0 + s (...) and f0 each err by at most 2^-53 of a
    # value <= |f0| + f1 (k + 2), so 2^-50 of that bounds their sum; plus the width of x's interval
    kf = k.astype(np.float64)
    margin = (abs(f0) + f1 * (kf + 2.0)) * 2.0**-50 + f1 * 2.0**-DIGIT_BITS
    u = pool.head[x].astype(np.float64) * 2.0**-DIGIT_BITS
    t = f0 + s * (f1 * (kf + u))
    if not (margin.max(initial=0.0) < 0.25 and np.abs(t).max(initial=0.0) < 2.0**52):
        return _grid_index_exact(q, sigma, s, k, x, pool)
    j = np.floor(t)
    frac = t - j  # exact (Sterbenz) for |t| < 2^52
    near = np.flatnonzero((frac <= margin) | (frac >= 1.0 - margin))
    out = j.astype(np.int64).astype(object)
    if near.size:
        out[near] = _grid_index_exact(q, sigma, s[near], k[near], x[near], pool)
    return out


def _grid_index_exact(q: Fraction, sigma: Fraction, s: np.ndarray, k: np.ndarray, x: np.ndarray,
                pool: LazyUniforms) -> np.ndarray:
    """Exact ``j = floor((q + sigma s (k + x)) / GRID + 1/2)`` per draw (object array of Python ints), in
    integer arithmetic on the known digits of x, refined digit by digit where they leave two bins possible."""
    c0, c1 = q / GRID + Fraction(1, 2), sigma / GRID
    D = max(c0.denominator, c1.denominator)  # both powers of two
    A0, A1 = c0.numerator * (D // c0.denominator), c1.numerator * (D // c1.denominator)
    B = 1 << DIGIT_BITS

    def bounds(X, kb, sgn, B):
        T_lo = A0 * B + sgn * A1 * (kb * B + X)  # t(x_lo) D B
        T_hi = T_lo + sgn * A1  # t(x_hi) D B
        return T_lo, T_hi

    X = pool.head[x].astype(object)
    T_lo, T_hi = bounds(X, k.astype(object), s.astype(object), B)
    DB = D * B
    j = T_lo // DB
    # s = +1: values just below t(x_hi) have floor (T_hi - 1) // DB; s = -1: just above t(x_hi): T_hi // DB
    other = np.where(s > 0, (T_hi - 1) // DB, T_hi // DB)
    # digits of x needed before its interval (width c1 2^(-62 L) in units of the grid) is below one bin: then
    # each further digit leaves two bins possible with probability at most 2^-61
    wide = max(0, -(-max(int(c1).bit_length(), 1) // DIGIT_BITS))
    for t in np.flatnonzero(j != other):  # x's known digits leave two bins possible: refine x exactly
        L = 1
        while True:
            L += 1
            check_tie_digits("exact normal release, grid bin of q + sigma Z", L - 1 - wide)
            Xt = 0
            for d in pool.digits(int(x[t]), L):
                Xt = (Xt << DIGIT_BITS) | d
            BL = 1 << (DIGIT_BITS * L)
            lo, hi = bounds(Xt, int(k[t]), int(s[t]), BL)
            a = lo // (D * BL)
            b = (hi - 1) // (D * BL) if s[t] > 0 else hi // (D * BL)
            if a == b:
                j[t] = a
                break
    return j


def gaussian_release_exact(value: float, sigma: float, rng: np.random.Generator, size: int | None = None):
    """``round((value + sigma Z) / GRID) GRID`` with Z ~ N(0, 1) sampled exactly (module docstring): a float,
    or a float array of ``size`` draws. sigma = 0 releases ``value`` rounded to the grid."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator (see privanomaly.seeding.rng)")
    if not (sigma >= 0 and math.isfinite(sigma)):
        raise ValueError(f"sigma must be a non-negative finite number, got {sigma!r}")
    if not math.isfinite(value):
        raise ValueError(f"value must be finite, got {value!r}")
    n = 1 if size is None else int(size)
    q = Fraction(float(value))
    if sigma == 0:  # nothing to draw (and no bin edge to decide against x)
        j0 = math.floor(q / GRID + Fraction(1, 2))
        j = np.full(n, j0, dtype=object)
    else:
        s, k, x, pool = sample_standard_normal_parts(rng, n)
        j = _grid_index(q, Fraction(float(sigma)), s, k, x, pool)
    # int -> float is correctly rounded (exact below 2^53); scaling by the power of two GRID is exact
    out = j.astype(float) * float(GRID) if n else np.empty(0)
    return float(out[0]) if size is None else out


def rounded_normal_cdf(t, value: float, sigma: float) -> np.ndarray:
    """``P(release <= t)`` for :func:`gaussian_release_exact` (exact law of the rounded Gaussian; floats):
    the largest grid point j GRID <= t has ``P = Phi(((j + 1/2) GRID - value) / sigma)``."""
    t = np.asarray(t, dtype=float)
    g = float(GRID)
    j = np.floor(t / g)
    edge = (j + 0.5) * g
    if sigma == 0:
        return (np.round(value / g) * g <= t).astype(float)
    return ndtr((edge - value) / sigma)
