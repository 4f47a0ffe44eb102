"""k-nearest-neighbour distances of a dataset's own records, queried in the KD-tree's order."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from privanomaly.run.log import Ticker

#: queries per call of the tree (a progress line may follow each, at most one every 5 s)
CHUNK = 16_384


def knn_distances(tree: cKDTree, P: np.ndarray, k: int, rows: np.ndarray | None = None, p: float = 2.0,
                  workers: int = 1) -> np.ndarray:
    """``tree.query(P[rows], k=k, p=p)[0]`` (``rows`` None: every row of P, the tree's own points) as
    ``(len(rows), k)`` distances, the queries issued in the order of the tree's leaves (``workers``: the query's).

    Each query is answered on its own, so the floats are those of the plain call; only the order differs (and the
    queries go in chunks of :data:`CHUNK`, so that a long query logs its progress with the time left):
    neighbouring queries walk the same nodes, which the cache keeps - on the credit-card stand-in (284,807 x 6,
    k = 4) 14.2 -> 4.4 s of CPU, measured here (loaded machine)."""
    n = len(P)
    rank = np.empty(n, dtype=np.int64)
    rank[tree.indices] = np.arange(n)  # where each record lies in the tree's order (tree.indices: its leaves')
    rows = np.arange(n) if rows is None else np.asarray(rows)
    rows = np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.int64, copy=False)
    order = np.argsort(rank[rows], kind="stable")
    out = np.empty((len(rows), k))
    tick = Ticker(f"{k}-nearest neighbours of {len(rows)} records", 5.0)
    for start in range(0, len(rows), CHUNK):  # chunks: a long query writes a progress line with the time left
        part = order[start:start + CHUNK]
        out[part] = np.asarray(tree.query(P[rows[part]], k=k, p=p, workers=workers)[0]).reshape(len(part), k)
        tick(lambda: f"{start + len(part)} of {len(rows)} queried, {tick.time_left(start + len(part), len(rows))}")
    return out
