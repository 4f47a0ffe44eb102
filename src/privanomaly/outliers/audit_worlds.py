"""Exhaustive small worlds for paper B's smooth-sensitivity Gaussian: the checks the audit harness runs.

A *world* is every multiset of N records on a small grid of points (1-D or 2-D), with bounded-DP edges
(replace one record by another grid point: H(X, X') = 1, paper B's neighbour relation). On a world we
compute, for a smooth bound ``S`` (any callable ``(X, k, r, beta) -> float``):

* the exact grid local sensitivity ``LS_grid(X) = max_{X' ~ X in the world} |q(X) - q(X')|`` and the exact grid
  smooth sensitivity ``S*_grid(X) = max_{Y in the world} LS_grid(Y) e^{-beta H(X, Y)}`` (Def. 5, eq. 8
  restricted to the world; by value iteration ``S* <- max(S*, e^-beta max_{X' ~ X} S*(X'))``, exact after N
  rounds since the world's diameter is N). Def. 4 needs ``S >= LS`` everywhere, and any beta-smooth
  ``S >= LS`` is ``>= S*`` on the world, so ``S(X) >= S*_grid(X)`` is a necessary check;
* ``S(X) <= e^beta S(X')`` on every edge (eq. 7);
* the exact hockey-stick delta(eps) of the released Gaussians ``N(q(X), (S(X)/alpha)^2)`` vs
  ``N(q(X'), (S(X')/alpha)^2)`` on every edge, both directions (closed form,
  :func:`privanomaly.outliers.gaussian_hockey_stick`), against the claimed delta of Theorem 2.

The budget switch (:func:`privanomaly.audit.controls.budget_switch_bound`) is the
known-broken negative control: it must fail. Small grid worlds rarely separate its two branches (in 1-D and
2-D one closed-form solve is one work unit), so :func:`cube_pair_check` adds the explicit 3-D pair of the
issue. Harness entry point: :func:`smooth_audit_rows` (one row per bound and world).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from .distance import q_count
from .gaussian import gaussian_hockey_stick, sigma_smooth, smooth_parameters

__all__ = [
    "SmoothBound",
    "WorldSpec",
    "WorldCheck",
    "grid_world",
    "grid_smooth_sensitivity",
    "check_smooth_world",
    "cube_pair",
    "cube_pair_check",
    "icosahedron",
    "icosahedron_pair",
    "smooth_audit_rows",
    "DEFAULT_WORLDS",
    "FAST_WORLDS",
]

SmoothBound = Callable[[np.ndarray, int, float, float], float]
"""(X, k, r, beta) -> a claimed beta-smooth upper bound on the local sensitivity of q_count."""


@dataclass(frozen=True)
class WorldSpec:
    """Every multiset of ``N`` records on ``grid`` (rows = points), threshold ``k``, radius ``r`` (dist_S)."""

    name: str
    grid: tuple[tuple[float, ...], ...]
    N: int
    k: int
    r: float


@dataclass(frozen=True)
class WorldCheck:
    """Outcome of :func:`check_smooth_world` (``passed`` = all three checks hold)."""

    bound: str
    world: str
    d: int
    N: int
    k: int
    r: float
    eps: float
    delta: float
    beta: float
    datasets: int
    pairs: int
    min_s_over_grid_smooth: float  # >= 1 required (S >= S*_grid)
    worst_smooth_ratio: float  # max S(X) / (e^beta S(X')) over edges; <= 1 required
    worst_delta: float  # max exact delta(eps) of the released Gaussians; <= delta required
    passed: bool


def _line(n: int, step: float) -> tuple[tuple[float, ...], ...]:
    return tuple((i * step,) for i in range(n))


def _square(n: int, step: float) -> tuple[tuple[float, ...], ...]:
    # raw coordinates: dist_S divides by sqrt(2) in 2-D, so step * sqrt(2) raw = step in dist_S
    s = step * math.sqrt(2.0)
    return tuple((i * s, j * s) for i in range(n) for j in range(n))


def pentagon() -> tuple[tuple[float, ...], ...]:
    """The centre, the 5 vertices of a regular pentagon at dist_S 0.999 r = 0.999 around it (pairwise 1.17 r
    apart) and one far point, in raw 2-D coordinates. With N = 6 and k = 1 the world holds the construction
    attaining GS_2 = 5k + 1 (paper B, Sec. 4.1): moving the centre record to the far point turns all 6
    records into outliers, 6 > min(N, 2dk + 1) = 5 - a square grid this small never exceeds 2dk + 1."""
    ang = 2 * np.pi * np.arange(5) / 5
    ring = 0.999 * math.sqrt(2.0) * np.stack([np.cos(ang), np.sin(ang)], axis=1)
    pts = np.vstack([[[0.0, 0.0]], ring, [[10.0, 10.0]]])
    return tuple(tuple(float(c) for c in p) for p in pts)


def icosahedron() -> tuple[tuple[float, ...], ...]:
    """The centre, the 12 vertices of a regular icosahedron at dist_S 0.999 r = 0.999 around it (pairwise at
    least 0.999 * 1.0515 r = 1.0504 r apart: its edge is 1.0515 times its circumradius) and one far point, in raw
    3-D coordinates (dist_S divides by sqrt(3)). With k = 1 it holds the construction attaining Theorem 4's upper
    bound k K_3 + 1 = 13 (K_3 = 12): the centre is each vertex's only neighbour, so moving it to the far point
    turns all 13 records into outliers."""
    phi = (1.0 + math.sqrt(5.0)) / 2.0
    verts = []
    for a, b in itertools.product((-1.0, 1.0), repeat=2):
        verts += [(0.0, a, b * phi), (a, b * phi, 0.0), (b * phi, 0.0, a)]
    ring = np.array(verts) / math.sqrt(1.0 + phi * phi) * 0.999 * math.sqrt(3.0)
    pts = np.vstack([[[0.0, 0.0, 0.0]], ring, [[10.0, 10.0, 10.0]]])
    return tuple(tuple(float(c) for c in p) for p in pts)


def icosahedron_pair() -> tuple[np.ndarray, np.ndarray, int, float]:
    """(X, X', k, r): the centre and the 12 vertices of :func:`icosahedron` (X, N = 13, no outlier) and X' with
    the centre moved to the far point (13 outliers): the count jumps by k K_3 + 1 = 13 = min(N, k K_3 + 1),
    Theorem 4's upper bound in 3-D, so a smaller kissing number K_3 shows here. k = 1, r = 1."""
    pts = np.array(icosahedron())
    return pts[:13], pts[1:], 1, 1.0


#: the full harness: 1-D and 2-D grids, N = 4..7 (ties at exactly r occur: steps divide r), and the pentagon
DEFAULT_WORLDS: tuple[WorldSpec, ...] = tuple(
    [WorldSpec(f"1d_line7_N{N}", _line(7, 0.5), N, 2, 1.0) for N in (4, 5, 6, 7)]
    + [WorldSpec(f"1d_line6_N{N}_k3", _line(6, 0.5), N, 3, 1.0) for N in (5, 6, 7)]
    + [WorldSpec(f"2d_square3_N{N}", _square(3, 1.0), N, 2, 1.0) for N in (4, 5, 6)]
    + [WorldSpec("2d_square3_N6_k3", _square(3, 1.0), 6, 3, 1.0)]
    + [WorldSpec("2d_pentagon_N6_k1", pentagon(), 6, 1, 1.0)]
)
#: the subset inside ``make test``
FAST_WORLDS: tuple[WorldSpec, ...] = (
    WorldSpec("1d_line7_N4", _line(7, 0.5), 4, 2, 1.0),
    WorldSpec("1d_line6_N6_k3", _line(6, 0.5), 6, 3, 1.0),
    WorldSpec("2d_square3_N4", _square(3, 1.0), 4, 2, 1.0),
    WorldSpec("2d_pentagon_N6_k1", pentagon(), 6, 1, 1.0),
)


def grid_world(n_points: int, N: int) -> tuple[list[tuple[int, ...]], np.ndarray, np.ndarray]:
    """States (sorted index multisets of size N over ``n_points`` grid points) and the replace-one edges
    ``(u, v)`` with u < v (each unordered neighbouring pair once)."""
    states = list(itertools.combinations_with_replacement(range(n_points), N))
    index = {s: i for i, s in enumerate(states)}
    edges = set()
    for i, s in enumerate(states):
        for j in range(N):
            if j and s[j] == s[j - 1]:
                continue  # replacing either copy of a duplicate gives the same neighbours
            rest = s[:j] + s[j + 1 :]
            for p in range(n_points):
                if p != s[j]:
                    t = index[tuple(sorted(rest + (p,)))]
                    edges.add((min(i, t), max(i, t)))
    u, v = np.array(sorted(edges), dtype=np.int64).T
    return states, u, v


def grid_smooth_sensitivity(q: np.ndarray, u: np.ndarray, v: np.ndarray, beta: float, N: int) -> tuple[np.ndarray, np.ndarray]:
    """(LS_grid, S*_grid) per state from the counts ``q`` and the edges (module doc)."""
    jump = np.abs(q[u] - q[v]).astype(float)
    ls = np.zeros(len(q))
    np.maximum.at(ls, u, jump)
    np.maximum.at(ls, v, jump)
    s = ls.copy()
    decay = math.exp(-beta)
    for _ in range(N):
        nb = np.zeros(len(q))
        np.maximum.at(nb, u, s[v])
        np.maximum.at(nb, v, s[u])
        new = np.maximum(s, decay * nb)
        if np.array_equal(new, s):
            break
        s = new
    return ls, s


def _edge_deltas(q: np.ndarray, sig: np.ndarray, u: np.ndarray, v: np.ndarray, eps: float) -> np.ndarray:
    # distinct (q, sigma) pairs repeat a lot: cache per ordered pair of values
    cache: dict[tuple[float, float, float, float], float] = {}
    out = np.empty(len(u))
    for e, (a, b) in enumerate(zip(u.tolist(), v.tolist())):
        key = (q[a], sig[a], q[b], sig[b])
        if key not in cache:
            cache[key] = max(
                gaussian_hockey_stick(q[a], sig[a], q[b], sig[b], eps),
                gaussian_hockey_stick(q[b], sig[b], q[a], sig[a], eps),
            )
        out[e] = cache[key]
    return out


def _constants(eps: float, delta: float, constants: tuple[float, float] | None) -> tuple[float, float]:
    """(alpha, beta) of the checks: ``constants`` when given (the audit's own reading of Theorem 2), else
    :func:`privanomaly.outliers.gaussian.smooth_parameters`."""
    return smooth_parameters(eps, delta) if constants is None else (float(constants[0]), float(constants[1]))


def check_smooth_world(
    bound: SmoothBound, bound_name: str, world: WorldSpec, eps: float = 0.5, delta: float = 0.01,
    constants: tuple[float, float] | None = None,
) -> WorldCheck:
    """Run the three checks of the module doc for ``bound`` on ``world`` at Theorem 2's (alpha, beta)
    (``constants``: those (alpha, beta) given, the released Gaussians' sigma is then S / alpha)."""
    alpha, beta = _constants(eps, delta, constants)
    grid = np.asarray(world.grid, dtype=float)
    states, u, v = grid_world(len(grid), world.N)
    q = np.empty(len(states))
    S = np.empty(len(states))
    for i, s in enumerate(states):
        X = grid[list(s)]
        q[i] = q_count(X, world.k, world.r)
        S[i] = float(bound(X, world.k, world.r, beta))
    _, s_star = grid_smooth_sensitivity(q, u, v, beta, world.N)
    pos = s_star > 0
    min_ratio = float(np.min(S[pos] / s_star[pos])) if pos.any() else math.inf
    ratio = np.maximum(S[u] / S[v], S[v] / S[u]) / math.exp(beta)
    sig = _sigmas(S, eps, delta, alpha, constants)
    worst_delta = float(_edge_deltas(q, sig, u, v, eps).max())
    worst_ratio = float(ratio.max())
    passed = min_ratio >= 1 - 1e-12 and worst_ratio <= 1 + 1e-12 and worst_delta <= delta
    return WorldCheck(
        bound_name, world.name, grid.shape[1], world.N, world.k, world.r, eps, delta, beta, len(states), len(u),
        min_ratio, worst_ratio, worst_delta, bool(passed),
    )


def cube_pair() -> tuple[np.ndarray, np.ndarray, int, float]:
    """(X, X', k, r) : 8 triples (k = 3) at the corners of a cube of side 1.998 r plus one
    far record (X), and X' with that record moved next to a corner (raw 3-D coordinates, dist_S scaled)."""
    k, r = 3, 1.0
    s3 = math.sqrt(3.0)
    corners = np.array(list(itertools.product([0, 1], repeat=3)), float) * 1.998 * r * s3
    X = np.vstack([np.repeat(corners, k, axis=0), [[100.0, 100.0, 100.0]]])
    Xp = X.copy()
    Xp[-1] = 0.999 * r * s3
    return X, Xp, k, r


def _sigmas(S: np.ndarray, eps: float, delta: float, alpha: float,
            constants: tuple[float, float] | None) -> np.ndarray:
    if constants is None:
        return np.array([sigma_smooth(x, eps, delta) for x in S])
    return np.asarray(S, dtype=float) / alpha


def cube_pair_check(bound: SmoothBound, bound_name: str, eps: float = 0.5, delta: float = 0.01,
                    constants: tuple[float, float] | None = None) -> WorldCheck:
    """:func:`cube_pair` as a two-dataset world. Only the edge checks apply (the pair is no grid world):
    ``min_s_over_grid_smooth`` compares S with |q(X) - q(X')|."""
    X, Xp, k, r = cube_pair()
    alpha, beta = _constants(eps, delta, constants)
    q = np.array([q_count(X, k, r), q_count(Xp, k, r)], dtype=float)
    S = np.array([float(bound(Y, k, r, beta)) for Y in (X, Xp)])
    sig = _sigmas(S, eps, delta, alpha, constants)
    u, v = np.array([0]), np.array([1])
    jump = abs(q[0] - q[1])
    min_ratio = float(S.min() / jump) if jump else math.inf
    worst_ratio = float(max(S[0] / S[1], S[1] / S[0]) / math.exp(beta))
    worst_delta = float(_edge_deltas(q, sig, u, v, eps)[0])
    passed = min_ratio >= 1 - 1e-12 and worst_ratio <= 1 + 1e-12 and worst_delta <= delta
    return WorldCheck(bound_name, "3d_cube_pair", 3, len(X), k, r, eps, delta, beta, 2, 1, min_ratio, worst_ratio,
                      worst_delta, bool(passed))


def smooth_audit_rows(
    bounds: dict[str, SmoothBound], fast: bool = True, eps: float = 0.5, delta: float = 0.01,
    constants: tuple[float, float] | None = None,
) -> list[dict]:
    """One dict per (bound, world): every grid world (:data:`FAST_WORLDS` or :data:`DEFAULT_WORLDS`) plus the
    cube pair, at Theorem 2's (alpha, beta) (``constants`` if given). The harness asserts ``passed`` for
    registered mechanisms and ``not passed`` (on some row) for negative controls."""
    worlds = FAST_WORLDS if fast else DEFAULT_WORLDS
    rows = []
    for name, fn in bounds.items():
        rows += [asdict(check_smooth_world(fn, name, w, eps, delta, constants)) for w in worlds]
        rows.append(asdict(cube_pair_check(fn, name, eps, delta, constants)))
    return rows
