"""Exhaustive small worlds for the audit: grid domains, every histogram in a box, G and G_S edges.

A world is a record universe of grid points (1-D lines and 2-D grids), a metric (l1 = "manhattan",
l2 = "euclidean", l_inf = "chebyshev"), a radius r and a box cap: every histogram with counts 0..cap per
point is a state (:func:`privanomaly.sp.enumerate_histograms`). Edges of G add or remove one record
(:func:`privanomaly.sp.neighbourhood_graph`); an edge is in G_S(k) for (beta, r) iff the record changed is
k-sensitive at the larger database, B(j) >= beta + 1 - k (Lemma A.2; :func:`privanomaly.sp.sensitive_graph`).

Paper A's mechanisms answer for one queried record i from (x_i, B_x(i, r)) only, so an edge is summarised by
its *signature pair* ((x_i, B) at one end, (x_i, B) at the other); the audit checks every distinct pair
exactly, and counts every edge it covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from privanomaly import sp

__all__ = ["World", "DOMAINS", "make_worlds", "SIG_BASE", "PAIR_BASE", "decode_sig", "decode_pair"]

SIG_BASE = 1 << 10
"""Signature of (x_i, B) is x_i * SIG_BASE + B (B < 1024 in every domain here)."""
PAIR_BASE = 1 << 24
"""A pair of signatures is sig_u * PAIR_BASE + sig_v."""

DOMAINS = {
    "line4": (np.arange(1, 5, dtype=float)[:, None], 5),
    "line5": (np.arange(1, 6, dtype=float)[:, None], 3),
    "grid2x2": (np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=float), 5),
    "grid3x2": (np.array([[x, y] for y in range(2) for x in range(3)], dtype=float), 2),
}
"""name -> (positions of the grid points, box cap = largest multiplicity enumerated)."""


@dataclass(frozen=True)
class World:
    """One exhaustive world and, for every queried record i, the signature pair of every G edge."""

    domain: str
    metric: str
    r: float
    box_cap: int
    n_states: int
    pair_codes: np.ndarray  # (n_records, n_edges) int64 signature-pair codes
    changed_ball: np.ndarray  # (n_edges,) B(j) of the changed record j at the larger end of each edge

    @property
    def name(self) -> str:
        return f"{self.domain}/{self.metric}/r={self.r:g}/cap={self.box_cap}"

    def pairs(self, relation: str, beta: int | None = None, k: int | None = None) -> tuple[np.ndarray, int]:
        """Distinct signature-pair codes of the relation's edges (all queried records) and the edge count."""
        if relation == "add_remove":
            codes = self.pair_codes
        elif relation == "sensitive_k":
            keep = self.changed_ball >= int(beta) + 1 - int(k)
            codes = self.pair_codes[:, keep]
        else:
            raise ValueError(f"grid worlds have no {relation!r} edges (add_remove or sensitive_k)")
        return np.unique(codes), int(codes.size)


@lru_cache(maxsize=None)
def _world(domain: str, metric: str, r: float) -> World:
    pos, box_cap = DOMAINS[domain]
    n = len(pos)
    assert n * box_cap < SIG_BASE and (box_cap + 1) * SIG_BASE <= PAIR_BASE
    H = sp.enumerate_histograms(n, box_cap)
    ball = sp.ball_count_hist(H, None, r, metric, pos)
    u, v, j = sp.neighbourhood_graph(n, box_cap)
    sig = H * SIG_BASE + ball  # (S, n)
    codes = (sig[u] * PAIR_BASE + sig[v]).T.copy()  # (n, E)
    return World(domain, metric, float(r), box_cap, len(H), codes, ball[v, j])


def make_worlds(domains, metrics, radii) -> list[World]:
    """Every (domain, metric, r) world (cached: each is enumerated once per process)."""
    return [_world(d, m, float(r)) for d in domains for m in metrics for r in radii]


def decode_sig(code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(x_i, B) from signature codes."""
    code = np.asarray(code, dtype=np.int64)
    return code // SIG_BASE, code % SIG_BASE


def decode_pair(code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(signature at u, signature at v) from pair codes."""
    code = np.asarray(code, dtype=np.int64)
    return code // PAIR_BASE, code % PAIR_BASE
