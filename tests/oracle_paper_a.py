"""Independent brute-force oracles for paper A (Asif et al., CCS'19), written from the paper's definitions.

Nothing here calls or copies :mod:`privanomaly.sp`: ball counts are exact rational arithmetic on the floats
given, the database is a histogram over a small record universe, and k-sensitivity (Def. 3.1), the mdd
(Eq. 1) in G and in the k-sensitive graph G_S (Sec. 3) are found by exhaustive search. The tests in
``tests/test_oracle_paper_a.py`` compare the library with these.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import deque
from fractions import Fraction

import numpy as np


# --------------------------------------------------------------------------- distances and ball counts
def within(a, b, r, metric: str) -> bool:
    """d(a, b) <= r for the metric, in exact rational arithmetic on the float values given."""
    diffs = [abs(Fraction(float(u)) - Fraction(float(v))) for u, v in zip(a, b)]
    R = Fraction(float(r))
    if metric == "euclidean":
        return sum(d * d for d in diffs) <= R * R
    if metric == "manhattan":
        return sum(diffs) <= R
    if metric == "chebyshev":
        return max(diffs, default=Fraction(0)) <= R
    raise ValueError(metric)


def rows(X) -> list[tuple[float, ...]]:
    A = np.asarray(X, dtype=float)
    if A.ndim == 1:
        A = A[:, None]
    return [tuple(float(v) for v in row) for row in A]


def ball_counts(X, r, metric: str, queries=None) -> np.ndarray:
    """B_x(i, r) = sum_{j: d(i, j) <= r} x_j (Sec. 2): every row of X within r of each query (default X)."""
    P = rows(X)
    Q = P if queries is None else rows(queries)
    return np.array([sum(within(q, p, r, metric) for p in P) for q in Q], dtype=np.int64)


def multiplicities(X) -> np.ndarray:
    """x_i: how many rows of X have exactly row i's value."""
    P = rows(X)
    return np.array([sum(p == q for p in P) for q in P], dtype=np.int64)


# --------------------------------------------------------------------------- histogram worlds
class World:
    """A small record universe U (points), a (β, r) anomaly definition and the histograms over U.

    ``inball[i][j]`` is True iff d(U_i, U_j) <= r (exact), so B(i, x) = sum_j inball[i][j] x_j.
    """

    def __init__(self, points, r, metric, beta: int):
        self.U = rows(points)
        self.n = len(self.U)
        self.beta = beta
        self.inball = [[within(a, b, r, metric) for b in self.U] for a in self.U]
        self._sens: dict = {}

    def B(self, i: int, x) -> int:
        return sum(c for c, inb in zip(x, self.inball[i]) if inb)

    def g(self, i: int, x) -> int:
        """Def. 2.2: present and at most β records within r."""
        return int(x[i] > 0 and self.B(i, x) <= self.beta)

    def p(self, i: int, x) -> int:
        """Normality property: present as a normal record."""
        return int(x[i] > 0 and self.B(i, x) > self.beta)

    def neighbours(self, x):
        """G: add or remove one record (||x - y||_1 = 1); yields (y, changed record j)."""
        for j in range(self.n):
            y = list(x)
            y[j] += 1
            yield tuple(y), j
            if x[j] > 0:
                y = list(x)
                y[j] -= 1
                yield tuple(y), j

    def k_sensitive(self, j: int, x, k: int) -> bool:
        """Def. 3.1 by search: some y with ||x - y||_1 <= k has p(j, y) = 1."""
        key = (j, tuple(x), k)
        if key not in self._sens:
            self._sens[key] = self._k_sensitive(j, tuple(x), k)
        return self._sens[key]

    def _k_sensitive(self, j: int, x, k: int) -> bool:
        seen = {tuple(x)}
        frontier = [tuple(x)]
        for _ in range(k + 1):
            nxt = []
            for z in frontier:
                if self.p(j, z):
                    return True
                for y, _ in self.neighbours(z):
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
            frontier = nxt
        return False

    def mdd(self, i: int, x, k: int | None, limit: int = 40) -> float:
        """Eq. (1) by breadth-first search: Δ_G (k None) or Δ_GS of the k-sensitive graph; ``math.inf``
        when no database of the other label is connected to x (G_S need not be connected), ``limit + 1``
        when none is within ``limit`` steps."""
        x = tuple(x)
        gx = self.g(i, x)
        dist = {x: 0}
        queue = deque([x])
        cut = False
        while queue:
            z = queue.popleft()
            if self.g(i, z) != gx:
                return dist[z]
            if dist[z] >= limit:
                cut = True
                continue
            for y, j in self.neighbours(z):
                if y in dist:
                    continue
                if k is not None and not (self.k_sensitive(j, z, k) or self.k_sensitive(j, y, k)):
                    continue
                dist[y] = dist[z] + 1
                queue.append(y)
        return math.inf if not cut else limit + 1

    def histograms(self, total_max: int):
        """Every histogram over U with at most ``total_max`` records."""
        for x in itertools.product(range(total_max + 1), repeat=self.n):
            if sum(x) <= total_max:
                yield x


# --------------------------------------------------------------------------- mechanisms' laws
def rate(eps: float) -> float:
    """The noise rate a mechanism asked for ε runs at (the library's documented rational rate): the largest
    p/q <= ε with q <= Q = 2^max(30, 30 - e), ε = m 2^e. From Farey sequences: ``limit_denominator`` gives
    the closest p/q; if it lies above ε, the best one from below is its Farey left neighbour of order Q,
    c/d with a d - b c = 1 (g = a/b) and d <= Q largest."""
    f = Fraction(float(eps))
    Q = 2 ** max(30, 30 - math.frexp(float(eps))[1])
    g = f.limit_denominator(Q)
    if g > f:
        a, b = g.numerator, g.denominator
        d0 = pow(a, -1, b) if b > 1 else 0
        d = d0 + ((Q - d0) // b) * b
        g = Fraction((a * d - 1) // b, d)
        assert g <= f
    return float(g)


@functools.lru_cache(maxsize=None)
def mechanism_error(name: str, xi: int, B: int, beta: int, k: int, eps: float) -> float:
    """Each registered paper-A mechanism's error P(M(x) != g(i, x)) from its definition (rate = the rational
    noise rate the library samples with, which is what it claims)."""
    g = xi >= 1 and B <= beta
    # Δ_G and L written out from their definitions (checked against search above)
    if g:
        dG = min(xi, beta + 1 - B)
        L = min(beta + 1 - B, xi + max(0, beta - k - B + xi))
    elif xi >= 1:
        dG = L = B - beta
    else:
        dG = 1 + max(0, B + 1 - beta)
        L = 1 + max(0, beta - k - B) if B + 1 <= beta else B + 2 - beta
    if name == "optimal_dp":
        return construction1_error(dG, rate(eps))
    if name == "sp":
        return construction1_error(L, rate(eps))
    if name == "compiler":
        a = rate(eps)
        return construction1_error(dG, a / 2) * math.exp(-a * (L - dG) / 4)
    if name == "laplace_count":
        p1 = laplace_count_p1(B, beta, rate(eps))
        return 1 - p1 if g else p1
    if name == "laplace_noisy_threshold":
        p1 = laplace_threshold_p1(B, beta, rate(eps / 2))
        return 1 - p1 if g else p1
    raise KeyError(name)


def construction1_error(delta: int, a: float) -> float:
    """Construction 1: errs with e^{-a Δ} / (1 + e^{-a}) (Δ a 1-Lipschitz mdd lower bound >= 1)."""
    return math.exp(-a * delta) / (1.0 + math.exp(-a))


def dlap_pmf(z: int, a: float) -> float:
    p = math.exp(-a)
    return (1 - p) / (1 + p) * p ** abs(z)


def laplace_count_p1(B: int, beta: int, a: float, span: int = 4000) -> float:
    """P(B + Z <= β), Z ~ DLap(a), by summing the pmf term by term."""
    return math.fsum(dlap_pmf(z, a) for z in range(-span, beta - B + 1))


def laplace_threshold_p1(B: int, beta: int, a: float, span: int = 1500) -> float:
    """P(B + Z1 <= β + Z2), Z1, Z2 iid DLap(a): the pmf of Z1 - Z2 by convolution, summed over Z1 - Z2 <= β - B."""
    pm = np.array([dlap_pmf(z, a) for z in range(-span, span + 1)])
    diff = np.convolve(pm, pm[::-1])  # index w + 2 span holds P(Z1 - Z2 = w)
    w = np.arange(-2 * span, 2 * span + 1)
    return math.fsum(diff[w <= beta - B])


def expected_pr(p_one, truth) -> tuple[float, float]:
    """Precision and recall as ratios of expectations: E[TP]/(E[TP]+E[FP]), E[TP]/#positives."""
    tp = sum(p for p, t in zip(p_one, truth) if t)
    fp = sum(p for p, t in zip(p_one, truth) if not t)
    npos = sum(1 for t in truth if t)
    prec = tp / (tp + fp) if tp + fp > 0 else float("nan")
    rec = tp / npos if npos else float("nan")
    return prec, rec


def knn_radius(X, beta: int, metric: str) -> np.ndarray:
    """d_β(i): the distance from record i to its (β+1)-th closest record, itself and its duplicates included
    (so B_x(i, r) <= β iff d_β(i) > r), by sorting every pairwise distance (float, numpy)."""
    A = np.asarray(X, dtype=float)
    diff = np.abs(A[:, None, :] - A[None, :, :])
    D = {"euclidean": np.sqrt((diff**2).sum(-1)), "manhattan": diff.sum(-1), "chebyshev": diff.max(-1)}[metric]
    return np.sort(D, axis=1)[:, beta]
