"""Capped weighted ball counts at many radii in one walk of the tree per query: the engine of
:func:`privanomaly.sp.ball_counts_radii`.

The tree and the distance arithmetic are :mod:`privanomaly.sp._fastballs`'. A query walks the tree once for
every radius together, pruned at the largest radius whose count is still below the cap; a node whose box lies
within some radii is added in bulk there and searched further only for the smaller ones. Every comparison is
one the single-radius walk makes (box distances bound point distances in floating point), so the counts are
the same integers as one :func:`privanomaly.sp._fastballs.capped_counts` per radius, at about the cost of the
largest radius still below the cap instead of the sum over radii.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._fastballs import _METRIC_CODE, _NOCAP, CappedTree, _box_minmax, _leaf_distances, _numba_threads, _threshold


@njit(cache=True, inline="always")
def _first_within(thrs, a, upper):
    """The first index j <= ``upper`` of the ascending ``thrs`` with a <= thrs[j]; ``upper`` + 1 if none."""
    lo_, hi_ = 0, upper + 1
    while lo_ < hi_:
        mid = (lo_ + hi_) // 2
        if a <= thrs[mid]:
            hi_ = mid
        else:
            lo_ = mid + 1
    return lo_


@njit(cache=True, inline="always")
def _split(q, l, rgt, lo, hi, wt, thrs, upper, metric, diff, stack, stack_mn, stack_lim, sp):
    """Visit an inner node's children ``l`` and ``rgt``: a child whose box lies within radius j and above is
    added in bulk there (through ``diff``) and pushed to be counted one by one only below that j, the nearer
    child last (visited first). Returns the new stack size."""
    ml, xl = _box_minmax(q, lo, hi, l, metric)
    mr, xr = _box_minmax(q, lo, hi, rgt, metric)
    jl = _first_within(thrs, xl, upper)
    jr = _first_within(thrs, xr, upper)
    diff[jl] += wt[l]
    diff[jr] += wt[rgt]
    diff[upper + 1] -= wt[l] + wt[rgt]
    if ml <= mr:
        sp = _push_lim(stack, stack_mn, stack_lim, sp, rgt, mr, jr - 1)
        return _push_lim(stack, stack_mn, stack_lim, sp, l, ml, jl - 1)
    sp = _push_lim(stack, stack_mn, stack_lim, sp, l, ml, jl - 1)
    return _push_lim(stack, stack_mn, stack_lim, sp, rgt, mr, jr - 1)


@njit(cache=True, inline="always")
def _top_below_cap(diff, cnt, top, cap):
    """The counts up to radius index ``top`` (prefix sums of ``diff``, into ``cnt``), and the largest index whose
    count is still below ``cap`` (-1: none)."""
    run = 0
    for j in range(top + 1):
        run += diff[j]
        cnt[j] = run
    while top >= 0 and cnt[top] >= cap:
        top -= 1
    return top


@njit(cache=True)
def _count_radii_one(q, PT, wp, start, end, left, right, lo, hi, wt, thrs, cap, metric, stack, stack_mn, stack_lim,
                     acc, diff, cnt):
    """Capped counts of q at every threshold of ``thrs`` (ascending) into ``cnt``, from one walk of the tree.

    Each (point, radius) pair is counted once: in bulk, when a node's box lies within the radius (its points'
    distances all do, as in :func:`_count_one`), else one by one. A stack entry carries ``lim``, the largest
    radius index its points are still to be counted at (above it an ancestor was added in bulk). Weights are
    added to a run of radius indices through the difference array ``diff``. A radius whose count reached
    ``cap`` is done (its capped count is ``cap`` whatever is left); the walk prunes at the largest radius not
    yet done and stops when every radius is done.
    """
    nr = thrs.shape[0]
    for j in range(nr + 1):
        diff[j] = 0
    top = nr - 1
    stack[0] = 0
    stack_mn[0] = _box_minmax(q, lo, hi, 0, metric)[0]
    stack_lim[0] = nr - 1
    sp = 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        upper = min(stack_lim[sp], top)
        if stack_mn[sp] > thrs[upper]:
            continue
        l = left[node]
        if l < 0:
            s = start[node]
            m = end[node] - s
            _leaf_distances(q, PT, s, m, metric, acc)
            for t in range(m):
                if acc[t] <= thrs[upper]:
                    diff[_first_within(thrs, acc[t], upper)] += wp[s + t]
                    diff[upper + 1] -= wp[s + t]
        else:
            sp = _split(q, l, right[node], lo, hi, wt, thrs, upper, metric, diff, stack, stack_mn, stack_lim, sp)
        top = _top_below_cap(diff, cnt, top, cap)
        if top < 0:
            break
    run = 0
    for j in range(nr):
        run += diff[j]
        cnt[j] = min(run, cap)


@njit(cache=True, inline="always")
def _push_lim(stack, stack_mn, stack_lim, sp, node, mn, lim):
    """Push ``node`` (box distance ``mn``, radius limit ``lim``) unless nothing of it is left to count."""
    if lim < 0:
        return sp
    stack[sp] = node
    stack_mn[sp] = mn
    stack_lim[sp] = lim
    return sp + 1


@njit(cache=True)
def _count_radii_chunk(c, out, Q, order, PT, wp, start, end, left, right, lo, hi, wt, thrs, rank, cap, metric,
                       depth, leafmax):
    """The counts of queries ``order[256 c : 256 (c + 1)]`` at every radius into ``out`` (rows in ``rank``)."""
    stack = np.empty(2 * depth + 8, np.int64)
    stack_mn = np.empty(2 * depth + 8)
    stack_lim = np.empty(2 * depth + 8, np.int64)
    acc = np.empty(leafmax)
    diff = np.empty(thrs.shape[0] + 1, np.int64)
    cnt = np.empty(thrs.shape[0], np.int64)
    for t in range(c * 256, min(Q.shape[0], (c + 1) * 256)):
        qi = order[t]
        _count_radii_one(Q[qi], PT, wp, start, end, left, right, lo, hi, wt, thrs, cap, metric, stack, stack_mn,
                         stack_lim, acc, diff, cnt)
        for j in range(thrs.shape[0]):
            out[rank[j], qi] = cnt[j]


@njit(cache=True, parallel=True)
def _count_radii_all(Q, order, PT, wp, start, end, left, right, lo, hi, wt, thrs, rank, cap, metric, depth, leafmax):
    out = np.empty((thrs.shape[0], Q.shape[0]), np.int64)
    for c in prange((Q.shape[0] + 255) // 256):
        _count_radii_chunk(c, out, Q, order, PT, wp, start, end, left, right, lo, hi, wt, thrs, rank, cap, metric,
                           depth, leafmax)
    return out


@njit(cache=True)
def _count_radii_serial(Q, order, PT, wp, start, end, left, right, lo, hi, wt, thrs, rank, cap, metric, depth,
                        leafmax):
    """:func:`_count_radii_all` in the calling thread (see :func:`_count_all_serial`)."""
    out = np.empty((thrs.shape[0], Q.shape[0]), np.int64)
    for c in range((Q.shape[0] + 255) // 256):
        _count_radii_chunk(c, out, Q, order, PT, wp, start, end, left, right, lo, hi, wt, thrs, rank, cap, metric,
                           depth, leafmax)
    return out


def capped_counts_radii(Q, P, w, radii, metric, cap, workers: int = 1) -> np.ndarray:
    """min(sum of w over points of P within r of each query, cap) at every r of ``radii``: int64
    (len(radii), len(Q)), from one walk of the tree per query (:func:`_count_radii_one`)."""
    radii = np.asarray(radii, dtype=np.float64).reshape(-1)
    if P.shape[0] == 0 or radii.size == 0:
        return np.zeros((radii.size, Q.shape[0]), dtype=np.int64)
    tree = CappedTree(P, w)
    code = _METRIC_CODE[metric]
    rank = np.argsort(radii, kind="stable").astype(np.int64)
    thrs = np.array([_threshold(r, code) for r in radii[rank]])
    order = tree.perm.astype(np.int64) if Q is P else np.arange(Q.shape[0], dtype=np.int64)
    args = (np.ascontiguousarray(Q, dtype=np.float64), order, tree.PT, tree.wp, tree.start, tree.end, tree.left,
            tree.right, tree.lo, tree.hi, tree.wt, thrs, rank, _NOCAP if cap is None else np.int64(cap), code,
            tree.depth, tree.leafmax)
    if workers == 1:
        return _count_radii_serial(*args)
    with _numba_threads(workers):
        return _count_radii_all(*args)
