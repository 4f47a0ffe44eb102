"""The exact privacy loss of closed-form output distributions, and the worst edge of a neighbourhood graph.

An audit (:mod:`privanomaly.audit.statistical`) samples a mechanism on one neighbouring pair; which pair is chosen
here, exhaustively over a small world's edges, from the mechanisms' closed-form output distributions: the
hockey-stick divergence δ(ε) of two discrete distributions (and of two Gaussians,
:func:`privanomaly.outliers.gaussian.gaussian_hockey_stick`), the exact ε at a δ, the edge with the largest loss.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Hashable, Iterable

import numpy as np

from privanomaly.audit.statistical import detectable_loss
from privanomaly.outliers.gaussian import gaussian_hockey_stick  # δ(ε) of two Gaussians: math, re-exported here

__all__ = [
    "hockey_stick",
    "exact_epsilon",
    "gaussian_hockey_stick",
    "gaussian_epsilon",
    "worst_edge",
    "worst_binary_edge",
    "binary_distribution",
]


def hockey_stick(p: np.ndarray, q: np.ndarray, epsilon: float) -> float:
    """δ(ε) = Σ_o max(0, p(o) − e^ε q(o)) for two discrete distributions (the smallest δ with (ε,δ) on p→q)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    return float(np.maximum(0.0, p - np.exp(epsilon) * q).sum())


def exact_epsilon(p: np.ndarray, q: np.ndarray, delta: float = 0.0, symmetric: bool = True) -> float:
    """The exact privacy loss of two discrete output distributions (last axis = outputs).

    δ = 0: max over outputs of |ln p/q| (``inf`` if one is zero where the other is not). δ > 0: the smallest
    ε ≥ 0 with hockey_stick(p, q, ε) ≤ δ (bisection), in both directions if ``symmetric``.
    """
    p, q = np.asarray(p, float), np.asarray(q, float)
    if p.shape != q.shape:
        raise ValueError(f"shape mismatch {p.shape} vs {q.shape}")
    pairs = [(p, q), (q, p)] if symmetric else [(p, q)]
    if delta == 0.0:
        worst = 0.0
        for a, b in pairs:
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.where(a > 0, np.log(a) - np.log(b), 0.0)
            worst = max(worst, float(np.max(r)))
        return worst
    worst = 0.0
    for a, b in pairs:
        if hockey_stick(a, b, 0.0) <= delta:
            continue
        lo, hi = 0.0, 1.0
        while hockey_stick(a, b, hi) > delta:
            hi *= 2.0
            if hi > 1e4:
                return float("inf")
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if hockey_stick(a, b, mid) > delta else (lo, mid)
        worst = max(worst, hi)
    return worst


def gaussian_epsilon(m1: float, s1: float, m2: float, s2: float, delta: float, symmetric: bool = True) -> float:
    """The smallest ε ≥ 0 with δ(ε) ≤ ``delta`` for N(m1, s1²) vs N(m2, s2²) (both directions if symmetric)."""
    if not (0.0 < delta < 1.0):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    pairs = [(m1, s1, m2, s2), (m2, s2, m1, s1)] if symmetric else [(m1, s1, m2, s2)]
    worst = 0.0
    for p in pairs:
        if gaussian_hockey_stick(*p, 0.0) <= delta:
            continue
        lo, hi = 0.0, 1.0
        while gaussian_hockey_stick(*p, hi) > delta:
            hi *= 2.0
            if hi > 1e4:
                return math.inf
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if gaussian_hockey_stick(*p, mid) > delta else (lo, mid)
        worst = max(worst, hi)
    return worst


def worst_edge(
    edges: Iterable[tuple[Any, Any]],
    distribution: Callable[[Any], np.ndarray],
    *,
    delta: float = 0.0,
) -> tuple[tuple[Any, Any], float]:
    """The neighbouring pair (edge) with the largest exact privacy loss, and that loss.

    ``distribution(state)`` returns the mechanism's closed-form output distribution on ``state`` (a
    probability vector over a fixed output range, the same for all states). Edges are undirected: both
    directions are checked.
    """
    cache: dict[Any, np.ndarray] = {}

    def dist(s: Any) -> np.ndarray:
        key = _hashable(s)
        if key not in cache:
            cache[key] = np.asarray(distribution(s), dtype=float)
        return cache[key]

    best_edge, best = None, -np.inf
    for a, b in edges:
        e = exact_epsilon(dist(a), dist(b), delta=delta)
        if e > best:
            best_edge, best = (a, b), e
    if best_edge is None:
        raise ValueError("worst_edge: no edges")
    return best_edge, float(best)


def worst_binary_edge(
    p_one: np.ndarray, u: np.ndarray, v: np.ndarray, *, n: int | None = None, alpha: float = 1e-3
) -> tuple[int, float]:
    """Vectorised :func:`worst_edge` for a binary mechanism: ``p_one[s]`` = P(M(s) = 1) for every state,
    edges ``(u[e], v[e])``. Returns (index of the worst edge, its exact loss max |ln P(o|u)/P(o|v)|).

    With ``n`` (samples per side) the edges are ranked instead by :func:`detectable_loss`, the ε̂ an audit
    with n samples can be expected to reach there: the exact worst edge often sits in a far tail where
    both probabilities are tiny and no affordable sample size resolves the ratio.
    """
    p1 = np.asarray(p_one, dtype=float)
    u, v = np.asarray(u), np.asarray(v)
    if u.shape != v.shape or u.size == 0:
        raise ValueError("worst_binary_edge: need equally long, non-empty edge arrays u and v")
    if np.any((p1 < 0) | (p1 > 1)):
        raise ValueError("worst_binary_edge: p_one must lie in [0, 1]")
    if n is not None:
        pu, pv = p1[u], p1[v]
        loss = np.max(
            [
                detectable_loss(pu, pv, n, alpha),
                detectable_loss(pv, pu, n, alpha),
                detectable_loss(1 - pu, 1 - pv, n, alpha),
                detectable_loss(1 - pv, 1 - pu, n, alpha),
            ],
            axis=0,
        )
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            l1 = np.abs(np.log(p1[u]) - np.log(p1[v]))
            l0 = np.abs(np.log1p(-p1[u]) - np.log1p(-p1[v]))
        loss = np.fmax(np.nan_to_num(l1, nan=0.0), np.nan_to_num(l0, nan=0.0))  # 0/0 (both impossible) -> 0
    e = int(np.argmax(loss))
    return e, float(loss[e])


def _hashable(s: Any) -> Hashable:
    if isinstance(s, np.ndarray):
        return (s.shape, s.tobytes())
    if isinstance(s, list):
        return tuple(_hashable(v) for v in s)
    return s


def binary_distribution(p_one: float) -> np.ndarray:
    """The output distribution [P(0), P(1)] of a binary mechanism."""
    return np.array([1.0 - p_one, p_one])
