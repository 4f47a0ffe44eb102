"""Compiled kernel of the fast smooth bound's block counts (:func:`privanomaly.outliers.smooth.block_smooth_bound`).

For one data-independent grid of blocks (2 x ... x 2 cells of side ``a > 2r``) and records entering the windows
``W_t = {key <= t}`` one key at a time, ``max over blocks b of |b ∩ W_t|`` for every t: each record adds one to
the 2^m blocks that contain it (the blocks whose corner cell is its cell minus an offset in {0, 1}^m), and the
running maximum is read off after the last record of each key. O(n 2^m) hash-table updates - one per (record,
block) pair - instead of a sort of all n 2^m pairs; exact integers (a block is its corner's integer cell code,
compared in full), so the counts are those of the sort-based reference in ``tests/test_outliers_smooth_scale.py``.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
from numba import njit

__all__ = ["max_block_counts"]

#: up to this many (record, corner) pairs the table's keys are the cells themselves, one row per record (the
#: counts are the same integers: a block is its corner cell compared in full either way); above it, the distinct
#: cells' mixed-radix codes keep the table as small as the data's distinct cells
SMALL_PAIRS = 1 << 14
_EMPTY = np.int64(-1)  # corner codes are >= 0: cells are shifted to >= 1 and offsets are 0 or 1


@njit(cache=True)
def _slot(table, code, mask):
    """The slot of corner ``code`` (G int64) in the open-addressing ``table`` (inserted when absent)."""
    h = np.uint64(1469598103934665603)
    for g in range(code.shape[0]):
        h = (h ^ np.uint64(code[g])) * np.uint64(1099511628211)
    h ^= h >> np.uint64(29)
    s = np.int64(h & np.uint64(mask))
    while True:
        if table[s, 0] == _EMPTY:
            for g in range(code.shape[0]):
                table[s, g] = code[g]
            return s
        same = True
        for g in range(code.shape[0]):
            if table[s, g] != code[g]:
                same = False
                break
        if same:
            return s
        s = (s + 1) & mask


@njit(cache=True)
def _running_max(cell_code, cell_of, order, keys, offc, n_t, size):
    """best[t] = max over blocks of #records with key == t or entered before (records in ``order``, by key)."""
    G = cell_code.shape[1]
    table = np.full((size, G), _EMPTY, np.int64)
    cnt = np.zeros(size, np.int32)
    mask = size - 1
    best = np.zeros(n_t, np.int64)
    corner = np.empty(G, np.int64)
    cur = 0
    n = order.shape[0]
    for idx in range(n):
        i = order[idx]
        c = cell_of[i]
        for o in range(offc.shape[0]):
            for g in range(G):
                corner[g] = cell_code[c, g] - offc[o, g]
            s = _slot(table, corner, mask)
            cnt[s] += 1
            if cnt[s] > cur:
                cur = cnt[s]
        if idx == n - 1 or keys[order[idx + 1]] != keys[i]:
            best[keys[i]] = cur
    for t in range(1, n_t):
        if best[t] < best[t - 1]:
            best[t] = best[t - 1]
    return best


def _axis_groups(ranges: np.ndarray) -> list[list[int]]:
    """Consecutive axes grouped so that each group's mixed-radix code of a cell fits in int64."""
    groups: list[list[int]] = [[]]
    prod = 1
    for i, span in enumerate(ranges.tolist()):
        if prod * int(span) >= 2**62 and groups[-1]:
            groups.append([])
            prod = 1
        groups[-1].append(i)
        prod *= int(span)
    return groups


def _table_size(entries: int) -> int:
    """The hash table's size for ``entries`` (cell, corner) keys: a power of two >= 16, at most 3/4 full."""
    return 1 << max(4, int(np.ceil(np.log2(entries * 4 / 3 + 1))))


def _offsets(m: int) -> np.ndarray:
    """The 2^m corner offsets {0, 1}^m (rows; a fresh copy: the kernels take writable arrays)."""
    return _offset_table(m).copy()


@functools.cache
def _offset_table(m: int) -> np.ndarray:
    return np.array(list(itertools.product((0, 1), repeat=m)), dtype=np.int64)


def max_block_counts(cells: np.ndarray, keys: np.ndarray, n_t: int) -> np.ndarray:
    """For integer cell coordinates (n, m) and keys (n,) >= 0: ``max over 2^m-cell blocks of #records with
    key <= t`` for t = 0..n_t-1 (records with key >= n_t never count)."""
    keep = keys < n_t
    cells, keys = np.asarray(cells, dtype=np.int64)[keep], np.asarray(keys, dtype=np.int64)[keep]
    if len(keys) == 0:
        return np.zeros(n_t, dtype=np.int64)
    n, m = cells.shape
    cells = cells - cells.min(axis=0) + 1  # >= 1, so every corner cell (cell - offset) is >= 0
    order = np.argsort(keys, kind="stable")
    if n << m <= SMALL_PAIRS:  # each record its own row, its cell the code: no pass over the distinct cells
        return _running_max(cells, np.arange(n), order, keys, _offsets(m), int(n_t), _table_size(n << m))
    groups = _axis_groups(cells.max(axis=0) + 1)
    weights = []
    for g in groups:
        w = np.ones(len(g), dtype=np.int64)
        for j in range(1, len(g)):
            w[j] = w[j - 1] * (int(cells[:, g[j - 1]].max()) + 1)
        weights.append(w)
    code = np.stack([cells[:, g] @ w for g, w in zip(groups, weights)], axis=1)
    offs = _offsets(m)
    offc = np.stack([offs[:, g] @ w for g, w in zip(groups, weights)], axis=1)
    if len(groups) == 1:  # the same distinct codes and inverse as np.unique(code, axis=0), without its overhead
        cell_code, cell_of = np.unique(code[:, 0], return_inverse=True)
        cell_code = cell_code[:, None]
    else:
        cell_code, cell_of = np.unique(code, axis=0, return_inverse=True)
    return _running_max(np.ascontiguousarray(cell_code), cell_of.reshape(-1).astype(np.int64), order, keys,
                        np.ascontiguousarray(offc), int(n_t), _table_size(len(cell_code) * len(offs)))
