"""The small float worlds of the released-path audit (:mod:`.released_path`): raw records, the steps fitted on
the public part, and the pool of records an edge adds or substitutes.

Shapes: integer-valued data with duplicates; points at r(1 ± a few ulps) of a private query in the fitted space
(r every candidate of both papers) and in raw distance (the plain r); a constant column; far clusters (10^6
apart); ten records at distance exactly r of a query with records added to a far cluster. Each with the
labels both ways at the full level. Which records are public is the per-record keyed hash at the audit's
key and fraction (:data:`SEED`, :data:`FRACTION`), so every pool record hashes private: each edge is on the
claimed relation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privanomaly.price import released_path as rp
from privanomaly.privacy import membership, public_fit

__all__ = ["World", "worlds", "SEED", "FRACTION", "EPS", "SHARE", "DELTA", "A_ARGS", "B_ARGS", "PLAIN_ARGS", "K_A",
           "is_private"]

SEED, FRACTION = 11, 0.5  # the split's key and fraction in every world
EPS, SHARE, DELTA = 1.0, 0.5, 0.01  # total ε of a row, ε_sel / ε, paper B's δ
A_ARGS = {"betas": (1, 2), "fractions": (0.2, 0.4)}
K_A = 1
B_ARGS = {"k": 1, "radii": (0.25, 0.5, 1.0, 2.0)}
PLAIN_ARGS = {"A/plain": {"beta": 2, "r": 1.0}, "B/plain": {"r": 1.0}}  # r = 1 on integer data: points at r


@dataclass(frozen=True)
class World:
    """Raw records (``X``, ``y``), the deferred steps, and the pool of records an edge adds (all hash private)."""

    name: str
    X: np.ndarray
    y: np.ndarray
    pool_X: np.ndarray
    pool_y: np.ndarray
    spec: public_fit.Spec = public_fit.Spec(standardize=True)


def is_private(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """True where the record hashes private at the audit's key and fraction."""
    return ~membership.public_mask(X, y, SEED, FRACTION)


def _pick(X: np.ndarray, y: np.ndarray, public: bool, n: int) -> tuple[np.ndarray, np.ndarray]:
    keep = np.flatnonzero(is_private(X, y) != public)[:n]
    return X[keep], y[keep]


def _grid(values, d: int = 1, const: float | None = None) -> np.ndarray:
    v = np.asarray(values, dtype=float)[:, None]
    return v if d == 1 else np.hstack([v, np.full_like(v, const)])


def _world(name: str, cand: np.ndarray, label, extra: np.ndarray, flip: bool, n_pub: int = 6,
           n_priv: int = 4) -> World:
    """Public and private records picked from ``cand`` (labels by ``label``, flipped if ``flip``), a duplicate
    of the first private record, and the pool: duplicates of the private records, more candidates, ``extra``."""
    y = np.array([int(label(row)) ^ flip for row in cand])
    Xp, yp = _pick(cand, y, True, n_pub)
    Xq, yq = _pick(cand, y, False, n_priv + 4)
    X = np.vstack([Xp, Xq[:n_priv], Xq[:1]])
    Y = np.r_[yp, yq[:n_priv], yq[:1]]
    ey = np.r_[np.zeros(len(extra), int), np.ones(len(extra), int)]
    ex = np.vstack([extra, extra])
    keep = is_private(ex, ey)
    pool_X = np.vstack([Xq[:n_priv], Xq[n_priv:], ex[keep]])
    pool_y = np.r_[yq[:n_priv], yq[n_priv:], ey[keep]]
    return World(f"{name}{'_flipped' if flip else ''}", X, Y, pool_X, pool_y)


def _ulp_points(x0: float, offset: float, steps=(-3, -1, 0, 1, 3)) -> np.ndarray:
    """x0 + offset moved by a few ulps either way."""
    base = x0 + offset
    out = []
    for s in steps:
        v = base
        for _ in range(abs(s)):
            v = np.nextafter(v, np.inf if s > 0 else -np.inf)
        out.append(v)
    return np.array(out)


def _ulp_world(flip: bool) -> World:
    """Private records at r(1 ± ulps) of a private query in the fitted space, r a candidate of both papers."""
    base = _world("ulps", _grid(np.arange(0, 40)), lambda r: r[0] % 4 == 1, np.empty((0, 1)), flip)
    nb = len(base.X) - 5  # the public records come first (_world)
    f = public_fit.fit(base.X[:nb], base.spec)
    v = rp.view(rp.RawRecords(base.X, base.y, base.spec), SEED, FRACTION)
    radii = {float(r) for r in B_ARGS["radii"]} | {float(r) for _, r in rp.public_grid(v, A_ARGS["betas"],
                                                                                   A_ARGS["fractions"], 2.0)}
    q = float(base.X[nb, 0])
    pts = np.concatenate([_ulp_points(q, r * float(f.std[0])) for r in sorted(radii) if r and np.isfinite(r)])
    plain = [_ulp_points(q, float(a["r"])) for a in PLAIN_ARGS.values()]  # a plain release: raw distances
    pts = np.concatenate([pts, _ulp_points(q, -float(f.std[0])), *plain])
    cand = pts[:, None]
    y = np.arange(len(cand)) % 2  # both labels at every distance
    keep = is_private(cand, y)
    return World(f"ulps{'_flipped' if flip else ''}", np.vstack([base.X, cand[keep][:3]]),
                 np.r_[base.y, y[keep][:3]], np.vstack([cand[keep][3:], base.pool_X[:3]]),
                 np.r_[y[keep][3:], base.pool_y[:3]])


def _ring_world(flip: bool) -> World:
    """Ten private records at distance exactly 1 (the plain r) either side of a private query, a far private
    cluster, and a pool of far records: adding one far record must not move the query's ball."""
    base = _world("ring", _grid(np.arange(0, 40)), lambda r: r[0] % 4 == 1, np.empty((0, 1)), flip)
    nb = len(base.X) - 5
    lab = int(flip)
    for q in range(100, 400):
        trio = _grid([q - 1, q, q + 1])
        if is_private(trio, np.full(3, lab)).all():
            break
    far = _grid(1e6 + np.arange(0, 60))
    fy = np.arange(60) % 2
    far, fy = far[is_private(far, fy)], fy[is_private(far, fy)]
    X = np.vstack([base.X[:nb], _grid([q]), _grid([q - 1] * 5 + [q + 1] * 5), far[:3]])
    y = np.r_[base.y[:nb], lab, np.full(10, lab), fy[:3]]
    return World(f"ring_at_r{'_flipped' if flip else ''}", X, y, far[3:9], fy[3:9])


def _interleave(a, b) -> np.ndarray:
    """a[0], b[0], a[1], b[1], ...: picks in order take from both."""
    return np.ravel(np.column_stack([a, b]))


def worlds(fast: bool = True) -> list[World]:
    """The small float worlds (module docstring); the fast level takes two shapes, labels one way."""
    ints = np.arange(0.0, 40.0)
    shapes = [
        lambda f: _world("integers_duplicates", _grid(ints), lambda r: r[0] % 4 == 3, _grid([1000.0, 3.0]), f),
        _ulp_world,
        lambda f: _world("constant_column", _grid(ints, 2, 7.0), lambda r: r[0] % 5 == 4, _grid([5.0, 6.0], 2, 7.0),
                         f),
        lambda f: _world("far_clusters", _grid(_interleave(np.arange(0.0, 20.0), 1e6 + np.arange(0.0, 20.0))),
                         lambda r: r[0] % 3 == 2, _grid([1e6 + 0.5, 1e6 + 21, 2.5]), f, n_priv=5),
        _ring_world,
    ]
    shapes = shapes[:2] if fast else shapes
    return [make(flip) for make in shapes for flip in ((False,) if fast else (False, True))]
