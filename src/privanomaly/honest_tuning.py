"""The price of honest tuning: accuracy under the paper's tuning vs the end-to-end private mode.

Three tunings of the same release, each evaluated on the same *private part* of the records (the rows
outside the public split, :mod:`.public_split`), per dataset and total ε:

* ``paper`` - as both papers (and our reproduction) do: the parameters tuned against the labels of every
  record, features standardised on every record; the release then spends all of ε. Not private end to end
  (the scope columns say why).
* ``public_split`` - tuning (same protocol) and standardisation on the public split only; the release spends
  all of ε on the private part. Proven end to end when no other data-dependent step remains (PCA, median
  imputation: the scope columns say so).
* ``private_selection`` - the candidate grid is public (paper B: config ``paper_b.tuning.r_grid``; paper A:
  the (β, fraction) grid read off the public split), the choice is made on the private part by a private
  selection method with ε_sel = share · ε, the release spends ε - ε_sel; the accountant (:mod:`.accountant`)
  composes the two. One row per method of config ``privacy.selection_methods`` (column ``selection_method``,
  :mod:`privanomaly.privacy.selection_methods`): the exponential mechanism (:mod:`.private_selection`) and
  permute-and-flip (:mod:`.permute_flip`), same ε_sel, Δu and utility. Its numbers are exact expectations
  over the selection's law (no sampling). ``cheapest_selection`` names, per ε, the method whose row loses
  least against the paper's tuning (paper B: ``accuracy_loss``; paper A: ``f1_loss``, the F1 of the expected
  precision and recall - the objective of paper A's tuning), ``cheapest_margin`` by how much.

Paper B (Scenario 1's query, Theorem 1 with the GS upper bound - the proven global release): eq. (53)
accuracy of the distance-outlier status at the chosen r, the outlier count q_count (the released query)
and σ_Global of its Gaussian; price = σ / σ(paper) and the accuracy lost. Utility: the number of private
records whose status matches their label; one substituted record changes it by at most
min(N, 2 GS^UB) (Theorem 4's packing bound on each side of the substitution, plus the record itself).

Paper A (the SP mechanism of Construction 1 at (ε, k), one query per record, as Table 3): the exact error
on the (β, r)-anomalies and the expected precision/recall against the labels. Utility: the number of
private records whose (β, r)-anomaly status matches their label; adding or removing one record changes it
by at most β_max P + 1 (Theorem 4 of paper B with k = β: a record is a (β, r)-anomaly iff it has fewer
than β other records within r), P the packing number of the ball counts' metric (:func:`packing_upper`: the
kissing number K_d for ℓ2, 2^d for ℓ∞, 3^d for ℓ1). A DP claim on G holds on G_S(k) ⊆ G (Def. 3.2), so
the selection composes with SP on G_S(k) - on the edges that are G_S(k) edges for every candidate (β, r),
since G_S(k) depends on (β, r) (:mod:`.end_to_end`).

Columns (one row per dataset, ε and tuning): ``n_public`` / ``n_private``, ``eps_selection`` (the rational
rate the selection spends; 0 without one) and ``eps_release``, the chosen ``r`` (and ``beta``; for
``private_selection`` their expectations under the selection's law), the accuracy measures above (paper B's
σ followed by its own flag ``sigma_global_upper_proven``: every premise of Theorem 1 holds), and the
composed claim (``claim_eps``, ``claim_delta``, ``neighbours``) with its scope (``public_inputs``,
``data_dependent``, ``proven_end_to_end``). Paper A's ``skipped`` says why a private selection could not be
made (empty unless a metric has no packing bound).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from privanomaly import mechanisms, outliers as ol, sp
from privanomaly.outliers.global_sensitivity import gs_upper, kissing_upper
from privanomaly.paper_a import selection
from privanomaly.paper_a.detection import expected_pr
from privanomaly.paper_b import tuning

from privanomaly.privacy import public_split, scope, selection_methods
from privanomaly.privacy.accountant import Accountant
from privanomaly.sp.dlap import MAX_DENOMINATOR_BITS

__all__ = ["TUNINGS", "paper_b_price", "paper_a_price", "paper_a_utility", "packing_upper", "paper_b_sensitivity",
           "paper_a_sensitivity", "price_table"]

TUNINGS = ("paper", "public_split", "private_selection")


def paper_b_sensitivity(n_private: int, d: int, k: int) -> int:
    """Δu of paper B's selection utility under substitution (module docstring)."""
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
    """Δu of paper A's selection utility under add/remove: β_max · :func:`packing_upper` + 1 (module docstring)."""
    return int(beta_max) * packing_upper(d, metric) + 1


def _scope_cols(claim) -> dict:
    sc = scope.Scope(claim.public_inputs, claim.data_dependent)
    return {"claim_eps": float(claim.epsilon), "claim_delta": float(claim.delta), "neighbours": claim.neighbours,
            **sc.columns(claim.proven)}


def _split_text(split: public_split.Split, seed_text: str) -> str:
    return f"public split: {len(split.public)} rows ({seed_text}), disjoint from the {len(split.private)} released"


# --------------------------------------------------------------------------------------------------- paper B
def paper_b_price(X: np.ndarray, y: np.ndarray, prov: Mapping, *, k: int, delta: float, eps_grid, radii,
                  split: public_split.Split, selection_share: float, tie_break: str = "smallest",
                  seed_text: str = "seeded", methods=("exponential",)) -> pd.DataFrame:
    """One row per (ε, tuning) - per selection method of ``methods`` for private_selection - for paper B's
    Scenario-1 count (module docstring)."""
    X, y = np.asarray(X, float), np.asarray(y).astype(int)
    radii = np.asarray(radii, float)
    pub, priv = split.public, split.private
    n_priv, d = len(priv), X.shape[1]
    gauss = mechanisms.get("gaussian_gs_upper")
    gs = gauss.gs(n_priv, d, k)
    # the paper's r: tuned on every record's label, features z-scored on every record
    r_paper = tuning.select_r(tuning.accuracy_curve(X, y, k, radii, "full"), tie_break).r
    at_paper = tuning.accuracy_curve(X[priv], y[priv], k, np.array([r_paper]), "full").iloc[0]
    # honest: z-scores and r from the public split
    Xh, prov_h = public_split.refit_standardisation(X, pub, prov)
    r_pub = tuning.select_r(tuning.accuracy_curve(Xh[pub], y[pub], k, radii, "full"), tie_break).r
    curve = tuning.accuracy_curve(Xh[priv], y[priv], k, radii, "full")  # every candidate, on the private part
    at_pub = curve.iloc[int(np.flatnonzero(radii == r_pub)[0])]
    du = paper_b_sensitivity(n_priv, d, k)
    prep, prep_h = scope.preprocessing(prov), scope.preprocessing(prov_h)
    split_text = _split_text(split, seed_text)
    base = {"paper": "B", "k": int(k), "delta": float(delta), "n_public": len(pub), "n_private": n_priv, "d": d,
            "gs_upper": int(gs)}
    rows = []
    for eps in eps_grid:
        eps = float(eps)
        sigma_paper = ol.sigma_global(gs, eps, delta)
        release = gauss.claim(eps=eps, delta=delta)
        sc = scope.paper_b_r({"r": r_paper}) + prep
        rows.append({**base, "eps": eps, "tuning": "paper", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "r": r_paper,
                     "accuracy": float(at_paper["accuracy"]), "outlier_count": float(at_paper["tp"] + at_paper["fp"]),
                     "sigma_global_upper": sigma_paper,
                     "sigma_global_upper_proven": bool(release.proven), "sigma_ratio": 1.0, "accuracy_loss": 0.0,
                     **_scope_cols(release.scoped(("ε, δ, k, N, d (bounded DP)", "r grid (config)"),
                                                  sc.data_dependent))})
        pub_inputs = ("ε, δ, k, N, d (bounded DP)", split_text, f"r = {r_pub:.6g} tuned by eq. (53) on the public split",
                      *prep_h.public_inputs)
        rows.append({**base, "eps": eps, "tuning": "public_split", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "r": r_pub, "accuracy": float(at_pub["accuracy"]), "outlier_count": float(at_pub["tp"] + at_pub["fp"]),
                     "sigma_global_upper": sigma_paper,
                     "sigma_global_upper_proven": bool(release.proven), "sigma_ratio": 1.0,
                     "accuracy_loss": float(at_paper["accuracy"] - at_pub["accuracy"]),
                     **_scope_cols(release.scoped(pub_inputs, prep_h.data_dependent))})
        common = {**base, "eps": eps, "tuning": "private_selection"}
        public = ("ε, δ, k, N, d (bounded DP)", split_text, "r grid (config)", f"Δu = {du}", *prep_h.public_inputs)
        for name in selection_methods.check_names(methods):
            rows.append({**common, "selection_method": name,
                         **_paper_b_selected(name, curve, radii, eps, selection_share * eps, du, delta, gs,
                                             float(at_paper["accuracy"]), public, prep_h.data_dependent)})
    return _with_cheapest(pd.DataFrame(rows), "accuracy_loss")


def _paper_b_selected(name: str, curve: pd.DataFrame, radii: np.ndarray, eps: float, eps_sel: float, du: int,
                      delta: float, gs: int, paper_accuracy: float, public: tuple, data_dependent: tuple) -> dict:
    """A private_selection row of paper B (without its keys): r by selection method ``name`` on the private
    part's eq. (53) correct counts, then the Gaussian release with the rest of ε, composed."""
    meth = selection_methods.get(name)
    gauss = mechanisms.get("gaussian_gs_upper")
    acc = Accountant("substitution")
    acc.spend("selection of r", meth.claim(eps_sel, du, "substitution", "eq. (53) correct count"))
    rel = acc.spend("release of q_count", gauss.claim(eps=acc.remaining(eps), delta=delta))
    p = meth.probs(curve["n_correct"].to_numpy(np.int64), eps_sel, du)
    sigma = ol.sigma_global(gs, rel.epsilon, delta)
    exp_acc = float(p @ curve["accuracy"].to_numpy())
    return {"eps_selection": float(acc.steps[0].claim.epsilon), "eps_release": float(rel.epsilon),
            "r": float(p @ radii), "accuracy": exp_acc, "outlier_count": float(p @ (curve["tp"] + curve["fp"]).to_numpy()),
            "sigma_global_upper": sigma, "sigma_global_upper_proven": bool(rel.proven),
            "sigma_ratio": sigma / ol.sigma_global(gs, eps, delta), "accuracy_loss": paper_accuracy - exp_acc,
            **_scope_cols(acc.total(public, data_dependent))}


def _with_cheapest(t: pd.DataFrame, loss: str) -> pd.DataFrame:
    """Columns on every row: ``cheapest_selection``, per ε the selection method(s) of the private_selection rows
    with the smallest ``loss`` (ties within 1e-12 joined by " = "; "" when no such row has a loss), and
    ``cheapest_margin``, how much less it loses than the next method (NaN with fewer than two methods)."""
    sel = t[(t["tuning"] == "private_selection") & t[loss].notna()]
    best, margin = {}, {}
    for eps, g in sel.groupby("eps", sort=False):
        losses = np.sort(g[loss].to_numpy(float))
        best[eps] = " = ".join(g.loc[g[loss] <= losses[0] + 1e-12, "selection_method"])
        margin[eps] = float(losses[1] - losses[0]) if len(losses) > 1 else np.nan
    t["cheapest_selection"] = [best.get(e, "") for e in t["eps"]]
    t["cheapest_margin"] = [margin.get(e, np.nan) for e in t["eps"]]
    return t
class _Counts:
    """(x_i, B) of every record of X at each radius asked for, computed once (shared by every ε), capped at
    ``cap`` as :mod:`privanomaly.paper_a.records` caps them: B <= β is unchanged and every record's error is
    within 2^-60 of the uncapped one at the smallest release ε (so precision/recall to float rounding)."""

    def __init__(self, X: np.ndarray, metric: str, cap: int, radii=()):
        self.X, self.metric, self.cap = X, metric, cap
        self.x_i = np.minimum(sp.balls.duplicate_counts(X), cap)
        radii = sorted({float(r) for r in radii})
        self._B: dict[float, np.ndarray] = dict(zip(radii, sp.ball_counts_radii(X, radii, metric=metric, cap=cap)))

    def B(self, r: float) -> np.ndarray:
        if r not in self._B:
            self._B[r] = sp.balls.ball_counts(self.X, r, metric=self.metric, cap=self.cap)
        return self._B[r]


def _sp_metrics(m, c: _Counts, y: np.ndarray, beta: int, r: float, k: int, eps: float) -> dict:
    """Exact error on the (β, r)-anomalies and expected precision/recall vs labels of ``m`` on c's records."""
    x_i, B = c.x_i, c.B(r)
    g = np.asarray(sp.is_anomaly(x_i, B, beta)).astype(bool)
    err = np.asarray(m.error(x_i, B, beta=beta, k=k, eps=eps, cap=c.cap), dtype=float)
    p_one = np.asarray(sp.prob_one(err, g.astype(np.int8)), dtype=float)
    precision, recall = expected_pr(p_one, y == 1)
    return {"error_anomaly": float(err[g].mean()) if g.any() else np.nan, "precision_labels": precision,
            "recall_labels": recall, "n_anomalies": float(g.sum())}


def paper_a_utility(c: _Counts, y: np.ndarray, cands) -> np.ndarray:
    """The selection's utility per candidate (β, r): the records of ``c`` whose (β, r)-anomaly status matches
    their label ``y`` (1 = anomaly); int64, one per candidate."""
    truth = np.asarray(y) == 1
    return np.array([int((np.asarray(sp.is_anomaly(c.x_i, c.B(r), b)).astype(bool) == truth).sum())
                     for b, r in cands], dtype=np.int64)


def _expect(p: np.ndarray, v: np.ndarray) -> float:
    """E[v] under the selection law; candidates where v is undefined (no anomaly: NaN) are conditioned out."""
    ok = ~np.isnan(v)
    return float(p[ok] @ v[ok] / p[ok].sum()) if p[ok].sum() > 0 else float("nan")


def paper_a_price(X: np.ndarray, y: np.ndarray, prov: Mapping, *, betas, fractions, eps_grid, k: int,
                  split: public_split.Split, selection_share: float, rng: np.random.Generator,
                  mechanism: str = "sp", metric: str = "euclidean", max_query_rows: int | None = None,
                  seed_text: str = "seeded", methods=("exponential",)) -> pd.DataFrame:
    """One row per (ε, tuning) - per selection method of ``methods`` for private_selection - for paper A's SP
    mechanism (module docstring)."""
    X, y = np.asarray(X, float), np.asarray(y).astype(int)
    pub, priv = split.public, split.private
    m = mechanisms.get(mechanism)
    pnorm = sp.minkowski_p(metric)
    prep = scope.preprocessing(prov)
    ch = selection.choose(selection.selection_surface(X, y, list(betas), list(fractions), rng=rng,
                                                      max_query_rows=max_query_rows, p=pnorm))
    Xh, prov_h = public_split.refit_standardisation(X, pub, prov)
    prep_h = scope.preprocessing(prov_h)
    usable = [int(b) for b in betas if int(b) + 1 <= len(pub)]
    if not usable:
        raise ValueError(f"public split of {len(pub)} rows is too small for every β of {list(betas)}")
    ch_pub = selection.choose(selection.selection_surface(Xh[pub], y[pub], usable, list(fractions), p=pnorm))
    # candidates of the private selection: (β, r) with r read off the public split's (β+1)-NN distances
    D = selection.knn_radius_table(Xh[pub], usable, p=pnorm)
    cands = [(b, selection.radius_for_fraction(D[:, j], f)) for j, b in enumerate(usable) for f in fractions]
    # counts capped as paper_a.records caps them: every error exact to 2^-60 at the smallest release eps,
    # B <= beta unchanged; every candidate radius in one search (sp.ball_counts_radii)
    cap = sp.recommended_cap(max(int(b) for b in betas),
                             min(float(e) for e in eps_grid) * (1.0 - selection_share) * m.noise_share)
    paper_counts = _Counts(X[priv], metric, cap)
    honest_counts = _Counts(Xh[priv], metric, cap, [r for _, r in cands] + [ch_pub.r])
    utility = paper_a_utility(honest_counts, y[priv], cands)
    try:
        du = paper_a_sensitivity(X.shape[1], max(usable), metric)
    except ValueError as exc:
        du, why = None, str(exc)
    split_text = _split_text(split, seed_text)
    names = selection_methods.check_names(methods)
    memo: dict[float, list[dict]] = {}

    def per_candidate(rel_eps: float) -> list[dict]:  # every candidate's metrics at the release's ε (shared)
        if rel_eps not in memo:
            memo[rel_eps] = [_sp_metrics(m, honest_counts, y[priv], b, r, k, rel_eps) for b, r in cands]
        return memo[rel_eps]

    base = {"paper": "A", "k": int(k), "mechanism": mechanism, "n_public": len(pub), "n_private": len(priv),
            "d": X.shape[1]}
    rows = []
    for eps in eps_grid:
        eps = float(eps)
        release = m.claim(eps=eps, beta=ch.beta, k=k)
        paper = _sp_metrics(m, paper_counts, y[priv], ch.beta, ch.r, k, eps)
        rows.append({**base, "eps": eps, "tuning": "paper", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "beta": ch.beta, "r": ch.r, **paper, "precision_loss": 0.0, "recall_loss": 0.0, "skipped": "",
                     **_scope_cols(release.scoped((scope.PAPER_A_PUBLIC, "β and fraction grids (config)"),
                                                  (scope.paper_a_beta_r({"beta": ch.beta, "r": ch.r}) + prep).data_dependent))})
        honest = _sp_metrics(m, honest_counts, y[priv], ch_pub.beta, ch_pub.r, k, eps)
        pub_inputs = (scope.PAPER_A_PUBLIC, split_text, f"(β, r) = ({ch_pub.beta}, {ch_pub.r:.6g}) by max F1 on the public split",
                      *prep_h.public_inputs)
        rows.append({**base, "eps": eps, "tuning": "public_split", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "beta": ch_pub.beta, "r": ch_pub.r, **honest,
                     "precision_loss": paper["precision_labels"] - honest["precision_labels"],
                     "recall_loss": paper["recall_labels"] - honest["recall_labels"], "skipped": "",
                     **_scope_cols(release.scoped(pub_inputs, prep_h.data_dependent))})
        row = {**base, "eps": eps, "tuning": "private_selection"}
        public = (scope.PAPER_A_PUBLIC, split_text, "(β, fraction) grid; r from the public split", f"Δu = {du}",
                  scope.CANDIDATES_RELATION, *prep_h.public_inputs)
        for name in names:
            if du is None:
                rows.append({**row, "selection_method": name, "skipped": why})
                continue
            rows.append({**row, "selection_method": name,
                         **_paper_a_selected(name, m, per_candidate, utility, cands, eps, selection_share * eps, du,
                                             max(usable), k, paper, public, prep_h.data_dependent)})
    return _with_cheapest(_with_f1(pd.DataFrame(rows)), "f1_loss")


def _paper_a_selected(name: str, m, per_candidate, utility: np.ndarray, cands: list, eps: float, eps_sel: float,
                      du: int, beta_max: int, k: int, paper: dict, public: tuple, data_dependent: tuple) -> dict:
    """A private_selection row of paper A (without its keys): (β, r) by selection method ``name`` on the private
    part's utility, then SP with the rest of ε, composed; its measures are expectations over the selection."""
    meth = selection_methods.get(name)
    acc = Accountant(m.neighbours)
    acc.spend("selection of (β, r)", meth.claim(eps_sel, du, "add_remove", "correct (β, r) status"))
    rel_eps = acc.remaining(eps)
    acc.spend("SP answer", m.claim(eps=rel_eps, beta=beta_max, k=k))
    p = meth.probs(utility, eps_sel, du)
    per = per_candidate(rel_eps)
    expect = {key: _expect(p, np.array([c[key] for c in per], dtype=float)) for key in per[0]}
    return {"eps_selection": float(acc.steps[0].claim.epsilon), "eps_release": rel_eps,
            "beta": float(p @ np.array([b for b, _ in cands])), "r": float(p @ np.array([r for _, r in cands])),
            **expect, "precision_loss": paper["precision_labels"] - expect["precision_labels"],
            "recall_loss": paper["recall_labels"] - expect["recall_labels"], "skipped": "",
            **_scope_cols(acc.total(public, data_dependent))}


def _with_f1(t: pd.DataFrame) -> pd.DataFrame:
    """``f1_labels`` (F1 of the row's expected precision and recall, paper A's tuning objective) after
    ``recall_labels`` and ``f1_loss`` (the paper row's F1 at the same ε minus this row's) after ``recall_loss``."""
    prec, rec = t["precision_labels"].astype(float), t["recall_labels"].astype(float)
    f1 = (2 * prec * rec / (prec + rec)).where(prec + rec > 0, 0.0).where(prec.notna() & rec.notna())
    paper = dict(zip(t.loc[t["tuning"] == "paper", "eps"], f1[t["tuning"] == "paper"]))
    t.insert(t.columns.get_loc("recall_labels") + 1, "f1_labels", f1)
    t.insert(t.columns.get_loc("recall_loss") + 1, "f1_loss", t["eps"].map(paper) - f1)
    return t


# ------------------------------------------------------------------------------------------------ the table
def price_table(paper: str, datasets: list[str], data_paths: list[str], provenance_paths: list[str],
                privacy: Mapping, cfg: Mapping, progress=lambda it: it) -> pd.DataFrame:
    """The tidy price-of-honest-tuning table of ``paper`` ("A" or "B") over ``datasets`` (rule privacy_price).

    ``privacy`` is config ``privacy`` (eps, public_split {fraction, seed}, selection_share, selection_methods:
    the private rows, one per method); ``cfg`` the
    paper's section (paper A: selection.{betas, fractions, max_query_rows}, k_main, metric; paper B: k, delta,
    tuning.{r_grid, tie_break}; paper A also the master ``seed``). The split of each dataset is drawn from
    ``seeding.rng(public_split.seed, "public_split", dataset)``; paper A's protocol subsample (datasets above
    ``max_query_rows``) from ``seeding.rng(seed, "paper_a_select", dataset)``, rule ``paper_a_select``'s draw, so
    the ``paper`` row is the (β, r) of Tables 1-3."""
    from privanomaly import experiment, seeding

    if paper not in ("A", "B"):
        raise ValueError(f"privacy_price: paper must be 'A' or 'B', got {paper!r}")
    if not (len(datasets) == len(data_paths) == len(provenance_paths)):
        raise ValueError("privacy_price: one data file and one provenance file per dataset")
    if paper == "A" and "seed" not in cfg:
        raise ValueError("privacy_price: paper A's settings need the master 'seed' (config 'seed': the selection "
                         "protocol's subsample is rule paper_a_select's; privanomaly.privacy.price_plan.paper_settings)")
    share = float(privacy["selection_share"])
    rational = (("selection", share), ("release", 1.0 - share)) if paper == "A" else (("selection", share),)
    for part, eps in ((what, float(e) * f) for e in privacy["eps"] for what, f in rational):  # SP: rational too
        if eps < 2.0**-MAX_DENOMINATOR_BITS:
            raise ValueError(f"privacy.eps × privacy.selection_share: the {part} of a row would spend {eps:.3g}, below "
                             f"2^-{MAX_DENOMINATOR_BITS}, the smallest rate the exact samplers take; raise the smallest "
                             f"privacy.eps ({min(map(float, privacy['eps'])):g}) or move selection_share ({share:g}) "
                             "away from 0 and 1")
    if "selection_methods" not in privacy:
        raise ValueError("privacy_price: config privacy.selection_methods is missing (expected a list of "
                         f"{', '.join(selection_methods.METHODS)})")
    methods = selection_methods.check_names(privacy["selection_methods"])
    ps = privacy["public_split"]
    seed_text = f"fraction {ps['fraction']:g}, seed {ps['seed']}"
    parts = []
    for name, data, prov_path in progress(list(zip(datasets, data_paths, provenance_paths))):
        X, y, _ = experiment.load_dataset(data)
        prov = scope.read_provenance(prov_path)
        split = public_split.split(len(X), float(ps["fraction"]), seeding.rng(int(ps["seed"]), "public_split", name))
        common = dict(eps_grid=list(privacy["eps"]), split=split, selection_share=float(privacy["selection_share"]),
                      seed_text=seed_text, methods=methods)
        if paper == "B":
            t = paper_b_price(X, y, prov, k=int(cfg["k"]), delta=float(cfg["delta"]),
                              radii=tuning.r_grid(cfg["tuning"]["r_grid"]),
                              tie_break=cfg["tuning"].get("tie_break", "smallest"), **common)
        else:
            sel = cfg["selection"]
            t = paper_a_price(X, y, prov, betas=list(sel["betas"]), fractions=list(sel["fractions"]),
                              k=int(cfg["k_main"]), metric=cfg["metric"], max_query_rows=sel.get("max_query_rows"),
                              rng=seeding.rng(int(cfg["seed"]), "paper_a_select", name), **common)
        t.insert(0, "dataset", name)
        parts.append(t)
    if not parts:
        return pd.DataFrame(columns=["dataset", "paper", "eps", "tuning"])
    return pd.concat(parts, ignore_index=True)
