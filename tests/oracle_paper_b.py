"""Independent brute-force oracles for paper B (Okada et al.), written from the paper's definitions.

Nothing here calls :mod:`privanomaly.outliers`. Distances are exact (rational) ``dist_S(x, y) <= r`` of Sec. 3.1
(``sum_{i in S} (x_i - y_i)^2 <= |S| r^2``); local sensitivity (eq. 5 / 22), smooth sensitivity (Def. 5,
eq. 8) and global sensitivity (Def. 2) by enumeration over a finite domain D of records: a dataset is a
multiset of N points of D, neighbours replace one record (bounded DP), H is the Hamming distance between the
closest orderings (N minus the size of the multisets' intersection). The exponential mechanism's top-h law
(Algorithm 3) by enumeration of ordered draws.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


def degrees(X, r, S=None) -> list[int]:
    """|N_S(X, r, x)| (eq. 12): other records (duplicates included) with dist_S <= r, exactly."""
    P = [tuple(Fraction(float(v)) for v in row) for row in np.atleast_2d(np.asarray(X, dtype=float))]
    cols = range(len(P[0])) if S is None else list(S)
    bound = len(cols) * Fraction(float(r)) ** 2
    return [sum(1 for b, q in enumerate(P) if b != a and sum((p[i] - q[i]) ** 2 for i in cols) <= bound)
            for a, p in enumerate(P)]


def q_count(X, k: int, r, S=None) -> int:
    """eq. (14): records with fewer than k neighbours (Def. 8)."""
    return sum(1 for d in degrees(X, r, S) if d < k)


class Domain:
    """Datasets of N records from a finite domain D (points), with q_count tabulated exactly."""

    def __init__(self, points, N: int, k: int, r):
        self.D = [tuple(float(v) for v in p) for p in np.atleast_2d(np.asarray(points, dtype=float))]
        self.N, self.k, self.r = N, k, r
        self.sets = list(itertools.combinations_with_replacement(range(len(self.D)), N))
        self.index = {s: n for n, s in enumerate(self.sets)}
        self.q = np.array([q_count([self.D[i] for i in s], k, r) for s in self.sets])
        # every neighbour (one record replaced) of every dataset, as indices
        self.nbrs = []
        for s in self.sets:
            out = set()
            for pos in range(N):
                for c in range(len(self.D)):
                    t = tuple(sorted(s[:pos] + (c,) + s[pos + 1:]))
                    if t != s:
                        out.add(self.index[t])
            self.nbrs.append(sorted(out))
        self.ls = np.array([max((abs(int(self.q[n]) - int(self.q[m])) for m in nb), default=0)
                            for n, nb in enumerate(self.nbrs)])
        counts = np.zeros((len(self.sets), len(self.D)), dtype=np.int64)
        for n, s in enumerate(self.sets):
            for i in s:
                counts[n, i] += 1
        self.hamming = N - np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2)

    def points(self, n: int) -> np.ndarray:
        return np.array([self.D[i] for i in self.sets[n]])

    def smooth(self, beta: float) -> np.ndarray:
        """S*_beta(X) = max_{X'} LS(X') e^{-beta H(X, X')} (Def. 5, eq. 8) for every dataset."""
        return (self.ls[None, :] * np.exp(-beta * self.hamming)).max(axis=1)

    def gs(self) -> int:
        """GS = max_X LS(X) over the domain (Def. 2)."""
        return int(self.ls.max())


def top_h_law(utility, h: int, rate: float, sensitivity: float = 1.0) -> dict[tuple[int, ...], float]:
    """Algorithm 3: h draws, each the exponential mechanism Pr[i] ∝ exp((rate/h) u_i / (2 Δu)) over the candidates
    not yet drawn (the paper's resample-until-new). Ordered outputs and their probabilities."""
    return sequential_law([math.exp((rate / h) * float(u) / (2 * sensitivity)) for u in utility], h)


def sequential_law(w, h: int) -> dict[tuple[int, ...], float]:
    """h draws without replacement, each Pr[i] ∝ w_i among the candidates not yet drawn: every ordered output
    and its probability."""
    out = {}
    for seq in itertools.permutations(range(len(w)), h):
        p, left = 1.0, set(range(len(w)))
        for i in seq:
            p *= w[i] / math.fsum(w[j] for j in left)
            left.remove(i)
        out[seq] = p
    return out


def inclusion(law: dict[tuple[int, ...], float], n: int) -> np.ndarray:
    out = np.zeros(n)
    for seq, p in law.items():
        for i in seq:
            out[i] += p
    return out


def theorem6_smooth_1d(x, k: int, r: float, beta: float) -> tuple[float, list[int]]:
    """Paper B's smooth bound on a line, from eqs. (19)-(21), (29)-(31) directly: B_t = min(N, max_c M(W_t^c) + t + 1)
    with W_t^c = {x : |deg(x) - c| <= t} (c = k, k - 1) and M(P) the most points of P in a closed interval of
    length 2r (a ball of radius r in 1-D); S = max_t e^{-t beta} B_t over t = 0..N."""
    x = [Fraction(float(v)) for v in np.ravel(x)]
    N = len(x)
    R = Fraction(float(r))
    deg = [sum(1 for j, b in enumerate(x) if j != i and abs(a - b) <= R) for i, a in enumerate(x)]

    def M(P):
        return max((sum(1 for q in P if p <= q <= p + 2 * R) for p in P), default=0)

    bounds = []
    for t in range(N + 1):
        m = max(M([a for a, dg in zip(x, deg) if abs(dg - c) <= t]) for c in (k, k - 1))
        bounds.append(min(N, m + t + 1))
    return max(math.exp(-t * beta) * b for t, b in enumerate(bounds)), bounds


def largest_in_disc(P, r: float, tol: float) -> int:
    """max over centres c of #{p in P : |p - c| <= r (1 + tol)} in the plane (eqs. 45-46): the optimal disc can be
    moved until two points lie on its circle (or it is centred on a point), so the candidate centres are the
    points and the centres of the two circles of radius r through each pair at distance <= 2r."""
    P = np.asarray(P, dtype=float)
    cands = list(P)
    for a, b in itertools.combinations(P, 2):
        d = float(np.linalg.norm(b - a))
        if 0 < d <= 2 * r:
            mid, h = (a + b) / 2, math.sqrt(max(r * r - (d / 2) ** 2, 0.0))
            n = np.array([-(b - a)[1], (b - a)[0]]) / d
            cands += [mid + h * n, mid - h * n]
    return max(int((np.linalg.norm(P - c, axis=1) <= r * (1 + tol)).sum()) for c in cands)
