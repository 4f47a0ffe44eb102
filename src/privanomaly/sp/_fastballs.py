"""Compiled (numba) KD-tree for weighted, capped ball counts: the engine of :func:`ball_counts`.

Tree: median splits on the widest coordinate, tight bounding boxes, leaves of <= LEAF points, each
node storing the total weight (multiplicity) of its points. Query for q: depth-first, nearer child
first; a node whose box is farther than r is skipped, a node whose box lies entirely within r adds its
weight at once, leaves test points one by one; the walk stops as soon as the count reaches the cap.

Exactness on the boundary: box distances are computed from the same float operations as point
distances (coordinate differences, then sum over k = 0..d-1 in order). Float subtraction, squaring,
abs, addition and max are monotone, so for every point p of a box min-dist(q, box) <= dist(q, p) <=
max-dist(q, box) holds *in floating point*: pruning and bulk inclusion never change a single
comparison ``dist(q, p) <= r`` relative to the brute force of :func:`pairwise_within`.

Many radii at once: :mod:`privanomaly.sp._fastradii`, on the same tree.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba
import numpy as np
from numba import njit, prange

LEAF = 128
_NOCAP = np.int64(2**62)
_METRIC_CODE = {"euclidean": 0, "manhattan": 1, "chebyshev": 2}


def _threshold(r: float, code: int) -> float:
    """The radius as the kernels compare distances with it: squared for the Euclidean metric (code 0)."""
    return float(r) * float(r) if code == 0 else float(r)


@contextmanager
def _numba_threads(workers: int) -> Iterator[None]:
    """numba's thread count set to ``workers`` (< 1: all) for the block, restored after it."""
    old = numba.get_num_threads()
    try:
        nt = numba.config.NUMBA_NUM_THREADS
        numba.set_num_threads(nt if int(workers) < 1 else min(int(workers), nt))
        yield
    finally:
        numba.set_num_threads(old)


@njit(cache=True)
def _fill_box(P, w, perm, s, e, lo, hi):
    """The bounding box (``lo``, ``hi``, filled in place) and total weight of points ``perm[s:e]``."""
    d = P.shape[1]
    for k in range(d):
        lo[k] = np.inf
        hi[k] = -np.inf
    tot = 0
    for t in range(s, e):
        p = perm[t]
        tot += w[p]
        for k in range(d):
            v = P[p, k]
            if v < lo[k]:
                lo[k] = v
            if v > hi[k]:
                hi[k] = v
    return tot


@njit(cache=True)
def _widest(lo, hi):
    """(dimension, width) of the widest side of a box (the first on ties)."""
    best = 0
    bw = -1.0
    for k in range(lo.shape[0]):
        ww = hi[k] - lo[k]
        if ww > bw:
            bw = ww
            best = k
    return best, bw


@njit(cache=True)
def _sort_along(P, perm, s, e, dim):
    """Reorder ``perm[s:e]`` by coordinate ``dim`` of its points (stable)."""
    vals = np.empty(e - s)
    for t in range(s, e):
        vals[t - s] = P[perm[t], dim]
    order = np.argsort(vals, kind="mergesort")
    seg = perm[s:e].copy()
    for t in range(e - s):
        perm[s + t] = seg[order[t]]


@njit(cache=True)
def _build(P, w, leaf):
    n, d = P.shape
    max_nodes = 2 * (n // max(1, leaf // 2) + 1) + 1
    perm = np.arange(n)
    start = np.empty(max_nodes, np.int64)
    end = np.empty(max_nodes, np.int64)
    left = np.full(max_nodes, -1, np.int64)
    right = np.full(max_nodes, -1, np.int64)
    lo = np.empty((max_nodes, d))
    hi = np.empty((max_nodes, d))
    wt = np.zeros(max_nodes, np.int64)
    stack = np.empty(max_nodes, np.int64)
    nn = 1
    start[0] = 0
    end[0] = n
    sp = 0
    stack[sp] = 0
    sp += 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        s = start[node]
        e = end[node]
        wt[node] = _fill_box(P, w, perm, s, e, lo[node], hi[node])
        if e - s <= leaf:
            continue
        best, bw = _widest(lo[node], hi[node])
        if bw <= 0.0:
            continue  # all points identical (cannot happen after dedupe, but be safe)
        _sort_along(P, perm, s, e, best)
        mid = s + (e - s) // 2
        c1 = nn
        c2 = nn + 1
        nn += 2
        start[c1] = s
        end[c1] = mid
        start[c2] = mid
        end[c2] = e
        left[node] = c1
        right[node] = c2
        stack[sp] = c1
        sp += 1
        stack[sp] = c2
        sp += 1
    return perm, start[:nn], end[:nn], left[:nn], right[:nn], lo[:nn].copy(), hi[:nn].copy(), wt[:nn]


@njit(cache=True, inline="always")
def _box_minmax(q, lo, hi, node, metric):
    d = q.shape[0]
    mn = 0.0
    mx = 0.0
    for k in range(d):
        a = lo[node, k] - q[k]
        b = q[k] - hi[node, k]
        da = abs(a)
        db = abs(hi[node, k] - q[k])
        near = 0.0
        if a > 0.0:
            near = a
        elif b > 0.0:
            near = b
        far = da if da > db else db
        if metric == 0:
            mn += near * near
            mx += far * far
        elif metric == 1:
            mn += near
            mx += far
        else:
            if near > mn:
                mn = near
            if far > mx:
                mx = far
    return mn, mx


@njit(cache=True)
def _leaf_distances(q, PT, s, m, metric, acc):
    """acc[t] = the distance from q to point s + t of the tree (t < m), as the counts compare it with their
    threshold: squared for the Euclidean metric (0), L1 (1), L-infinity (2)."""
    for t in range(m):
        acc[t] = 0.0
    for k in range(q.shape[0]):
        qk = q[k]
        if metric == 0:
            for t in range(m):
                diff = PT[k, s + t] - qk
                acc[t] += diff * diff
        elif metric == 1:
            for t in range(m):
                acc[t] += abs(PT[k, s + t] - qk)
        else:
            for t in range(m):
                a = abs(PT[k, s + t] - qk)
                if a > acc[t]:
                    acc[t] = a


@njit(cache=True)
def _push_children(stack, stack_mn, sp, l, ml, rgt, mr):
    """Push both children with their box distances, the farther first so that the nearer is visited first;
    returns the new stack size."""
    if ml <= mr:
        stack[sp] = rgt
        stack_mn[sp] = mr
        stack[sp + 1] = l
        stack_mn[sp + 1] = ml
    else:
        stack[sp] = l
        stack_mn[sp] = ml
        stack[sp + 1] = rgt
        stack_mn[sp + 1] = mr
    return sp + 2


@njit(cache=True)
def _count_one(q, PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, stack, stack_mn, acc):
    cnt = 0
    mn0, mx0 = _box_minmax(q, lo, hi, 0, metric)
    if mn0 > thr:
        return 0
    stack[0] = 0
    stack_mn[0] = mn0
    sp = 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        if stack_mn[sp] > thr:
            continue
        l = left[node]
        if l < 0:
            s = start[node]
            e = end[node]
            m = e - s
            _leaf_distances(q, PT, s, m, metric, acc)
            for t in range(m):
                if acc[t] <= thr:
                    cnt += wp[s + t]
            if cnt >= cap:
                return cap
            continue
        rgt = right[node]
        ml, xl = _box_minmax(q, lo, hi, l, metric)
        mr, xr = _box_minmax(q, lo, hi, rgt, metric)
        # children entirely inside the ball: add their weight at once
        if xl <= thr:
            cnt += wt[l]
            ml = np.inf
        if xr <= thr:
            cnt += wt[rgt]
            mr = np.inf
        if cnt >= cap:
            return cap
        sp = _push_children(stack, stack_mn, sp, l, ml, rgt, mr)
    return cnt


@njit(cache=True)
def _count_chunk(c, out, Q, order, PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, depth, leafmax):
    """The counts of queries ``order[256 c : 256 (c + 1)]`` into ``out`` (one chunk of :func:`_count_all`)."""
    m = Q.shape[0]
    stack = np.empty(2 * depth + 8, np.int64)
    stack_mn = np.empty(2 * depth + 8)
    acc = np.empty(leafmax)
    for t in range(c * 256, min(m, (c + 1) * 256)):
        qi = order[t]
        mx = _box_minmax(Q[qi], lo, hi, 0, metric)[1]
        if mx <= thr:
            out[qi] = min(wt[0], cap)
        else:
            out[qi] = _count_one(
                Q[qi], PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, stack, stack_mn, acc
            )


@njit(cache=True, parallel=True)
def _count_all(Q, order, PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, depth, leafmax):
    out = np.empty(Q.shape[0], np.int64)
    for c in prange((Q.shape[0] + 255) // 256):
        _count_chunk(c, out, Q, order, PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, depth, leafmax)
    return out


@njit(cache=True)
def _count_all_serial(Q, order, PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, depth, leafmax):
    """:func:`_count_all` in the calling thread: never starts numba's thread pool (a process that forks later -
    paper B's safety timeout runs its bound in a forked child - must not have started it: GNU OpenMP aborts)."""
    out = np.empty(Q.shape[0], np.int64)
    for c in range((Q.shape[0] + 255) // 256):
        _count_chunk(c, out, Q, order, PT, wp, start, end, left, right, lo, hi, wt, thr, cap, metric, depth, leafmax)
    return out


def _depth(left, right) -> int:
    depth = np.zeros(left.size, dtype=np.int64)
    for node in range(left.size):  # children always have larger ids than parents
        if left[node] >= 0:
            depth[left[node]] = depth[node] + 1
            depth[right[node]] = depth[node] + 1
    return int(depth.max()) + 1


class CappedTree:
    """KD-tree over points P with integer weights w; :meth:`count` returns capped weighted ball counts."""

    def __init__(self, P: np.ndarray, w: np.ndarray, leaf: int = LEAF):
        self.P = np.ascontiguousarray(P, dtype=np.float64)
        self.w = np.ascontiguousarray(w, dtype=np.int64)
        (self.perm, self.start, self.end, self.left, self.right, self.lo, self.hi, self.wt) = _build(
            self.P, self.w, int(leaf)
        )
        self.depth = _depth(self.left, self.right)
        # points in tree order, coordinate-major (SoA) so leaf scans vectorise over points; the sum over
        # coordinates stays sequential (k = 0..d-1) for every point, as in the brute force
        self.PT = np.ascontiguousarray(self.P[self.perm].T)
        self.wp = np.ascontiguousarray(self.w[self.perm])
        self.leafmax = int(np.max(self.end - self.start)) if self.end.size else 1

    def count(self, Q: np.ndarray, r: float, metric: str, cap=None, workers: int = 1, order=None) -> np.ndarray:
        Q = np.ascontiguousarray(Q, dtype=np.float64)
        code = _METRIC_CODE[metric]
        c = _NOCAP if cap is None else np.int64(cap)
        if order is None:
            order = np.arange(Q.shape[0], dtype=np.int64)
        args = (Q, order, self.PT, self.wp, self.start, self.end, self.left, self.right,
                self.lo, self.hi, self.wt, _threshold(r, code), c, code, self.depth, self.leafmax)
        if workers == 1:  # no thread pool at all (see _count_all_serial)
            return _count_all_serial(*args)
        with _numba_threads(workers):
            return _count_all(*args)


def capped_counts(Q, P, w, r, metric, cap, workers: int = 1) -> np.ndarray:
    """min(sum of w over points of P within r of each query, cap) (cap None = no cap)."""
    if P.shape[0] == 0:
        return np.zeros(Q.shape[0], dtype=np.int64)
    tree = CappedTree(P, w)
    same = Q is P
    order = tree.perm.astype(np.int64) if same else None  # spatially coherent query order
    return tree.count(Q, r, metric, cap=cap, workers=workers, order=order)
