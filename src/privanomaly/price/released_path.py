"""The released path of every row that can say ``proven_end_to_end``: raw records + config -> released output.

One function per row kind (:data:`KINDS`), each built from the library calls the price job makes - and the job
(:mod:`privanomaly.price.tuning`) and the audit (:mod:`privanomaly.audit.released_path`) call these same
functions:

* :func:`view` - the per-record split (:mod:`.membership`), the fitted steps fitted on the raw public records
  alone (:mod:`.public_fit`), the public features (in the canonical order) and the private features.
* ``B/public_split`` (:func:`paper_b_public_split`): r by eq. (53) accuracy on the public part; release: the
  Gaussian of q_count (Theorem 1, GS upper bound) on the private part at that r.
* ``B/private_selection`` (:func:`paper_b_private_selection`): r from the config grid by a private selection
  method (:class:`Selector`, default the exponential mechanism) on the private part's eq. (53) correct count,
  then the same release.
* ``A/public_split`` (:func:`paper_a_public_split`): (β, r) by max F1 on the public part; release: SP
  (Construction 1) per query on the private part.
* ``A/private_selection`` (:func:`paper_a_private_selection`): (β, r) candidates from the public part's k-NN
  distances, chosen by the selector on the private part, then SP.
* ``A/plain`` / ``B/plain`` (:func:`plain_view`, :func:`paper_a_plain`, :func:`paper_b_plain`): every record
  released, parameters from the config, nothing fitted (a fitted step makes the row data-dependent).

Every stage is a parameter (``splitter``, ``fitter``, the candidate ``grid`` of paper A, the ``selector``): the
audit's negative controls are these same functions with one stage broken. The scope of a path
(:attr:`Path.scope`) is collected from the objects that ran: the raw table's steps on all records
(:func:`raw_scope`: a label-stratified subsample is data-dependent), the split, the public fit, the choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from privanomaly import sp
from privanomaly.mechanisms.base import Claim
from privanomaly.mechanisms.exact import ExactDist
from privanomaly.outliers.global_sensitivity import gs_upper, kissing_upper
from privanomaly.paper_a import selection
from privanomaly.paper_b import tuning

from privanomaly.privacy import membership as ms
from privanomaly.privacy import public_fit, selection_methods
from privanomaly.privacy.scope import Scope, preprocessing

__all__ = ["KINDS", "RawRecords", "View", "Path", "Selector", "selector", "with_selector", "EXPONENTIAL", "raw_scope", "read_raw", "view",
           "paper_b_public_split", "paper_b_private_selection", "paper_a_public_split", "paper_a_private_selection",
           "public_grid", "PATHS", "plain_view", "paper_a_plain", "paper_b_plain", "composed_claim",
           "paper_b_sensitivity", "packing_upper", "paper_a_sensitivity", "Counts", "paper_a_utility"]

KINDS = ("A/public_split", "A/private_selection", "B/public_split", "B/private_selection", "A/plain", "B/plain")
"""Every kind of row that can say ``proven_end_to_end``: paper/tuning of the price tables, and a plain release
at public parameters (a sweep's ``r: value`` on a table with no fitted step: paper A's and paper B's sweeps)."""


def raw_scope(prov: Mapping) -> Scope:
    """What the raw-scale table's own steps did on all records (:func:`privanomaly.privacy.scope.preprocessing`:
    a label-stratified subsample is data-dependent; the deferred steps are the public fit's), and rows dropped
    for a missing value (a per-record rule: public)."""
    dropped = any(isinstance(s, Mapping) and s.get("step") == "missing" and s.get("mode") == "drop"
                  and s.get("rows_dropped") for s in prov.get("steps", []))
    return Scope(("rows with a missing value dropped (per record)",) if dropped else (), ()) + preprocessing(prov)


@dataclass(frozen=True)
class RawRecords:
    """The raw-scale records (rule ``prepare_raw``), the steps deferred to the public part, and the scope of
    what the table's own steps did on all records."""

    X: np.ndarray
    y: np.ndarray
    spec: public_fit.Spec
    applied: Scope = Scope((), ())

    @classmethod
    def from_table(cls, X: np.ndarray, y: np.ndarray, prov: Mapping) -> "RawRecords":
        return cls(np.asarray(X, dtype=np.float64), np.asarray(y).astype(np.int64), public_fit.spec_of(prov),
                   raw_scope(prov))


def read_raw(path: str, provenance_path: str) -> RawRecords:
    """Rule prepare_raw's table and provenance as :class:`RawRecords` (NaN: a missing cell imputed on the public
    part); an error naming the file when it does not follow the data schema."""
    import pandas as pd

    from privanomaly.datasets.schema import check_schema
    from privanomaly.experiment.inputs import read_output
    from privanomaly.privacy.scope import read_provenance

    df = read_output(path, pd.read_parquet, "a raw-scale dataset (Parquet, rule prepare_raw)")
    check_schema(df, where=str(path), missing=True)
    return RawRecords.from_table(df.drop(columns="label").to_numpy(np.float64), df["label"].to_numpy(),
                                 read_provenance(provenance_path))


@dataclass(frozen=True)
class View:
    """The split and the features: public (canonical order, fitted on them alone) and private (file order)."""

    split: ms.Membership
    Xpub: np.ndarray
    ypub: np.ndarray
    Xpriv: np.ndarray
    ypriv: np.ndarray
    scope: Scope
    _knn: dict = field(default_factory=dict, compare=False, repr=False)

    def public_knn(self, betas: list[int], p: float) -> np.ndarray:
        """The public part's (β+1)-NN distance table at ``betas`` (:func:`privanomaly.paper_a.selection
        .knn_radius_table`), computed once per view: the public split and the public grid read the same one."""
        key = (tuple(int(b) for b in betas), float(p))
        if key not in self._knn:
            self._knn[key] = selection.knn_radius_table(self.Xpub, list(key[0]), p=p)
        return self._knn[key]


Splitter = Callable[[np.ndarray, np.ndarray, int, float], ms.Membership]
Fitter = Callable[[RawRecords, ms.Membership], tuple[np.ndarray, np.ndarray, Scope]]


def fit_on_public(raw: RawRecords, split: ms.Membership) -> tuple[np.ndarray, np.ndarray, Scope]:
    """Fit the deferred steps on the raw public rows alone; (public features, private features, scope)."""
    f = public_fit.fit(raw.X[split.public], raw.spec)
    return f.transform(raw.X[split.public]), f.transform(raw.X[split.private]), f.scope()


def split_scope(split: ms.Membership) -> Scope:
    """The split as a public input, and the relation the claim holds on (:data:`.membership.RELATION_TEXT`)."""
    return Scope((split.describe(), f"relation: {split.relation}"), ())


def view(raw: RawRecords, seed: int, fraction: float, *, splitter: Splitter = ms.split,
         fitter: Fitter = fit_on_public) -> View:
    """The split of ``raw`` and its features (module docstring)."""
    split = splitter(raw.X, raw.y, seed, fraction)
    Xpub, Xpriv, fit_scope = fitter(raw, split)
    return View(split, Xpub, raw.y[split.public], Xpriv, raw.y[split.private],
                raw.applied + split_scope(split) + fit_scope)


# ------------------------------------------------------------------------------------ private selection
@dataclass(frozen=True)
class Selector:
    """A private selection method over a public candidate grid (integer utility, sensitivity Δu): its claim, its
    law as floats (the tables' expectations) and exactly (the audit). A new method is one more instance; ``name``
    is what the price tables' ``selection_method`` column says."""

    name: str
    claim: Callable[[float, int, str, str], Claim]
    probs: Callable[[np.ndarray, float, int], np.ndarray]
    exact_law: Callable[[np.ndarray, float, int], ExactDist]


def selector(name: str) -> Selector:
    """The :class:`Selector` of method ``name`` of config ``privacy.selection_methods``
    (:mod:`privanomaly.privacy.selection_methods`: its claim, float law and exact law)."""
    meth = selection_methods.get(name)
    return Selector(name, meth.claim, meth.probs, meth.exact_law)


EXPONENTIAL = selector("exponential")


def with_selector(path: "Path", sel: Selector) -> "Path":
    """A private selection ``path`` with its choice made by ``sel`` instead: the view, grid, utility and Δu are
    the selector's inputs, not its outputs, so one path serves every method (the same as running the path
    function with ``selector=sel``)."""
    if path.utility is None:
        raise ValueError(f"{path.kind}: a public choice has no selector to replace")
    return replace(path, selector=sel)


# ------------------------------------------------------------------------- utilities and their bounds
def paper_b_sensitivity(n_private: int, d: int, k: int) -> int:
    """Δu of paper B's selection utility under substitution (:mod:`privanomaly.price.tuning`)."""
    return int(min(n_private, 2 * gs_upper(None, d, k)))


def packing_upper(d: int, metric: str) -> int:
    """The most points within distance r of a point of R^d that are pairwise more than r apart, bounded for the
    metric of the ball counts: ℓ2, the kissing number K_d (pairwise angles above 60°); ℓ∞, 2^d (the cube of side
    2r is 2^d closed cubes of side r, two points in one are within r); ℓ1 (any norm), 3^d (open balls of radius
    r/2 around them are disjoint and inside the ball of radius 3r/2). In one dimension 2 for every metric."""
    d = int(d)
    if metric == "euclidean" or d == 1:
        return int(kissing_upper(d))
    if metric == "chebyshev":
        return 2**d
    if metric == "manhattan":
        return 3**d
    raise ValueError(f"paper A's selection sensitivity: no packing bound for metric {metric!r} "
                     "(euclidean, manhattan, chebyshev)")


def paper_a_sensitivity(d: int, beta_max: int, metric: str) -> int:
    """Δu of paper A's selection utility under add/remove: β_max · :func:`packing_upper` + 1
    (:mod:`privanomaly.price.tuning`)."""
    return int(beta_max) * packing_upper(d, metric) + 1



class Counts:
    """(x_i, B) of every record of X at each radius asked for, computed once (shared by every ε), capped at
    ``cap`` as :mod:`privanomaly.paper_a.records` caps them: B <= β is unchanged and every record's error is
    within 2^-60 of the uncapped one at the smallest release ε (so precision/recall to float rounding)."""

    def __init__(self, X: np.ndarray, metric: str, cap: int, radii=()):
        self.X, self.metric, self.cap = X, metric, cap
        self.x_i = np.minimum(sp.balls.duplicate_counts(X), cap)
        radii = sorted({float(r) for r in radii})
        self._B: dict[float, np.ndarray] = dict(zip(radii, sp.ball_counts_radii(X, radii, metric=metric, cap=cap)))
        self._pairs: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def B(self, r: float) -> np.ndarray:
        if r not in self._B:
            self._B[r] = sp.balls.ball_counts(self.X, r, metric=self.metric, cap=self.cap)
        return self._B[r]

    def pairs(self, r: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The distinct (x_i, B) pairs at ``r`` and each record's index among them: ``(x_u, B_u, inv)`` with
        ``x_i = x_u[inv]``, ``B(r) = B_u[inv]``. A record's (β, r)-status and a mechanism's error on it depend on
        its pair alone (Def. 2.2, the mdd of Lemma A.2), so they are computed once per pair."""
        if r not in self._pairs:
            key = self.x_i.astype(np.int64) * (self.cap + 1) + self.B(r)  # x_i, B <= cap
            u, inv = np.unique(key, return_inverse=True)
            self._pairs[r] = (u // (self.cap + 1), u % (self.cap + 1), inv.reshape(-1))
        return self._pairs[r]



def paper_a_utility(c: Counts, y: np.ndarray, cands) -> np.ndarray:
    """The selection's utility per candidate (β, r): the records of ``c`` whose (β, r)-anomaly status matches
    their label ``y`` (1 = anomaly); int64, one per candidate."""
    truth = np.asarray(y) == 1
    return np.array([int((np.asarray(sp.is_anomaly(c.x_i, c.B(r), b)).astype(bool) == truth).sum())
                     for b, r in cands], dtype=np.int64)


# --------------------------------------------------------------------------------------------- the paths
@dataclass(frozen=True)
class Path:
    """One released path, everything ε-free: the view, the public candidate grid, the public choice (public
    split) or the private utility (selection), its sensitivity bound Δu, and the scope of what ran.

    ``public`` holds every public quantity (features, labels, grid, choice): the audit checks each is the same,
    bit for bit, on every neighbour of the claimed relation."""

    kind: str
    view: View
    candidates: tuple
    chosen: int | None = None
    utility: np.ndarray | None = None
    du: int | None = None
    selector: Selector | None = None
    scope: Scope = Scope((), ())
    public: dict = field(default_factory=dict)
    private: dict = field(default_factory=dict)  # what the release and the evaluation reuse (never public)

    def law(self, eps_sel: float) -> np.ndarray:
        """Pr[candidate] as floats: the public choice (one-hot), or the selector's law at ε_sel."""
        if self.chosen is not None:
            return np.eye(len(self.candidates))[self.chosen]
        return self.selector.probs(self.utility, eps_sel, self.du)

    def exact_law(self, eps_sel: float) -> ExactDist | None:
        """The selector's exact law (None for a public choice: a point mass)."""
        return None if self.chosen is not None else self.selector.exact_law(self.utility, eps_sel, self.du)


def _public(v: View, **more) -> dict:
    return {"features": v.Xpub, "labels": v.ypub, **more}


def paper_b_public_split(v: View, *, k: int, radii, tie_break: str = "smallest") -> Path:
    """B/public_split: r by eq. (53) accuracy on the public part (``paper_b.tuning``)."""
    radii = np.asarray(radii, dtype=float)
    r = tuning.select_r(tuning.accuracy_curve(v.Xpub, v.ypub, k, radii, "full"), tie_break).r
    chosen = int(np.flatnonzero(radii == r)[0])
    return Path("B/public_split", v, tuple(float(x) for x in radii), chosen=chosen,
                scope=v.scope + Scope((f"r = {r:.6g} tuned by eq. (53) on the public part",), ()),
                public=_public(v, grid=radii, chosen=chosen))


def paper_b_private_selection(v: View, *, k: int, radii, selector: Selector = EXPONENTIAL) -> Path:
    """B/private_selection: r from the config grid by ``selector`` on the private part's correct count."""
    radii = np.asarray(radii, dtype=float)
    curve = tuning.accuracy_curve(v.Xpriv, v.ypriv, k, radii, "full")
    du = paper_b_sensitivity(len(v.Xpriv), v.Xpriv.shape[1], k)
    return Path("B/private_selection", v, tuple(float(x) for x in radii), utility=curve["n_correct"].to_numpy(np.int64),
                du=du, selector=selector, scope=v.scope + Scope(("r grid (config)", f"Δu = {du}"), ()),
                public=_public(v, grid=radii), private={"curve": curve})


def public_grid(v: View, betas, fractions, p: float) -> list[tuple[int, float]]:
    """Paper A's candidates (β, r): r read off the public part's (β+1)-NN distances at each fraction."""
    usable = usable_betas(v, betas)
    D = v.public_knn(usable, p)
    return [(b, selection.radius_for_fraction(D[:, j], f)) for j, b in enumerate(usable) for f in fractions]


def usable_betas(v: View, betas) -> list[int]:
    """The β of the grid the public part can score (β + 1 <= its size); none is an error."""
    usable = [int(b) for b in betas if int(b) + 1 <= len(v.Xpub)]
    if not usable:
        raise ValueError(f"public part of {len(v.Xpub)} records is too small for every β of {list(betas)}")
    return usable


def paper_a_public_split(v: View, *, betas, fractions, p: float = 2.0) -> Path:
    """A/public_split: (β, r) by max F1 on the public part (``paper_a.selection``)."""
    usable = usable_betas(v, betas)
    ch = selection.choose(selection.surface_from_table(v.public_knn(usable, p), v.ypub, usable, list(fractions)))
    return Path("A/public_split", v, ((ch.beta, ch.r),), chosen=0,
                scope=v.scope + Scope((f"(β, r) = ({ch.beta}, {ch.r:.6g}) by max F1 on the public part",), ()),
                public=_public(v, grid=np.array([[ch.beta, ch.r]])))


def paper_a_private_selection(v: View, *, betas, fractions, metric: str = "euclidean", cap: int | None = None,
                              selector: Selector = EXPONENTIAL,
                              grid: Callable[..., list] = public_grid) -> Path:
    """A/private_selection: ``grid``'s candidates, chosen by ``selector`` on the private part's correct (β, r)
    status (:func:`paper_a_utility`; Δu from :func:`paper_a_sensitivity`, an error for a metric without a packing
    bound)."""
    cands = grid(v, betas, fractions, sp.minkowski_p(metric))
    counts = Counts(v.Xpriv, metric, len(v.Xpriv) + 1 if cap is None else cap, [r for _, r in cands])
    u = paper_a_utility(counts, v.ypriv, cands)
    du = paper_a_sensitivity(v.Xpriv.shape[1], max(b for b, _ in cands), metric)
    return Path("A/private_selection", v, tuple(cands), utility=u, du=du, selector=selector,
                scope=v.scope + Scope(("(β, fraction) grid; r from the public part", f"Δu = {du}"), ()),
                public=_public(v, grid=np.array(cands, dtype=float)), private={"counts": counts})


SELECTION = {"A": ("add_remove", "correct (β, r) status", "selection of (β, r)", "SP answer"),
             "B": ("substitution", "eq. (53) correct count", "selection of r", "release of q_count")}
"""Per paper: the selection's relation (a DP claim on add/remove holds on G_S(k)), its utility, the steps' labels."""


def composed_claim(path: Path, release, eps: float, share: float, public_inputs=(), **release_kw) -> tuple:
    """(the row's claim, ε_sel, ε_release): a public choice spends all of ε on ``release`` (a mechanism of the
    registry, asked with ``release_kw``); a private selection spends ε_sel = share · ε on the selector and the
    rest on the release, composed by the accountant (:mod:`privanomaly.privacy.accountant`). The claim carries
    the path's scope after ``public_inputs``."""
    from privanomaly.privacy.accountant import Accountant

    pub, dep = (*public_inputs, *path.scope.public_inputs), path.scope.data_dependent
    if path.chosen is not None:
        return release.claim(eps=eps, **release_kw).scoped(pub, dep), 0.0, float(eps)
    relation, utility, sel_label, rel_label = SELECTION[path.kind[0]]
    acc = Accountant(release.claim(eps=eps, **release_kw).neighbours)
    acc.spend(sel_label, path.selector.claim(share * eps, path.du, relation, utility))
    rel_eps = acc.remaining(eps)
    acc.spend(rel_label, release.claim(eps=rel_eps, **release_kw))
    return acc.total(pub, dep), float(acc.steps[0].claim.epsilon), rel_eps


def plain_view(raw: RawRecords) -> View:
    """Every record private, no split: the features as they are (a deferred fitted step is fitted on all records
    and named data-dependent)."""
    n = len(raw.X)
    everyone = ms.Membership(np.empty(0, np.int64), np.arange(n), 0, 0.0, "neighbours differ in one record")
    X, fitted = raw.X, Scope((), ())
    if raw.spec != public_fit.Spec():
        f = public_fit.fit(raw.X, raw.spec)
        fitted = Scope((), tuple(p.replace("public part", "data") for p in f.scope().public_inputs))
        X = f.transform(raw.X)
    return View(everyone, X[:0], raw.y[:0], X, raw.y, raw.applied + fitted)


def paper_a_plain(v: View, *, beta: int, r: float) -> Path:
    """A/plain: SP at (β, r) from the config."""
    return Path("A/plain", v, ((int(beta), float(r)),), chosen=0,
                scope=v.scope + Scope((f"(β, r) = ({beta}, {r:g}) (config)",), ()),
                public={"grid": np.array([[beta, r]])})


def paper_b_plain(v: View, *, r: float) -> Path:
    """B/plain: the Gaussian of q_count at r from the config."""
    return Path("B/plain", v, (float(r),), chosen=0, scope=v.scope + Scope((f"r = {r:g} (config)",), ()),
                public={"grid": np.array([r])})


PATHS = {"A/public_split": paper_a_public_split, "A/private_selection": paper_a_private_selection,
         "B/public_split": paper_b_public_split, "B/private_selection": paper_b_private_selection,
         "A/plain": paper_a_plain, "B/plain": paper_b_plain}
