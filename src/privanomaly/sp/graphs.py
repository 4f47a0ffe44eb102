"""Exhaustive small worlds for paper A: histograms, the neighbourhood graph G, the k-sensitive graph G_S
(Sec. 3) and mdd (Eq. 1) by breadth-first search. Used as a proof oracle in the tests and for Figure 4.

A world is a small record universe X = {0..n-1} with positions (default: 1-D points 1..n, as in
Figure 4: X = {1..5} with the l1 metric) and all histograms with counts 0..cap. Histogram h has the
index sum_j h_j (cap+1)^j, so ``enumerate_histograms(n, cap)[idx] == h``.

Truncation: the enumerated graph is the subgraph of the infinite G (or G_S) induced on
{0..cap}^X. Distances in it are >= the true ones, and any path leaving the box from h needs at least
cap + 1 - max(h) steps, so the true distance is >= min(box distance, cap + 1 - max(h)), and equals the
box distance whenever that is <= cap + 1 - max(h) (:func:`certified_lower_bound`).
"""

from __future__ import annotations

import numpy as np

from .balls import pairwise_within

__all__ = [
    "enumerate_histograms",
    "hist_index",
    "domain_ball_matrix",
    "ball_count_hist",
    "neighbourhood_graph",
    "sensitive_graph",
    "anomaly_labels",
    "bfs_distance_to",
    "bfs_mdd",
    "certified_lower_bound",
    "to_networkx",
]


def enumerate_histograms(domain_size: int, cap: int) -> np.ndarray:
    """All histograms over ``domain_size`` records with counts 0..cap: int64 ((cap+1)^n, n)."""
    n, c = int(domain_size), int(cap)
    if n < 1 or c < 0:
        raise ValueError("domain_size must be >= 1 and cap >= 0")
    if (c + 1) ** n > 5_000_000:
        raise ValueError(f"(cap+1)^domain_size = {(c + 1) ** n} states is too many to enumerate")
    idx = np.arange((c + 1) ** n, dtype=np.int64)
    return (idx[:, None] // (c + 1) ** np.arange(n, dtype=np.int64)) % (c + 1)


def hist_index(hists, cap: int) -> np.ndarray:
    """Index of each histogram in :func:`enumerate_histograms` order."""
    h = np.asarray(hists, dtype=np.int64)
    return h @ ((int(cap) + 1) ** np.arange(h.shape[-1], dtype=np.int64))


def _positions(n: int, positions) -> np.ndarray:
    if positions is None:
        return np.arange(1, n + 1, dtype=float)[:, None]
    p = np.asarray(positions, dtype=float)
    if p.ndim == 1:
        p = p[:, None]
    if p.shape[0] != n:
        raise ValueError(f"positions must have {n} rows (one per record), got {p.shape[0]}")
    return p


def domain_ball_matrix(domain_size: int, r: float, metric: str = "manhattan", positions=None) -> np.ndarray:
    """A[i, j] = 1 iff d(i, j) <= r over the record universe (int64 (n, n))."""
    p = _positions(int(domain_size), positions)
    return pairwise_within(p, p, r, metric).astype(np.int64)


def ball_count_hist(hist, i=None, r: float = 1.0, metric: str = "manhattan", positions=None) -> np.ndarray:
    """B_x(i, r) = sum_{j: d(i,j) <= r} x_j for histograms ``hist`` (..., n).

    ``i`` = None gives all records (..., n); an int gives (...,).
    """
    h = np.asarray(hist, dtype=np.int64)
    A = domain_ball_matrix(h.shape[-1], r, metric, positions)
    Ball = h @ A  # A symmetric
    return Ball if i is None else Ball[..., int(i)]


def neighbourhood_graph(domain_size: int, cap: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edges of G on the box {0..cap}^n: (u, v, j) with hist[v] = hist[u] + e_j (record j added at v)."""
    n, c = int(domain_size), int(cap)
    H = enumerate_histograms(n, c)
    us, vs, js = [], [], []
    for j in range(n):
        u = np.flatnonzero(H[:, j] < c)
        us.append(u)
        vs.append(u + (c + 1) ** j)
        js.append(np.full(u.size, j, dtype=np.int64))
    return np.concatenate(us), np.concatenate(vs), np.concatenate(js)


def sensitive_graph(
    domain_size: int, cap: int, r: float, beta: int, k: int, metric: str = "manhattan", positions=None, edges=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edges of the k-sensitive graph G_S ((beta, r)-anomaly), a subset of :func:`neighbourhood_graph`.

    (x, y) is an edge iff they differ by one record j that is k-sensitive w.r.t. x or y (Sec. 3);
    by Lemma A.2 that is B(j) >= beta + 1 - k at the larger histogram (B only grows when adding j).
    """
    H = enumerate_histograms(domain_size, cap)
    u, v, j = neighbourhood_graph(domain_size, cap) if edges is None else edges
    Bv = ball_count_hist(H[v], None, r, metric, positions)[np.arange(v.size), j]
    keep = Bv >= beta + 1 - k
    return u[keep], v[keep], j[keep]


def anomaly_labels(domain_size: int, cap: int, i: int, r: float, beta: int, metric="manhattan", positions=None):
    """g(i, h) for every histogram h of the box (int8)."""
    H = enumerate_histograms(domain_size, cap)
    B = ball_count_hist(H, i, r, metric, positions)
    return ((H[:, i] >= 1) & (B <= beta)).astype(np.int8)


def _adjacency(n_states: int, u, v):
    data = np.ones(2 * len(u), dtype=np.int8)
    rows = np.concatenate([u, v])
    cols = np.concatenate([v, u])
    from scipy import sparse  # lazy (scipy.sparse is start-up cost for every job importing privanomaly.sp)

    return sparse.csr_matrix((data, (rows, cols)), shape=(n_states, n_states))


def bfs_distance_to(n_states: int, u, v, sources) -> np.ndarray:
    """Graph distance (number of edges) from every state to the nearest of ``sources`` (inf if none)."""
    src = np.flatnonzero(np.asarray(sources, dtype=bool)) if np.asarray(sources).dtype == bool else np.asarray(sources)
    if src.size == 0:
        return np.full(n_states, np.inf)
    A = _adjacency(n_states, u, v)
    from scipy.sparse.csgraph import dijkstra

    return dijkstra(A, directed=False, indices=src, unweighted=True, min_only=True)


def bfs_mdd(labels, u, v) -> np.ndarray:
    """Delta(h) = graph distance from h to the nearest state with a different label (Eq. 1); inf if none."""
    lab = np.asarray(labels).astype(bool)
    n = lab.size
    d1 = bfs_distance_to(n, u, v, lab)
    d0 = bfs_distance_to(n, u, v, ~lab)
    return np.where(lab, d0, d1)


def certified_lower_bound(box_dist, hists, cap: int) -> np.ndarray:
    """min(box distance, cap + 1 - max_j h_j): a certified lower bound of the untruncated distance."""
    m = np.asarray(hists).max(axis=-1)
    return np.minimum(np.asarray(box_dist, dtype=float), cap + 1 - m)


def to_networkx(domain_size: int, cap: int, u, v, j):
    """The graph as a ``networkx.Graph``; nodes are histogram tuples, edge attribute ``record`` = j (0-based)."""
    import networkx as nx

    H = enumerate_histograms(domain_size, cap)
    G = nx.Graph()
    G.add_nodes_from(tuple(int(a) for a in h) for h in H)
    for a, b, rec in zip(u, v, j):
        G.add_edge(tuple(int(t) for t in H[a]), tuple(int(t) for t in H[b]), record=int(rec))
    return G
