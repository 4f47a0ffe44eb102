"""Exact random variates for paper B's samplers: no floating-point number decides a draw.

Everything here is driven by uniform *integers* from a ``numpy.random.Generator`` (``rng.integers``), read
as the base-2^62 digits of a uniform real U in [0, 1):

* :func:`bernoulli_rational` - Bernoulli(p) for any rational p in [0, 1] (a ``Fraction``, numerator and
  denominator of any size): U < p is decided digit by digit; the first digit decides unless it equals the
  first digit of p (probability 2^-62), then the next digits do (exact Python integers).
* :func:`bernoulli_exp_rational` - Bernoulli(exp(-gamma)) for any rational gamma >= 0: floor(gamma) draws of
  Bernoulli(exp(-1)) (:func:`privanomaly.sp.dlap.exp_minus_whole`), then Canonne-Kamath-Steinke (NeurIPS 2020)
  Algorithm 1 (:func:`privanomaly.sp.dlap.cks_algorithm1`) on the fractional part, its Bernoulli(f / K) drawn
  digit by digit as in :func:`bernoulli_rational`.
* :class:`LazyUniforms` - a pool of uniforms in [0, 1) known to as many base-2^62 digits as the comparisons
  made so far needed (Karney's lazy uniform deviates, ACM TOMS 42(1), 2016, Sec. 2); comparing two of them
  draws further digits only on equal leading digits.

:mod:`privanomaly.sp.dlap` samples rationals with int64 numerators/denominators; the functions here take
over where those would overflow (utilities and scales are floats, whose exact ``Fraction`` can have a
denominator up to 2^1074).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from privanomaly.sp.dlap import cks_algorithm1, exp_minus_whole
from privanomaly.sp.loop_budget import check_tie_digits

__all__ = ["DIGIT_BITS", "bernoulli_rational", "bernoulli_exp_rational", "ExpBernoulliTable", "LazyUniforms"]

DIGIT_BITS = 62
"""Bits per uniform digit (rng.integers(0, 2^62) stays inside int64)."""
_BASE = 1 << DIGIT_BITS


def _digits_of(p: Fraction) -> tuple[int, Fraction]:
    """``(floor(p 2^62), frac(p 2^62))`` for 0 <= p < 1."""
    scaled = p * _BASE
    d = scaled.numerator // scaled.denominator
    return d, scaled - d


def _resolve_tie(rng: np.random.Generator, rest: Fraction) -> bool:
    """U's first digits equal p's: U < p iff the uniform tail V < rest (rest = frac(p 2^(62 j)) in [0, 1))."""
    digits = 0
    while rest:
        digits += 1
        check_tie_digits("exact Bernoulli(p), U < p digit by digit", digits)
        d, rest_next = _digits_of(rest)
        v = int(rng.integers(0, _BASE, dtype=np.int64))
        if v != d:
            return v < d
        rest = rest_next
    return False  # V >= 0 = rest


def _first_digit(p: Fraction) -> tuple[int, Fraction]:
    """(first base-2^62 digit, rest) of p in [0, 1]; p = 1 is the digit 2^62 - 1 followed by a tail of ones."""
    return (_BASE - 1, Fraction(1)) if p == 1 else _digits_of(p)


def _bernoulli_from_digits(rng: np.random.Generator, first: np.ndarray, rests: list[Fraction],
                           flat: np.ndarray) -> np.ndarray:
    """Exact U < p for p = table entry ``flat[t]`` given by its first digit and its rest."""
    u = rng.integers(0, _BASE, size=flat.size, dtype=np.int64)
    d = first[flat]
    out = u < d
    for t in np.flatnonzero(u == d):  # probability 2^-62 each
        rest = rests[int(flat[t])]
        out[t] = True if rest == 1 else _resolve_tie(rng, rest)
    return out


def bernoulli_rational(rng: np.random.Generator, probs: Sequence[Fraction], idx: np.ndarray) -> np.ndarray:
    """Exact Bernoulli(probs[idx[t]]) for every t (bool array shaped like ``idx``); each p a rational in [0, 1]."""
    idx = np.asarray(idx, dtype=np.int64)
    table = [Fraction(p) for p in probs]
    if any(not 0 <= p <= 1 for p in table):
        raise ValueError("bernoulli_rational: every probability must be in [0, 1]")
    digits = [_first_digit(p) for p in table]
    first = np.array([d for d, _ in digits], dtype=np.int64)
    return _bernoulli_from_digits(rng, first, [r for _, r in digits], idx.reshape(-1)).reshape(idx.shape)


class ExpBernoulliTable:
    """Exact Bernoulli(exp(-gamma_i)) for a growing table of rationals gamma_i >= 0 (any size).

    exp(-gamma) = exp(-1)^floor(gamma) exp(-f): floor(gamma) Bernoulli(exp(-1)) draws must all succeed, then
    CKS Algorithm 1 for exp(-f), f in [0, 1): K = 1; repeat A ~ Bernoulli(f / K), stop at A = 0, K += 1;
    succeed iff K is odd. The digits of every f_i / K needed are cached, so a sampler drawing from the same
    table for many rounds (:func:`privanomaly.outliers.exponential.top_h_draws`) does the rational arithmetic once.
    """

    def __init__(self, gammas: Sequence[Fraction] = ()):
        self._whole: list[int] = []
        self._frac: list[Fraction] = []
        self._whole_arr = np.empty(0, dtype=np.int64)
        self._digits: dict[tuple[int, int], tuple[int, Fraction]] = {}
        for g in gammas:
            self.add(g)

    def add(self, gamma) -> int:
        """Append gamma (a rational >= 0); returns its index."""
        g = Fraction(gamma)
        if g < 0:
            raise ValueError(f"ExpBernoulliTable: gamma must be >= 0, got {g}")
        w = g.numerator // g.denominator
        self._whole.append(w)
        self._frac.append(g - w)
        return len(self._whole) - 1

    def draw(self, rng: np.random.Generator, idx: np.ndarray) -> np.ndarray:
        """Exact Bernoulli(exp(-gamma[idx[t]])) for every t (bool array shaped like ``idx``)."""
        idx = np.asarray(idx, dtype=np.int64)
        if self._whole_arr.size != len(self._whole):
            self._whole_arr = np.array(self._whole, dtype=np.int64)
        flat = idx.reshape(-1)
        ok = exp_minus_whole(rng, self._whole_arr[flat])  # the integer part
        todo = flat[ok]

        def ratio(active: np.ndarray, K: np.ndarray) -> np.ndarray:  # Bernoulli(f / K), f the fractional part
            width = int(K.max()) + 1
            keys, inv = np.unique(todo[active] * width + K, return_inverse=True)
            digits = []
            for code in keys.tolist():
                key = divmod(code, width)
                if key not in self._digits:
                    self._digits[key] = _first_digit(self._frac[key[0]] / key[1])
                digits.append(self._digits[key])
            first = np.array([d for d, _ in digits], dtype=np.int64)
            return _bernoulli_from_digits(rng, first, [r for _, r in digits], inv.reshape(-1))

        ok[ok] = cks_algorithm1(todo.size, ratio)
        return ok.reshape(idx.shape)


def bernoulli_exp_rational(rng: np.random.Generator, gammas: Sequence[Fraction], idx: np.ndarray) -> np.ndarray:
    """Exact Bernoulli(exp(-gammas[idx[t]])) for every t; each gamma a rational >= 0 (:class:`ExpBernoulliTable`)."""
    return ExpBernoulliTable(gammas).draw(rng, idx)


class LazyUniforms:
    """A pool of independent uniforms on [0, 1), each known to as many base-2^62 digits as comparisons needed.

    ``new(n)`` draws n uniforms (their first digit) and returns their ids; ``less(a, b)`` decides U_a < U_b
    exactly for id arrays a, b (further digits drawn, in order, only where the known digits are equal);
    ``digits(i, m)`` returns the first m digits of uniform i (drawing the missing ones).
    """

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self._buf = np.empty(1024, dtype=np.int64)
        self._n = 0
        self.tail: dict[int, list[int]] = {}

    @property
    def head(self) -> np.ndarray:
        """First digit of every uniform drawn so far (indexed by id)."""
        return self._buf[: self._n]

    def new(self, n: int) -> np.ndarray:
        n, start = int(n), self._n
        if start + n > self._buf.size:  # amortised doubling
            grown = np.empty(max(2 * self._buf.size, start + n), dtype=np.int64)
            grown[:start] = self._buf[:start]
            self._buf = grown
        self._buf[start : start + n] = self.rng.integers(0, _BASE, size=n, dtype=np.int64)
        self._n = start + n
        return np.arange(start, start + n, dtype=np.int64)

    def digits(self, i: int, m: int) -> list[int]:
        """First m >= 1 digits of uniform i (base 2^62)."""
        i = int(i)
        more = self.tail.setdefault(i, [])
        while 1 + len(more) < m:
            more.append(int(self.rng.integers(0, _BASE, dtype=np.int64)))
        return [int(self.head[i])] + more[: m - 1]

    def less(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Exact ``U_a < U_b`` elementwise (distinct uniforms are almost surely different; equal ids give False)."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        ha, hb = self.head[a], self.head[b]
        out = ha < hb
        for t in np.flatnonzero((ha == hb) & (a != b)):  # probability 2^-62 each
            m = 2
            while True:
                check_tie_digits("lazy uniforms, U_a < U_b digit by digit", m - 1)
                da, db = self.digits(a[t], m)[-1], self.digits(b[t], m)[-1]
                if da != db:
                    out[t] = da < db
                    break
                m += 1
        return out
