"""A second independent oracle for paper B: exact local sensitivity over the continuous domain R^d.

Nothing here calls :mod:`privanomaly`.  Arithmetic is exact (``Fraction`` of the float inputs).  Paper B's
definitions: ``dist_S(x, y)^2 = sum_{i in S} (x_i - y_i)^2 / |S|`` (Sec. 3.1); a record's neighbours are the
*other* records (duplicates included) with ``dist_S <= R`` (Def. 7, eq. 12, closed ball); an outlier has fewer
than k of them (Def. 8, eq. 13); neighbouring datasets replace one record (Sec. 2, H(X, X') = 1).

Exact LS over the continuous domain (Def. 3, eq. 5).  Replacing record j by a point x' of R^d changes the
count only through the set T of other records within R of x'.  With ``deg_j(i)`` the degree of i once j is
removed, the count after the replacement is ``f_j(T) = #{i != j : deg_j(i) + [i in T] < k} + [|T| < k]``,
non-increasing in T.  Its maximum is at T = {} (x' far away) and its minimum over the sets T a closed ball of
radius R can hold - the subsets with smallest enclosing ball <= R (a ball holding T may hold more records,
which only lowers f).  So ``LS(X) = max_j max(f_j({}) - q, q - min_T f_j(T))`` exactly.  A set is enclosable
iff every d + 1 of its points is (Helly's theorem for balls); a set of at most d + 1 points is enclosable iff
one of the circumballs of its subsets (centre in their affine hull) holds all of it with radius <= R, which is
decided exactly in rationals.

``R`` is given as its square (a Fraction) so that callers choose the convention (``r`` exactly, or the
library's documented ``r (1 + 1e-9)``).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


def as_points(X) -> list[tuple[Fraction, ...]]:
    A = np.asarray(X, dtype=float)
    if A.ndim == 1:
        A = A[:, None]
    return [tuple(Fraction(float(v)) for v in row) for row in A]


def radius_sq(r: float, dim: int, rtol: float = 0.0) -> Fraction:
    """The squared radius in *unscaled* coordinates of a subspace of ``dim`` axes: dist_S <= r(1 + rtol)
    iff sum of squares <= dim r^2 (1 + rtol)^2."""
    return dim * (Fraction(float(r)) * (1 + Fraction(rtol))) ** 2


def _sq(p, q) -> Fraction:
    return sum((a - b) ** 2 for a, b in zip(p, q))


def _solve(G: list[list[Fraction]], b: list[Fraction]) -> list[Fraction] | None:
    """Gaussian elimination in rationals; None if singular."""
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(G)]
    for c in range(n):
        piv = next((i for i in range(c, n) if M[i][c] != 0), None)
        if piv is None:
            return None
        M[c], M[piv] = M[piv], M[c]
        for i in range(n):
            if i != c and M[i][c] != 0:
                f = M[i][c] / M[c][c]
                M[i] = [a - f * bb for a, bb in zip(M[i], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def circumball(B) -> tuple[tuple[Fraction, ...], Fraction] | None:
    """Centre (in the affine hull) and squared radius of the ball through all points of B; None if B is
    affinely dependent."""
    p0 = B[0]
    if len(B) == 1:
        return p0, Fraction(0)
    A = [tuple(a - b for a, b in zip(p, p0)) for p in B[1:]]
    G = [[sum(x * y for x, y in zip(u, v)) for v in A] for u in A]
    rhs = [sum(x * x for x in u) / 2 for u in A]
    lam = _solve(G, rhs)
    if lam is None:
        return None
    c = tuple(p0[i] + sum(l * u[i] for l, u in zip(lam, A)) for i in range(len(p0)))
    return c, _sq(c, p0)


def seb_sq(T) -> Fraction:
    """Exact squared radius of the smallest enclosing ball of the (distinct) points T (small sets)."""
    T = list(dict.fromkeys(T))
    best = None
    for m in range(1, len(T) + 1):
        for B in itertools.combinations(T, m):
            cb = circumball(list(B))
            if cb is None:
                continue
            c, R2 = cb
            if (best is None or R2 < best) and all(_sq(c, p) <= R2 for p in T):
                best = R2
    return best


def enclosable_masks(P, R2: Fraction) -> np.ndarray:
    """Bool array over the 2^n subsets (bit i = point i): enclosed by a closed ball of squared radius R2."""
    n, d = len(P), len(P[0])
    enc = np.zeros(1 << n, dtype=bool)
    enc[0] = True
    for mask in range(1, 1 << n):
        idx = [i for i in range(n) if mask >> i & 1]
        if len(idx) == 1:
            enc[mask] = True
        elif not all(enc[mask & ~(1 << i)] for i in idx):  # subsets of enclosable sets are enclosable
            enc[mask] = False
        elif len(idx) <= d + 1:
            enc[mask] = seb_sq([P[i] for i in idx]) <= R2
        else:  # Helly: enclosable iff every (d+1)-subset is, i.e. (inductively) every one-smaller subset
            enc[mask] = True
    return enc


def adjacency(P, R2: Fraction) -> np.ndarray:
    n = len(P)
    A = np.array([[a != b and _sq(P[a], P[b]) <= R2 for b in range(n)] for a in range(n)], dtype=bool)
    return A


def degrees(P, R2: Fraction) -> np.ndarray:
    return adjacency(P, R2).sum(axis=1)


def q_count(P, k: int, R2: Fraction) -> int:
    return int((degrees(P, R2) < k).sum())


def local_sensitivity(P, k: int, R2: Fraction) -> int:
    """Exact LS(X) over the continuous domain R^d (module docstring)."""
    n = len(P)
    A = adjacency(P, R2)
    deg = A.sum(axis=1)
    q = int((deg < k).sum())
    enc = enclosable_masks(P, R2)
    best = 0
    for j in range(n):
        others = [i for i in range(n) if i != j]
        dj = deg - A[:, j]
        base_out = dj < k  # outlier if nothing is added near it
        hi = int(base_out[others].sum()) + 1  # x' far away: T = {}, x' an outlier (k >= 1)
        lo = hi
        for mask in range(1 << n):
            if mask >> j & 1 or not enc[mask]:
                continue
            T = [i for i in others if mask >> i & 1]
            inT = np.zeros(n, dtype=bool)
            inT[T] = True
            f = int(((dj + inT) < k)[others].sum()) + (len(T) < k)
            lo = min(lo, f)
        best = max(best, hi - q, q - lo)
    return best


def largest_enclosed(P, window: np.ndarray, R2: Fraction) -> int:
    """M(P) of eqs. (45)-(46): the largest subset of the window enclosed by a closed ball of radius R."""
    idx = [i for i in range(len(P)) if window[i]]
    if not idx:
        return 0
    sub = [P[i] for i in idx]
    enc = enclosable_masks(sub, R2)
    return max(bin(m).count("1") for m in range(1 << len(idx)) if enc[m])


def theorem6_bounds(P, k: int, R2: Fraction) -> list[int]:
    """B_t = min(N, max_c M(W_t^c) + t + 1) for t = 0..N (Theorem 6, eq. 31 with Proposition 1's cap N),
    W_t^c = {x : |deg(x) - c| <= t}, c in {k, k - 1}."""
    n = len(P)
    deg = degrees(P, R2)
    out = []
    for t in range(n + 1):
        m = max(largest_enclosed(P, np.abs(deg - c) <= t, R2) for c in (k, k - 1))
        out.append(min(n, m + t + 1))
    return out


def smooth_from_bounds(bounds: list[int], beta: float) -> float:
    """max_t e^{-t beta} B_t (eq. 29 with beta, Algorithm 2's value)."""
    return max(math.exp(-t * beta) * b for t, b in enumerate(bounds))
