"""Exact output probabilities and rigorous decisions of privacy inequalities between them.

Every output probability of paper A's mechanisms is a rational function, with rational coefficients, of
q = exp(-theta) for one rational theta (the noise rate actually used, :func:`privanomaly.sp.rational_rate`):
Construction 1 errs with q^Delta / (1 + q), the compiler with q^(2 Delta_G) q^delta / (1 + q^2) (q = e^(-a/4)),
the Laplace baselines with discrete-Laplace tails. :class:`QRat` holds such a function exactly.

Deciding P(o | x) <= e^eps P(o | y) exactly: with eps / theta = m / n (both rational), u = exp(-theta / n)
turns the inequality into the sign of a Laurent polynomial F(u) with integer coefficients. If F is the zero
polynomial the two sides are equal (a tight mechanism attains its claim exactly); otherwise u is
transcendental (Lindemann–Weierstrass: e^r is transcendental for rational r != 0), so F(u) != 0 and its sign is
decided by interval arithmetic on integers with directed rounding, refining the precision until the interval
excludes 0 (:func:`sign_at`). No floating-point comparison decides a privacy inequality.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Mapping

__all__ = ["QRat", "ExactDist", "sign_at", "log_value", "edge_holds", "edge_log_ratio", "MAX_BITS"]

MAX_BITS = 1 << 16
"""Precision limit of :func:`sign_at`: beyond it the sign is reported undecided (never happened in the audit)."""

Poly = Mapping[int, Fraction]


def _num(c) -> int | Fraction:
    """A coefficient as an int when integral (fast), else an exact Fraction (floats are converted exactly)."""
    if isinstance(c, int):
        return c
    f = c if isinstance(c, Fraction) else Fraction(c)
    return f.numerator if f.denominator == 1 else f


def _clean(p: Mapping[int, object]) -> dict[int, int | Fraction]:
    return {e: _num(c) for e, c in p.items() if c != 0}


def _pmul(a: Poly, b: Poly) -> dict[int, int | Fraction]:
    out: dict[int, int | Fraction] = {}
    for ea, ca in a.items():
        for eb, cb in b.items():
            out[ea + eb] = out.get(ea + eb, 0) + ca * cb
    return _clean(out)


def _padd(a: Poly, b: Poly, sign: int = 1) -> dict[int, int | Fraction]:
    out = dict(a)
    for e, c in b.items():
        out[e] = out.get(e, 0) + sign * c
    return _clean(out)


@dataclass(frozen=True)
class QRat:
    """N(q) / D(q): numerator and denominator Laurent polynomials in q with rational coefficients."""

    num: tuple[tuple[int, Fraction], ...]
    den: tuple[tuple[int, Fraction], ...] = ((0, Fraction(1)),)

    @staticmethod
    def make(num: Mapping[int, object], den: Mapping[int, object] | None = None) -> "QRat":
        n = _clean({int(e): c for e, c in num.items()})
        d = _clean({int(e): c for e, c in (den or {0: 1}).items()})
        if not d:
            raise ZeroDivisionError("QRat with a zero denominator")
        return QRat(tuple(sorted(n.items())), tuple(sorted(d.items())))

    @staticmethod
    def const(c) -> "QRat":
        return QRat.make({0: Fraction(c)})

    @staticmethod
    def q(power: int = 1) -> "QRat":
        return QRat.make({int(power): 1})

    @property
    def N(self) -> dict[int, Fraction]:
        return dict(self.num)

    @property
    def D(self) -> dict[int, Fraction]:
        return dict(self.den)

    def _co(self, other) -> "QRat":
        return other if isinstance(other, QRat) else QRat.const(other)

    def __add__(self, other) -> "QRat":
        o = self._co(other)
        return QRat.make(_padd(_pmul(self.N, o.D), _pmul(o.N, self.D)), _pmul(self.D, o.D))

    __radd__ = __add__

    def __neg__(self) -> "QRat":
        return QRat.make({e: -c for e, c in self.num}, self.D)

    def __sub__(self, other) -> "QRat":
        return self + (-self._co(other))

    def __rsub__(self, other) -> "QRat":
        return self._co(other) - self

    def __mul__(self, other) -> "QRat":
        o = self._co(other)
        return QRat.make(_pmul(self.N, o.N), _pmul(self.D, o.D))

    __rmul__ = __mul__

    def __truediv__(self, other) -> "QRat":
        o = self._co(other)
        return QRat.make(_pmul(self.N, o.D), _pmul(self.D, o.N))

    def __pow__(self, k: int) -> "QRat":
        out = QRat.const(1)
        for _ in range(int(k)):
            out = out * self
        return out

    def at_one(self) -> "QRat":
        """The constant N(1)/D(1) (used when theta = 0, i.e. q = 1)."""
        return QRat.make({0: sum(self.N.values(), Fraction(0))}, {0: sum(self.D.values(), Fraction(0))})


@dataclass(frozen=True)
class ExactDist:
    """A finite output distribution: probs[o] = P(output = outputs[o]) as QRat in q = exp(-theta)."""

    theta: Fraction
    probs: tuple[QRat, ...]
    outputs: tuple = (0, 1)

    def key(self) -> tuple:
        """Hashable identity (equal keys = the same distribution, written the same way)."""
        return (self.theta, self.probs)


# ------------------------------------------------------------------------------- rigorous evaluation
@lru_cache(maxsize=4096)
def _exp_neg(theta: Fraction, bits: int) -> tuple[int, int]:
    """Integers (L, H) with L / 2^bits <= exp(-theta) <= H / 2^bits (theta >= 0 rational)."""
    if theta < 0:
        raise ValueError("theta must be >= 0")
    one = 1 << bits
    if theta == 0:
        return one, one
    s = 0
    while theta / (1 << s) > Fraction(1, 2):
        s += 1
    x = theta / (1 << s)
    guard = bits + 2 * s + 24
    # alternating series with decreasing terms (x <= 1/2): |e^-x - S_n| <= |t_{n+1}|
    S, t, k = Fraction(0), Fraction(1), 0
    tiny = Fraction(1, 1 << guard)
    while abs(t) >= tiny:
        S += t
        k += 1
        t = t * (-x) / k
    lo, hi = S - abs(t), S + abs(t)
    L = (lo.numerator << guard) // lo.denominator
    H = -((-(hi.numerator << guard)) // hi.denominator)
    for _ in range(s):  # square s times with directed rounding
        L = (L * L) >> guard
        H = -((-(H * H)) >> guard)
    shift = guard - bits
    return L >> shift, -((-H) >> shift)


def _pow_interval(L: int, H: int, j: int, bits: int) -> tuple[int, int]:
    """Interval of u^j (j >= 0) from u in [L, H] / 2^bits, fixed point with directed rounding."""
    lo, hi = 1 << bits, 1 << bits
    bl, bh = L, H
    while j:
        if j & 1:
            lo = (lo * bl) >> bits
            hi = -((-(hi * bh)) >> bits)
        j >>= 1
        if j:
            bl = (bl * bl) >> bits
            bh = -((-(bh * bh)) >> bits)
    return lo, hi


def _integer_poly(p: Poly) -> dict[int, int]:
    """p times the (positive) lcm of its denominators, exponents shifted to start at 0."""
    if not p:
        return {}
    lcm = 1
    for c in p.values():
        lcm = lcm * c.denominator // math.gcd(lcm, c.denominator)
    lo = min(p)
    return {e - lo: int(c * lcm) for e, c in p.items()}


def _interval(p: dict[int, int], theta: Fraction, bits: int) -> tuple[int, int]:
    """[lo, hi] * 2^-bits enclosing sum_j c_j u^j, u = exp(-theta)."""
    L, H = _exp_neg(theta, bits)
    lo = hi = 0
    for e, c in p.items():
        pl, ph = _pow_interval(L, H, e, bits)
        if c > 0:
            lo += c * pl
            hi += c * ph
        else:
            lo += c * ph
            hi += c * pl
    return lo, hi


def sign_at(p: Poly, theta: Fraction) -> int:
    """The exact sign of the Laurent polynomial p(u) at u = exp(-theta), theta > 0 rational (or theta = 0).

    Zero polynomial -> 0. Otherwise u is transcendental, p(u) != 0, and the precision is doubled until a
    rigorous enclosure excludes 0 (raises ``ArithmeticError`` past :data:`MAX_BITS`).
    """
    ip = _integer_poly(p)
    if not ip:
        return 0
    if theta == 0:
        s = sum(ip.values())
        return (s > 0) - (s < 0)
    if all(c > 0 for c in ip.values()):
        return 1
    if all(c < 0 for c in ip.values()):
        return -1
    bits = 64
    while bits <= MAX_BITS:
        lo, hi = _interval(ip, theta, bits)
        if lo > 0:
            return 1
        if hi < 0:
            return -1
        bits *= 2
    raise ArithmeticError("sign_at: undecided at the maximal precision")


@lru_cache(maxsize=1 << 16)
def log_value(f: QRat, theta: Fraction) -> float:
    """ln f(exp(-theta)) to about 12 significant digits (-inf if f is the zero function)."""
    if not f.num:
        return -math.inf
    out = 0.0
    for poly, sgn in ((f.N, 1.0), (f.D, -1.0)):
        ip = _integer_poly(poly)
        lcm_shift = min(poly)  # u^min factored out: ln u^m = -m theta
        lcm = 1
        for c in poly.values():
            lcm = lcm * c.denominator // math.gcd(lcm, c.denominator)
        bits = 64
        while True:
            lo, hi = _interval(ip, theta, bits) if theta != 0 else (sum(ip.values()), sum(ip.values()))
            if theta == 0:
                v = math.log(abs(lo)) if lo else -math.inf
                break
            if lo > 0 and (hi - lo) * 10**12 <= lo:
                v = math.log(lo) - bits * math.log(2)
                break
            if hi < 0 and (hi - lo) * 10**12 <= -hi:
                v = math.log(-hi) - bits * math.log(2)
                break
            bits *= 2
            if bits > MAX_BITS:
                raise ArithmeticError("log_value: not resolved at the maximal precision")
        out += sgn * (v - float(lcm_shift) * float(theta) - math.log(lcm))
    return out


def _ratio_n_m(theta: Fraction, eps: Fraction) -> tuple[Fraction, int, int]:
    """(base, n, m) with exp(-theta) = u^n, exp(eps) = u^-m, u = exp(-base)."""
    if theta == 0:
        return Fraction(eps), 0, 1
    r = Fraction(eps) / theta
    return theta / r.denominator, r.denominator, r.numerator


def _subst(p: Poly, n: int) -> dict[int, Fraction]:
    if n == 0:
        return {0: sum(p.values(), Fraction(0))}
    return {e * n: c for e, c in p.items()}


def edge_holds(px: ExactDist, py: ExactDist, eps) -> bool:
    """Exactly: P(o | x) <= e^eps P(o | y) and P(o | y) <= e^eps P(o | x) for every output o."""
    a, b = (px, py) if hash(px) <= hash(py) else (py, px)
    return _edge_holds(a, b, Fraction(eps))


@lru_cache(maxsize=1 << 18)
def _edge_holds(px: ExactDist, py: ExactDist, eps: Fraction) -> bool:
    if px.theta != py.theta:
        raise ValueError("edge_holds: the two distributions must use the same theta")
    base, n, m = _ratio_n_m(px.theta, eps)
    for fx, fy in zip(px.probs, py.probs):
        Nx, Dx, Ny, Dy = (_subst(p, n) for p in (fx.N, fx.D, fy.N, fy.D))
        for a_N, a_D, b_N, b_D in ((Nx, Dx, Ny, Dy), (Ny, Dy, Nx, Dx)):
            for d in (a_D, b_D):
                if sign_at(d, base) <= 0:
                    raise ValueError("edge_holds: denominators must be positive")
            # a_N / a_D <= u^-m b_N / b_D  <=>  u^m a_N b_D - b_N a_D <= 0
            F = _padd(_pmul({m: Fraction(1)}, _pmul(a_N, b_D)), _pmul(b_N, a_D), sign=-1)
            if sign_at(F, base) > 0:
                return False
    return True


def edge_log_ratio(px: ExactDist, py: ExactDist, logs: dict | None = None) -> float:
    """max over outputs and directions of |ln P(o|x) - ln P(o|y)| (float, for reporting; inf if one is 0)."""
    worst = 0.0
    for fx, fy in zip(px.probs, py.probs):
        lx, ly = log_value(fx, px.theta), log_value(fy, py.theta)
        if lx == -math.inf and ly == -math.inf:
            continue
        worst = max(worst, abs(lx - ly))
    return worst
