"""Compiled kernel of Algorithm 1's closed form in the plane (:func:`privanomaly.outliers.enclosing._largest_enclosed_2d`).

For distinct points U (weights w) and each point's neighbourhood (the KD-tree's rows within ``2 rr`` of it, in CSR
form): the largest weight within ``rr`` of a candidate centre, over the centres at the points and the two
radius-``rd`` disc centres through every pair. The same float operations, in the same order, as the numpy version
it replaced (``tests/test_outliers_enclosing_2d.py`` keeps that version and checks both agree on every candidate
set of the float-boundary worlds and on random sets): differences local to the pair's first point, distances by
``hypot``, centres ``D / 2 + (+-h) perp``, the two defining points counted by index. Integers throughout for the
counts, so the answer is the same integer.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["disc_max"]


@njit(cache=True)
def disc_max(U, w, start, nbr, rr, rd):  # pragma: no cover - compiled
    """max over candidate centres of the weight of U within ``rr`` (module docstring); U (n, 2) float64, w (n,)
    int64, the neighbours of point a are ``nbr[start[a]:start[a + 1]]`` (a itself among them)."""
    n = U.shape[0]
    total = 0
    for i in range(n):
        total += w[i]
    size = 0
    for a in range(n):
        size = max(size, start[a + 1] - start[a])
    dx = np.empty(size)
    dy = np.empty(size)
    dist = np.empty(size)
    best = 0
    for a in range(n):
        lo = start[a]
        cnt = start[a + 1] - lo
        s = 0
        for j in range(cnt):
            b = nbr[lo + j]
            dx[j] = U[b, 0] - U[a, 0]
            dy[j] = U[b, 1] - U[a, 1]
            dist[j] = math.hypot(abs(dx[j]), abs(dy[j]))
            if dist[j] <= rr:
                s += w[b]
        best = max(best, s)  # the disc centred at U[a]
        if best == total:
            return best
        for j in range(cnt):
            b = nbr[lo + j]
            if b <= a or not dist[j] <= 2.0 * rr:  # each pair (a, b) once
                continue
            half = dist[j] / 2.0
            h = math.sqrt(max(rd * rd - half * half, 0.0))
            den = 2.0 * half
            px = -dy[j] / den
            py = dx[j] / den
            for sgn in (1.0, -1.0):
                sh = sgn * h
                cx = dx[j] / 2.0 + sh * px
                cy = dy[j] / 2.0 + sh * py
                c = 0
                for m in range(cnt):
                    q = nbr[lo + m]
                    if q == a or m == j or math.hypot(abs(dx[m] - cx), abs(dy[m] - cy)) <= rr:
                        c += w[q]
                best = max(best, c)
    return best
