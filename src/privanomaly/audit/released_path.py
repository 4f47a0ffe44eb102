"""The audit of the released path: every row kind that can say ``proven_end_to_end``, from raw records to the
release, on small float worlds, over every neighbour of the claimed relation.

Each kind of :data:`privanomaly.price.released_path.KINDS` is run through the same function the price job calls
(:data:`privanomaly.price.released_path.PATHS`, after :func:`privanomaly.price.released_path.view`) on small raw worlds
(:mod:`.released_worlds`): integer-valued data with duplicates, points at r(1 ± a few ulps) of a query in the fitted
space, a constant column, far clusters (10^6 apart), ten records at distance exactly r of a query with records
added to a far cluster, each with the labels both ways. The relation
(:data:`privanomaly.privacy.membership.RELATION_TEXT`) is one record that hashes private: paper A's kinds
add or remove one (every private record removed, every record of the world's pool added: duplicates, ulp
neighbours, far points, both labels), paper B's substitute one (each private record by each pool record).

On every edge the audit checks, exactly:

* every public quantity (public features and labels, candidate grid, public choice) is the same bit for bit;
* paper A: the exact output law - the selection's law (:class:`privanomaly.price.released_path.Selector`'s exact law,
  or the point mass of a public choice) composed with SP's per query (:func:`privanomaly.privacy.end_to_end.
  compose`) - satisfies Pr[o | D] <= e^ε Pr[o | D'] for every query record of both and every output, on the
  edges that are G_S(k) edges for every candidate (β, r) (:func:`privanomaly.mechanisms.exact.edge_holds`);
  the utility moves by at most the Δu the claim uses;
* paper B: the selection's exact law within e^ε_sel, the utility within Δu, and q_count at every candidate r
  within GS^UB (Theorem 1's premise: the Gaussian release itself is audited on its own, ``gaussian_gs_upper``).

A private selection kind is audited once per method of :mod:`privanomaly.privacy.selection_methods` (the
exponential mechanism as ``released_<kind>``, every other method as ``released_<kind>_<method>``: the same
worlds and edges with the method's exact law), as the price tables carry one row per method.

Negative controls (:data:`CONTROLS`), each the same path with one stage broken, must be caught: the refit
of a table z-scored on all records (the path before the per-record public fit), a split by a permutation of
n, paper A's candidate grid read from all rows, a label-stratified subsample of all records called public.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from privanomaly import mechanisms
from privanomaly.price import released_path as rp
from privanomaly.datasets.prepare import constant_columns, standardize, stratified_subsample
from privanomaly.datasets.validation import DataError
from privanomaly.mechanisms import exact
from privanomaly.mechanisms.base import Claim, Mechanism
from privanomaly.privacy import membership, public_fit, selection_methods
from privanomaly.privacy.end_to_end import compose
from privanomaly.privacy.scope import Scope

from .harness import RELEASED_PATHS, negative_control
from .released_worlds import (  # noqa: F401 - the worlds and the audit's settings, named here too
    A_ARGS, B_ARGS, DELTA, EPS, FRACTION, K_A, PLAIN_ARGS, SEED, SHARE, World, is_private, worlds)

__all__ = ["World", "worlds", "ReleasedPathAudit", "CONTROLS", "SEED", "FRACTION"]


# ------------------------------------------------------------------------------------------- the path, run
@dataclass(frozen=True)
class Stages:
    """The stages a row's path runs (the price job's by default; a negative control breaks one)."""

    splitter: object = membership.split
    fitter: object = rp.fit_on_public
    grid: object = rp.public_grid
    subsample: tuple[int, int] | None = None  # (n_normal, n_anomaly) drawn from all records before the split
    selector: rp.Selector = rp.EXPONENTIAL  # the private selection method (another one: one more audit row)


def run_path(kind: str, X: np.ndarray, y: np.ndarray, spec: public_fit.Spec, st: Stages) -> rp.Path:
    """The released path of ``kind`` on raw records, as the price job runs it (``st`` its stages)."""
    key = (kind, X.shape, X.tobytes(), y.tobytes(), spec, st)
    if key not in _RUNS:
        _RUNS.clear() if len(_RUNS) > 256 else None
        _RUNS[key] = _run_path(kind, X, y, spec, st)
    return _RUNS[key]


_RUNS: dict = {}  # a world's own path, shared by its edges (pure: the same raw records give the same path)


def _run_path(kind: str, X: np.ndarray, y: np.ndarray, spec: public_fit.Spec, st: Stages) -> rp.Path:
    applied = Scope((), ())
    if st.subsample is not None:
        idx = stratified_subsample(y, *st.subsample, np.random.default_rng(SEED))
        X, y = X[idx], y[idx]
    raw = rp.RawRecords(X, y, spec, applied)
    if kind.endswith("plain"):
        v = rp.plain_view(rp.RawRecords(X, y, public_fit.Spec(), applied))  # a plain row: nothing fitted
        return rp.PATHS[kind](v, **PLAIN_ARGS[kind])
    v = rp.view(raw, SEED, FRACTION, splitter=st.splitter, fitter=st.fitter)
    if kind == "A/public_split":
        return rp.paper_a_public_split(v, **A_ARGS)
    if kind == "A/private_selection":
        return rp.paper_a_private_selection(v, **A_ARGS, grid=st.grid, selector=st.selector)
    if kind == "B/private_selection":
        return rp.paper_b_private_selection(v, **B_ARGS, selector=st.selector)
    return rp.PATHS[kind](v, **B_ARGS)


def _same_public(p: rp.Path, q: rp.Path) -> bool:
    """Every public quantity equal, bit for bit."""
    if p.public.keys() != q.public.keys() or p.chosen != q.chosen:
        return False
    for key in p.public:
        a, b = np.asarray(p.public[key]), np.asarray(q.public[key])
        if a.shape != b.shape or a.dtype != b.dtype or a.tobytes() != b.tobytes():
            return False
    return True


# ------------------------------------------------------------------------------------------- edges and checks
@dataclass(frozen=True)
class Edge:
    """Two raw datasets one record apart on the claimed relation; ``to_big[i]`` is row i of ``small`` in ``big``
    (add/remove: ``small`` has one record fewer; substitution: same size, the changed row maps to itself)."""

    small: tuple[np.ndarray, np.ndarray]
    big: tuple[np.ndarray, np.ndarray]
    to_big: np.ndarray
    added: int | None  # the row of ``big`` not in ``small`` (add/remove), else None


def edges(w: World, relation: str, pool: int | None = None, everyone: bool = False) -> list[Edge]:
    """Every neighbour of ``w`` on ``relation`` through its private records (``everyone``: all records, a plain
    release) and its pool (module docstring); ``pool``: substitutions by the first ``pool`` records of the pool
    only (the fast level)."""
    n = len(w.X)
    private = np.arange(n) if everyone else np.flatnonzero(is_private(w.X, w.y))
    out = []
    if relation == "add_remove":
        for z, zy in zip(w.pool_X, w.pool_y):
            out.append(Edge((w.X, w.y), (np.vstack([w.X, z]), np.r_[w.y, zy]), np.arange(n), n))
        for j in private:
            keep = np.delete(np.arange(n), j)
            out.append(Edge((w.X[keep], w.y[keep]), (w.X, w.y), keep, int(j)))
    else:
        for j in private:
            for z, zy in zip(w.pool_X[:pool], w.pool_y[:pool]):
                X2, y2 = w.X.copy(), w.y.copy()
                X2[j], y2[j] = z, zy
                out.append(Edge((w.X, w.y), (X2, y2), np.arange(n), None))
    return out


def _positions(p: rp.Path) -> dict[int, int]:
    """Raw row -> position in the private part."""
    return {int(r): i for i, r in enumerate(p.view.split.private)}


def _sp_laws(p: rp.Path, counts: rp.Counts, i: int, eps_rel: float):
    sp = mechanisms.get("sp")
    return [sp.exact_distribution(int(counts.x_i[i]), int(counts.B(r)[i]), beta=b, k=K_A, eps=eps_rel)
            for b, r in p.candidates]


def _law_a(p: rp.Path, i: int, eps_sel: float, eps_rel: float) -> exact.ExactDist:
    """The exact law of (candidate, SP answer) about private record i: the point mass of a public choice or the
    selector's law, composed with SP at each candidate (memoised in the path's private part: a world's own path
    is one end of every edge)."""
    memo = p.private.setdefault("audit_laws", {})  # shared by a path and its copy with another selector: keyed
    key = (type(mechanisms.get("sp")), p.selector, p.chosen, i, eps_sel, eps_rel)
    if key not in memo:
        laws = _sp_laws(p, _counts(p), i, eps_rel)
        memo[key] = laws[p.chosen] if p.chosen is not None else compose(p.exact_law(eps_sel), laws)
    return memo[key]


def _counts(p: rp.Path) -> rp.Counts:
    """The path's ball counts of its private part at every candidate r (memoised in the path's private part)."""
    if "audit_counts" not in p.private:
        v = p.view
        p.private["audit_counts"] = p.private.get("counts") or rp.Counts(v.Xpriv, "euclidean", len(v.Xpriv) + 1,
                                                                         [r for _, r in p.candidates])
    return p.private["audit_counts"]


@dataclass
class Tally:
    """What one world's edges showed."""

    pairs: int = 0
    moved: int = 0
    jump: int = 0
    worst: float = 0.0
    ok: bool = True

    def fail(self) -> None:
        self.ok = False


def _check_a(e: Edge, P: rp.Path, Q: rp.Path, t: Tally) -> Claim:
    sp = mechanisms.get("sp")
    beta_max = max(b for b, _ in P.candidates)
    claim, eps_sel, eps_rel = rp.composed_claim(P, sp, EPS, SHARE, beta=beta_max, k=K_A)
    cq = _counts(Q)
    pos_q = _positions(Q)
    if P.utility is not None:
        t.jump = max(t.jump, int(np.abs(P.utility - Q.utility).max()))
        t.ok &= t.jump <= P.du
    z = pos_q.get(int(e.added))
    if z is None or not all(int(cq.B(r)[z]) >= b + 1 - K_A for b, r in P.candidates):
        return claim  # not a G_S(k) edge of every candidate: the composed claim says nothing there
    for i, row in enumerate(P.view.split.private):
        j = pos_q[int(e.to_big[row])]
        la, lb = _law_a(P, i, eps_sel, eps_rel), _law_a(Q, j, eps_sel, eps_rel)
        t.pairs += 1
        if not exact.edge_holds(la, lb, claim.epsilon_exact):
            t.fail()
        t.worst = max(t.worst, exact.edge_log_ratio(la, lb) / float(claim.epsilon_exact))
    return claim


def _q_counts(p: rp.Path) -> np.ndarray:
    """q_count (paper B's released count, Scenario 1) on the private part at every candidate r, or at the chosen
    one (memoised in the path's private part: a world's own path serves all its edges)."""
    from privanomaly.paper_b import tuning

    if "q_counts" not in p.private:
        v = p.view
        curve = p.private.get("curve")
        if curve is None:
            curve = tuning.accuracy_curve(v.Xpriv, v.ypriv, B_ARGS["k"], np.asarray(p.candidates), "full")
        p.private["q_counts"] = (curve["tp"] + curve["fp"]).to_numpy(np.int64)
    q = p.private["q_counts"]
    return q if p.chosen is None else q[[p.chosen]]


def _check_b(e: Edge, P: rp.Path, Q: rp.Path, t: Tally) -> Claim:
    gauss = mechanisms.get("gaussian_gs_upper")
    claim, eps_sel, _ = rp.composed_claim(P, gauss, EPS, SHARE, delta=DELTA)
    gs = gauss.gs(len(P.view.Xpriv), P.view.Xpriv.shape[1], B_ARGS["k"])  # N: public under substitution
    jump_q = int(np.abs(_q_counts(P) - _q_counts(Q)).max())
    t.pairs += 1
    t.ok &= jump_q <= gs
    t.worst = max(t.worst, jump_q / gs)
    if P.utility is not None:
        t.jump = max(t.jump, int(np.abs(P.utility - Q.utility).max()))
        t.ok &= t.jump <= P.du
        rate = P.selector.claim(SHARE * EPS, P.du, "substitution", "").epsilon_exact
        la, lb = P.exact_law(SHARE * EPS), Q.exact_law(SHARE * EPS)
        if not exact.edge_holds(la, lb, rate):
            t.fail()
        t.worst = max(t.worst, exact.edge_log_ratio(la, lb) / float(rate))
    return claim


def audit_world(kind: str, w: World, st: Stages, fast: bool = True) -> dict:
    """One world of ``kind``: the path on it and on every neighbour; the row of the audit table."""
    relation = "add_remove" if kind.startswith("A") else "substitution"
    t, claim = Tally(), None
    es = edges(w, relation, 4 if fast else 6, everyone=kind.endswith("plain"))
    for e in es:
        try:
            P = run_path(kind, *e.small, w.spec, st)
            Q = run_path(kind, *e.big, w.spec, st)
        except DataError:  # a control's subsample asks for more records of a label than this neighbour has
            continue
        if not _same_public(P, Q):
            t.moved += 1
            t.fail()
            continue
        claim = (_check_a if relation == "add_remove" else _check_b)(e, P, Q, t)
    return {"world": w.name, "datasets": 1 + len(es), "pairs": t.pairs, "edges": len(es), "moved": t.moved,
            "worst_ratio": t.worst, "worst_delta": 0.0 if t.ok else 1.0, "utility_jump": t.jump,
            "passed": t.ok, "claim": claim.describe() if claim is not None else ""}


class ReleasedPathAudit(Mechanism):
    """One row kind's released path (or a negative control: the same path with a stage broken) in the audit."""

    family = "released_path"

    def __init__(self, kind: str, stages: Stages = Stages(), label: str = "", reference: str = ""):
        self.kind, self.stages = kind, stages
        self.paper = kind[0]
        self.method = stages.selector.name if kind.endswith("private_selection") else ""  # the row's selection_method
        self.neighbours = "sensitive_k" if self.paper == "A" else "substitution"
        by = f" by {selection_methods.LABELS.get(self.method, self.method)}" if self.method else ""
        self.label = label or f"released path {kind}{by} (raw records -> release)"
        self.reference = reference or ("per-record keyed split, preprocessing fitted on the public part, "
                                       f"{kind.split('/')[1].replace('_', ' ')}{by}, then the release")

    def claim(self, *, eps=EPS, delta=DELTA, **_) -> Claim:
        w = worlds(True)[0]
        P = run_path(self.kind, w.X, w.y, w.spec, self.stages)
        if self.paper == "A":
            return rp.composed_claim(P, mechanisms.get("sp"), eps, SHARE, beta=max(b for b, _ in P.candidates),
                                     k=K_A)[0]
        return rp.composed_claim(P, mechanisms.get("gaussian_gs_upper"), eps, SHARE, delta=delta)[0]

    def audit_rows(self, fast: bool = True, **_) -> list[dict]:
        rows = []
        for w in worlds(fast):
            row = audit_world(self.kind, w, self.stages, fast)
            rows.append({"mechanism": self.name, **row,
                         "claim": row["claim"] or self.claim().describe()})
        return rows


# ------------------------------------------------------------------------------------------- negative controls
def refit_all_records(raw: rp.RawRecords, split: membership.Membership):
    """The path before the per-record public fit: z-score on all records (rule prepare), then re-z-score the
    result on the public rows (the former ``public_split.refit_standardisation``), called public."""
    Z, _ = standardize(raw.X)
    P = Z[split.public]
    mean, std = P.mean(axis=0), P.std(axis=0)
    const = constant_columns(P) | (std == 0)
    out = (Z - mean) / np.where(const, 1.0, std)
    out[:, const] = 0.0
    return out[split.public], out[split.private], Scope(("standardisation fitted on the public part",), ())


def permutation_split(X: np.ndarray, y: np.ndarray, seed: int, fraction: float) -> membership.Membership:
    """The former split: a seeded permutation of n (who is public depends on n and the order)."""
    n = len(X)
    perm = np.random.default_rng(seed).permutation(n)
    n_pub = int(round(fraction * n))
    return membership.Membership(np.sort(perm[:n_pub]), np.sort(perm[n_pub:]), seed, fraction)


def grid_from_all_rows(v: rp.View, betas, fractions, p: float) -> list:
    """Paper A's candidate radii read off every record's k-NN distances (public and private)."""
    from privanomaly.paper_a import selection

    Xall = np.vstack([v.Xpub, v.Xpriv])
    usable = rp.usable_betas(v, betas)
    D = selection.knn_radius_table(Xall, usable, p=p)
    return [(b, selection.radius_for_fraction(D[:, j], f)) for j, b in enumerate(usable) for f in fractions]


CONTROLS = {
    "released_A_public_split_refit_all_records": ("A/public_split", Stages(fitter=refit_all_records),
                                                  "z-scored on all records, refitted on the public part"),
    "released_B_public_split_refit_all_records": ("B/public_split", Stages(fitter=refit_all_records),
                                                  "z-scored on all records, refitted on the public part"),
    "released_A_public_split_permutation_split": ("A/public_split", Stages(splitter=permutation_split),
                                                  "split by a permutation of n under add/remove"),
    "released_A_private_selection_grid_from_all_rows": ("A/private_selection", Stages(grid=grid_from_all_rows),
                                                        "candidate grid read from all rows"),
    "released_B_private_selection_subsample_called_public": ("B/private_selection", Stages(subsample=(4, 1)),
                                                             "label-stratified subsample called public"),
}
"""name -> (kind, broken stages, what is broken): each must be caught."""


for _kind in rp.KINDS:
    RELEASED_PATHS[f"released_{_kind.replace('/', '_')}"] = lambda kind=_kind: ReleasedPathAudit(kind)
for _kind, _method in itertools.product(("A/private_selection", "B/private_selection"), selection_methods.METHODS):
    if _method != rp.EXPONENTIAL.name:  # every other method of the price tables: its own row, same worlds and edges
        RELEASED_PATHS[f"released_{_kind.replace('/', '_')}_{_method}"] = (
            lambda kind=_kind, method=_method: ReleasedPathAudit(kind, Stages(selector=rp.selector(method))))
for _name, (_kind, _stages, _what) in CONTROLS.items():
    negative_control(_name, f"released path {_kind}: {_what}; must fail")(
        lambda kind=_kind, stages=_stages, what=_what: ReleasedPathAudit(
            kind, stages, label=f"released path {kind}, {what} (broken)", reference="negative control"))
