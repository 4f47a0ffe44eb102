"""Adversarial float-boundary worlds for paper B's smooth bound: Theorem 2's premise S(X) >= LS(X) at ties.

The degree test (:mod:`privanomaly.outliers.distance`) counts y as a neighbour of x when the float distance is
<= r (1 + RADIUS_RTOL); Algorithm 1 (:mod:`privanomaly.outliers.enclosing`) must then count every set the
degree test puts within r of one point as enclosed, or the smooth bound falls below the local sensitivity.
The worlds put records exactly where the two tests disagree:

* ``polygon``: ``copies`` duplicates of each vertex of a regular polygon (2-D, or in a random plane in 3-D)
  at circumradius r (1 + RADIUS_RTOL)(1 + j 1e-16), j in -copies..copies, around a random centre;
* ``polytope``: the same for the vertices of a regular tetrahedron / octahedron (3-D);
* ``near_tie``: two antipodal vertices (a pair at distance ~2r whose midpoint sees both within r);
* ``far_polygon``: a ``polygon`` (2-D or 3-D) whose centre lies :data:`FAR` r from the origin, where a
  coordinate's rounding (~1e-8 r at 1e8 r) dwarfs the radius tolerance: any test computed on absolute
  coordinates (a smallest enclosing ball, a point divided by r) instead of differences of nearby points loses
  the tie; each vertex is then moved, by a few ulp, as close to the threshold as the float grid allows on the
  side its offset chose, in the released query's own arithmetic (:func:`_snap`);
* ``k`` from ``copies`` up to N - 1 (k near N) and r over several scales;
* plus one far record, and k + 1 inliers far away (so N exceeds the jump: the cap min(N, .) hides nothing);
  the pair (X, X') moves the far record to the centre, within r of every boundary record:
  |q(X) - q(X')| <= LS(X), LS(X'), so Def. 4 needs S(X), S(X') >= that jump.

A randomised search draws worlds over all of these (:func:`random_worlds`), from the audit's seed
(:func:`privanomaly.seeding.rng`: the config's ``seed`` in the workflow's audit). :func:`audit_rows` checks a
smooth bound on them, one row per family; ``old_enclosure()`` restores the enclosure test before the fix
(``SEB_RTOL = RADIUS_RTOL``, no near-duplicate merge before Welzl's algorithm) for the negative control,
which must find S < |q(X) - q(X')| (e.g. 3-D, m = 20: LS >= 61, S = 41.82).
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree

from privanomaly import seeding
from privanomaly.outliers import distance, enclosing, smooth
from privanomaly.outliers.distance import RADIUS_RTOL, q_count
from privanomaly.outliers.gaussian import smooth_parameters
from privanomaly.sp.balls import euclidean_scale

__all__ = ["BoundaryPair", "boundary_pair", "fixed_worlds", "random_worlds", "check_pairs", "check_bounds", "audit_rows",
           "old_enclosure", "old_degrees", "BOUND_VARIANTS", "FAMILIES", "N_RANDOM"]

FAMILIES = ("polygon_2d", "polygon_3d", "polytope_3d", "near_tie", "far_polygon")
#: distance of a ``far_polygon`` world's centre from the origin, in units of r
FAR = 1e8
#: the seed of :func:`audit_rows` when none is given (the harness passes its level's seed)
DEFAULT_SEED = 20191111
#: the smooth bounds a library user can release: Algorithm 2, and the fast bound at every exact_max
BOUND_VARIANTS = (("paper", None), ("fast", 0), ("fast", 8), ("fast", 64), ("fast", 512))


@dataclass(frozen=True)
class BoundaryPair:
    """Neighbouring datasets X, X' (one record moved to the centre) in raw coordinates, with k and r."""

    family: str
    X: np.ndarray
    Xp: np.ndarray
    k: int
    r: float
    moved: int  # row of the record that moves (far in X, at the centre in X')


def _unit_vertices(family: str, n_vertices: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """Unit vectors of the vertices (rows), randomly rotated."""
    rot = np.linalg.qr(rng.normal(size=(dim, dim)))[0]
    if family == "polytope_3d":
        if n_vertices == 4:  # regular tetrahedron
            V = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], float) / math.sqrt(3.0)
        else:  # regular octahedron
            V = np.vstack([np.eye(3), -np.eye(3)])
        return V @ rot.T
    n = 2 if family == "near_tie" else n_vertices
    ang = rng.uniform(0, 2 * np.pi) + 2 * np.pi * np.arange(n) / n
    return np.cos(ang)[:, None] * rot[:, 0] + np.sin(ang)[:, None] * rot[:, 1]


def boundary_pair(rng: np.random.Generator, family: str, n_vertices: int, copies: int, r: float,
                  k: int | None = None, inside: bool | str = False, dim: int | None = None,
                  crowd: bool = True) -> BoundaryPair:
    """One world of ``family`` (module docstring); ``k`` defaults to ``copies``. ``inside``: offsets j <= 0
    only (radius <= r (1 + RADIUS_RTOL): every copy is a neighbour of the centre for the degree test, the
    issue's worlds); else j in -copies..copies. ``dim`` (near_tie only): 2 or 3, default random."""
    if family == "polygon_2d":
        dim = 2
    elif family in ("polygon_3d", "polytope_3d"):
        dim = 3
    elif dim is None:
        dim = int(rng.integers(2, 4))
    unit = _unit_vertices(family, n_vertices, dim, rng)
    centre = rng.uniform(-5, 5, size=dim)
    if family == "far_polygon":
        away = rng.normal(size=dim)
        centre = centre * r + FAR * r * away / np.linalg.norm(away)
    if inside == "tight":  # within one ulp or so of the degree test's threshold
        j = rng.integers(-1, 2, size=(copies, len(unit)))
    else:
        j = rng.integers(-copies, 1 if inside else copies + 1, size=(copies, len(unit)))
    rho = r * (1 + RADIUS_RTOL) * (1 + j * 1e-16)
    P = centre + (rho[..., None] * unit[None, :, :]).reshape(-1, dim)
    far = centre + 50.0 * r
    kk = max(1, min(copies if k is None else int(k), len(P)))
    # k + 1 inliers far from everything: N exceeds the jump, so the cap min(N, .) of the bound hides nothing
    others = np.repeat((centre - 100.0 * r)[None, :], kk + 1 if crowd else 0, axis=0)
    s = math.sqrt(dim)  # raw coordinates: paper B's dist_S divides by sqrt(d)
    X = np.vstack([P, far, others]) * s
    Xp = np.vstack([P, centre, others]) * s
    if family == "far_polygon":  # each vertex on the side of the threshold its offset chose, in raw coordinates
        X[: len(P)] = Xp[: len(P)] = _snap(X[: len(P)], Xp[len(P)], r, (j <= 0).reshape(-1))
    return BoundaryPair(family, X, Xp, kk, r, len(P))


def _within(P: np.ndarray, c: np.ndarray, r: float) -> np.ndarray:
    """For raw rows ``P`` and a raw centre ``c``: is each row a neighbour of ``c`` by the degree test of
    :func:`privanomaly.outliers.q_count` (its arithmetic: ``subspace_coords``, an exact power-of-two scale, a
    KD-tree ball query of radius r (1 + RADIUS_RTOL); the pair's distance does not depend on the other rows)?"""
    Z = distance.subspace_coords(np.vstack([P, c]))
    rho = r * (1.0 + RADIUS_RTOL)
    sc = euclidean_scale(rho, Z, max_exponent=500)
    tree = cKDTree(Z[-1:] * sc)
    return np.asarray(tree.query_ball_point(Z[:-1] * sc, rho * sc, return_length=True)) == 1


#: a snapped vertex is the best of (2 SNAP_ULPS + 1)^d raw positions around it, ulp by ulp in each coordinate
SNAP_ULPS = 6


def _snap(P: np.ndarray, c: np.ndarray, r: float, inside: np.ndarray) -> np.ndarray:
    """Raw rows ``P`` moved to the nearest side of the closed radius r around ``c`` that ``inside`` asks for,
    in the degree test's own arithmetic (:func:`_within`): among the raw positions up to :data:`SNAP_ULPS` ulp
    away in every coordinate, the one closest to the threshold on that side. Far from the origin a coordinate's
    rounding (~1e-8 r at 1e8 r) otherwise puts a vertex anywhere within ~1e-8 r of the threshold; the search
    leaves it within a small fraction of that."""
    P = np.array(P, dtype=float)
    dim = P.shape[1]
    steps = np.array(list(itertools.product(range(-SNAP_ULPS, SNAP_ULPS + 1), repeat=dim)), dtype=float)
    for i in range(len(P)):
        cand = P[i] + steps * np.spacing(np.abs(P[i]))
        ok = _within(cand, c, r) == bool(inside[i])
        if not ok.any():
            continue
        Z = distance.subspace_coords(np.vstack([cand, c]))
        d2 = ((Z[:-1] - Z[-1]) ** 2).sum(axis=1)
        d2 = np.where(ok, d2, -np.inf if inside[i] else np.inf)
        P[i] = cand[int(np.argmax(d2) if inside[i] else np.argmin(d2))]
    return P


def fixed_worlds(rng: np.random.Generator, dims: tuple[int, ...] = (2, 3)) -> list[BoundaryPair]:
    """The issue's witnesses: m copies of a square's (2-D) or a triangle's (3-D) vertices inside the degree
    test's radius, k = m, the far record moved to the circumcentre (LS >= 4m + 1 resp. 3m + 1); and the same
    :data:`FAR` r from the origin (``far_polygon``, r = 0.37: not a power of two, so dividing by it rounds)."""
    out = []
    for m in (6, 20):
        for crowd in (True, False):
            if 2 in dims:
                out.append(boundary_pair(rng, "polygon_2d", 4, m, 1.0, m, inside=True, crowd=crowd))
                out.append(boundary_pair(rng, "far_polygon", 4, m, 0.37, m, inside=True, dim=2, crowd=crowd))
            if 3 in dims:
                out.append(boundary_pair(rng, "polygon_3d", 3, m, 1.0, m, inside=True, crowd=crowd))
                out.append(boundary_pair(rng, "far_polygon", 3, m, 0.37, m, inside=True, dim=3, crowd=crowd))
    return out


def random_worlds(rng: np.random.Generator, n: int, dims: tuple[int, ...] = (2, 3)) -> Iterator[BoundaryPair]:
    """The randomised search: ``n`` worlds over every family of dimension in ``dims``, vertex count, copies,
    k (from 1 up to N - 1: k near N), r and the sign of the offsets."""
    families = [f for f in FAMILIES if f in ("near_tie", "far_polygon") or int(f[-2]) in dims]
    for i in range(n):
        family = families[i % len(families)]
        n_vertices = int(rng.choice([4, 6])) if family == "polytope_3d" else int(rng.integers(3, 7))
        copies = int(rng.integers(1, 6))
        n_points = copies * (2 if family == "near_tie" else n_vertices)
        k = int(rng.choice([copies, max(1, n_points - 1), int(rng.integers(1, n_points + 1))]))
        r = float(rng.choice([1.0, 0.37, 3.1, 1e-3]))
        yield boundary_pair(rng, family, n_vertices, copies, r, k, inside=[False, True, "tight"][int(rng.integers(0, 3))],
                            dim=int(rng.choice(dims)), crowd=bool(rng.integers(0, 2)))


@contextlib.contextmanager
def old_degrees() -> Iterator[None]:
    """The smooth bound's degree test before the fix: computed in units of r (``dist / r <= 1 + RADIUS_RTOL``)
    instead of in the released query's own arithmetic (``dist <= r (1 + RADIUS_RTOL)``), so a record at the
    boundary can land in another window than q_count counts it (negative control; restored on exit)."""
    saved = smooth._counts_scaled
    smooth._counts_scaled = lambda Z, r, cap=None: distance._counts_scaled(np.asarray(Z) / r, 1.0, cap)
    try:
        yield
    finally:
        smooth._counts_scaled = saved


@contextlib.contextmanager
def old_enclosure() -> Iterator[None]:
    """The float-boundary code before the fixes: the enclosure test with ``SEB_RTOL = RADIUS_RTOL`` and
    Welzl's algorithm on the raw rows (no near-duplicate merge), and :func:`old_degrees` (negative control;
    restored on exit)."""
    saved = enclosing.SEB_RTOL, enclosing._merge_near_duplicates, enclosing._MEMO
    # the harness's memo of Algorithm 1 holds the fixed code's answers: none is served or stored meanwhile
    enclosing.SEB_RTOL, enclosing._merge_near_duplicates, enclosing._MEMO = RADIUS_RTOL, (lambda P: P), None
    try:
        with old_degrees():
            yield
    finally:
        enclosing.SEB_RTOL, enclosing._merge_near_duplicates, enclosing._MEMO = saved


SmoothFn = Callable[[np.ndarray, int, float, float], float]


def ls_lower(X: np.ndarray, k: int, r: float, candidates: np.ndarray) -> int:
    """max |q_count(X) - q_count(X')| over X' = X with one record replaced by a candidate row: a lower
    bound on LS(X), in the released query's own arithmetic (:func:`privanomaly.outliers.q_count`)."""
    q0 = q_count(X, k, r)
    best = 0
    for c in np.asarray(candidates, dtype=float):
        for i in range(len(X)):
            Y = X.copy()
            Y[i] = c
            best = max(best, abs(q_count(Y, k, r) - q0))
    return best


Lows = list[list[tuple[np.ndarray, int, float, int]]]
"""Per pair, (dataset, k, r, a lower bound > 0 of its LS) of each of its datasets a bound is checked on."""


def ls_lows(pairs: list[BoundaryPair], exhaustive: bool = False) -> Lows:
    """Both datasets of every pair with their LS lower bound (:func:`check_pairs`), those with LS > 0."""
    out = []
    for p in pairs:
        if exhaustive:
            cand = np.vstack([p.X[p.moved], p.Xp[p.moved]])  # the far record, the centre
            lows = [(Y, ls_lower(Y, p.k, p.r, cand)) for Y in (p.X, p.Xp)]
        else:
            jump = abs(q_count(p.X, p.k, p.r) - q_count(p.Xp, p.k, p.r))
            lows = [(p.X, jump), (p.Xp, jump)]
        out.append([(Y, p.k, p.r, ls) for Y, ls in lows if ls != 0])
    return out


def check_lows(bounds: dict[str, SmoothFn], lows: Lows, beta: float) -> dict[str, dict]:
    """S(Y) >= LS(Y) for every bound in ``bounds`` on every dataset of ``lows`` (:func:`ls_lows`), name -> counts,
    failures and the worst S / LS. Each pair's bounds run in one memo block of Algorithm 1
    (:func:`privanomaly.outliers.enclosing.memoised`: a window that several bounds search - Algorithm 2 and the
    fast bound's exact refinement - is searched once, the same answer and work units for each)."""
    tally = {name: {"pairs": 0, "failing": 0, "min_s_over_ls": math.inf} for name in bounds}
    for pair in lows:
        with enclosing.memoised():
            for name, bound in bounds.items():
                res = tally[name]
                for Y, k, r, ls in pair:
                    res["pairs"] += 1
                    s = float(bound(Y, k, r, beta))
                    res["min_s_over_ls"] = min(res["min_s_over_ls"], s / ls)
                    res["failing"] += s < ls
    return tally


def check_bounds(bounds: dict[str, SmoothFn], pairs: list[BoundaryPair], beta: float,
                 exhaustive: bool = False) -> dict[str, dict]:
    """:func:`check_pairs` of every bound in ``bounds`` on the same pairs (name -> its result): each pair's lower
    bounds on LS computed once for all bounds (:func:`check_lows`)."""
    return check_lows(bounds, ls_lows(pairs, exhaustive), beta)


def check_pairs(bound: SmoothFn, pairs: list[BoundaryPair], beta: float, exhaustive: bool = False) -> dict:
    """On every pair: S(X) >= LS(X) and S(X') >= LS(X'), LS bounded below by the pair's own jump
    |q(X) - q(X')| or (``exhaustive``) by :func:`ls_lower` with the moved record's two places as candidates;
    counts, failures and the worst ratio S / LS."""
    return check_bounds({"": bound}, pairs, beta, exhaustive)[""]


#: randomised worlds per level (the full level is `make audit`; a 10,000-pair run: tests/test_audit_float_boundary.py)
N_RANDOM = {"fast": 200, "full": 1000}

_LOWS: dict | None = None  # the worlds and LS lower bounds by (seed, dims, n) while memoised() is open


@contextlib.contextmanager
def memoised() -> Iterator[None]:
    """Keep the worlds of :func:`audit_rows` and their LS lower bounds (a pure function of seed, dimensions and
    size: the released query's own arithmetic, which no bound and no negative control changes) for the bounds
    checked after: the harness opens it around a run, where five smooth mechanisms and the controls read the
    same worlds. Nested: the outer memo is kept."""
    global _LOWS
    saved = _LOWS
    _LOWS = {} if saved is None else saved
    try:
        yield
    finally:
        _LOWS = saved


def family_lows(seed: int, dims: tuple[int, ...], n: int) -> dict[str, Lows]:
    """Family -> its datasets and LS lower bounds: the fixed witnesses (:func:`fixed_worlds`, world
    ``float_boundary_issue``, LS by :func:`ls_lower`) and the randomised search (:func:`random_worlds`, LS >=
    the pair's jump), drawn from ``seed`` (memoised inside :func:`memoised`)."""
    key = (int(seed), tuple(dims), int(n))
    if _LOWS is not None and key in _LOWS:
        return _LOWS[key]
    rng = seeding.rng(seed, "audit", "float_boundary", dims)
    fixed = fixed_worlds(rng, dims)
    search = list(random_worlds(rng, n, dims))
    groups = {"issue": (fixed, True), **{f: ([w for w in search if w.family == f], False) for f in FAMILIES}}
    out = {family: ls_lows(members, exhaustive) for family, (members, exhaustive) in groups.items() if members}
    if _LOWS is not None:
        _LOWS[key] = out
    return out


def audit_rows(bounds: dict[str, SmoothFn], fast: bool = True, eps: float = 0.5, delta: float = 0.01,
               seed: int = DEFAULT_SEED, claim: str = "", dims: tuple[int, ...] = (2, 3),
               n_random: int | None = None) -> list[dict]:
    """One row per (bound, family) in the harness's ``audit_rows`` format (``passed``: no dataset with
    S < LS) on the worlds of :func:`family_lows`."""
    _, beta = smooth_parameters(eps, delta)
    n = N_RANDOM["fast" if fast else "full"] if n_random is None else int(n_random)
    checked = {family: check_lows(bounds, lows, beta) for family, lows in family_lows(seed, dims, n).items()}
    rows = []
    for name in bounds:
        for family, results in checked.items():
            res = results[name]
            rows.append({"mechanism": name, "claim": claim, "world": f"float_boundary_{family}",
                         "datasets": res["pairs"], "pairs": res["pairs"], "worst_ratio": 0.0,
                         "min_s_over_grid_smooth": res["min_s_over_ls"], "worst_delta": 0.0,
                         "failing": res["failing"], "passed": res["failing"] == 0 and res["pairs"] > 0})
    return rows


# ------------------------------------------------------------------------------------- the harness's hooks
def smooth_fn(method: str, exact_max: int | None = None) -> SmoothFn:
    """(X, k, r, beta) -> the library's smooth bound ``method`` (at ``exact_max`` for the fast bound)."""
    kw = {} if exact_max is None else {"exact_max": int(exact_max)}
    return lambda X, k, r, beta: smooth.smooth_sensitivity(X, k, r, beta, method, **kw).value


def negative_controls() -> dict:
    """Algorithm 2 run by the code before the float-boundary fixes (never registered as mechanisms; importing
    this module registers them as the harness's negative controls): degrees in units of r only, and that plus
    the old enclosure test. Both must show S < LS."""
    from privanomaly.mechanisms.paper_b import GaussianSmooth

    class _Old(GaussianSmooth):
        family = "float_boundary_control"  # no family auditor: the harness runs its own audit_rows only
        patch = staticmethod(old_degrees)

        def smooth_bound(self, X, k, r, beta) -> float:
            with self.patch():
                return smooth_fn("paper")(X, k, r, beta)

        def audit_rows(self, fast: bool = True, eps: float = 0.5, delta: float = 0.01) -> list[dict]:
            # 2-D only: Welzl's algorithm without the merge can take minutes on 3-D near-duplicates
            return audit_rows({self.name: self.smooth_bound}, fast, eps, delta, dims=(2,),
                              claim=self.claim(eps=eps, delta=delta).describe())

    out = {}
    for name, patch, what in (("gaussian_smooth_paper_old_degrees", old_degrees, "degrees in units of r"),
                              ("gaussian_smooth_paper_old_enclosure", old_enclosure,
                               "SEB_RTOL = RADIUS_RTOL, no near-duplicate merge, degrees in units of r")):
        m = _Old("paper")
        m.patch = staticmethod(patch)
        m.name = name
        m.label = f"Gaussian (smooth, Algorithm 2) before the float-boundary fix: {what} (broken)"
        m.reference = "negative control (float boundary of the closed radius)"
        out[name] = m
    return out


def smooth_rows(mech, fast: bool, eps: float = 0.5, delta: float = 0.01, seed: int = DEFAULT_SEED) -> list[dict]:
    """The rows a registered smooth mechanism (``GaussianSmooth``, bound ``paper`` or ``fast``) adds to its
    audit (:func:`privanomaly.audit.paper_b.audit_count_gaussian`), in ``audit_rows``'s keys: its own bound on every
    family and, at the full level for the fast bound, the other ``exact_max`` of :data:`BOUND_VARIANTS`."""
    bounds = {"": mech.smooth_bound}
    if mech.bound == "fast" and not fast:
        bounds.update({f"[fast exact_max={em}]": smooth_fn("fast", em) for m, em in BOUND_VARIANTS if m == "fast"})
    rows = audit_rows(bounds, fast, eps, delta, seed=seed)
    return [{"mechanism": mech.name, "world": r["world"] + r["mechanism"], "datasets": r["datasets"],
             "pairs": r["pairs"], "worst_ratio": 0.0, "worst_smooth_ratio": 0.0,
             "min_s_over_grid_smooth": r["min_s_over_grid_smooth"], "worst_delta": 0.0, "passed": r["passed"]}
            for r in rows]


def _register_controls() -> None:
    from .harness import negative_control, run_memo

    run_memo(memoised)  # the worlds and their LS, read by every smooth mechanism and control of a run
    for name, m in negative_controls().items():
        negative_control(name, f"{m.label}: must show S < LS")(lambda m=m: m)


_register_controls()
