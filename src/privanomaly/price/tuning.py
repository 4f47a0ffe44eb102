"""The price of honest tuning: accuracy under the paper's tuning vs the end-to-end private mode.

Three tunings of the same release, each evaluated on the same *private part* of the records (those whose
keyed hash marks them private, :mod:`privanomaly.privacy.membership`), per dataset and total ε. The two
end-to-end tunings run :mod:`privanomaly.price.released_path` - the function the audit runs - from the raw-scale
records (rule ``prepare_raw``): every fitted preprocessing step is fitted on the raw public records alone.

* ``paper`` - as both papers (and our reproduction) do: the parameters tuned against the labels of every
  record, features standardised on every record; the release then spends all of ε. Not private end to end
  (the scope columns say why).
* ``public_split`` - tuning (same protocol) on the public part; the release spends all of ε on the private
  part. Proven end to end when nothing data-dependent remains (a label-stratified subsample of all records
  does: the scope columns say so).
* ``private_selection`` - the candidate grid is public (paper B: config ``paper_b.tuning.r_grid``; paper A:
  the (β, fraction) grid read off the public part), the choice is made on the private part by a private
  selection method (:class:`privanomaly.price.released_path.Selector`) with ε_sel = share · ε, the release spends
  ε - ε_sel; the accountant (:mod:`privanomaly.privacy.accountant`) composes the two. One row per method of
  config ``privacy.selection_methods`` (column ``selection_method``, :mod:`privanomaly.privacy.selection_methods`:
  the exponential mechanism and permute-and-flip), same ε_sel, Δu, utility and candidate metrics - only the law
  of the choice differs. Its numbers are exact expectations over the selection's law (no sampling).
  ``cheapest_selection`` names, per ε, the method whose row loses least against the paper's tuning (paper B:
  ``accuracy_loss``; paper A: ``f1_loss``, the F1 of the expected precision and recall - the objective of paper
  A's tuning), ``cheapest_margin`` by how much.

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
since G_S(k) depends on (β, r) (:mod:`privanomaly.privacy.end_to_end`).

Columns (one row per dataset, ε and tuning): ``n_public`` / ``n_private`` (paper A's end-to-end rows leave
``n_private`` empty: under add/remove the private part's size is not public, so publishing it beside a proven
row would be outside the claim; paper B's relation, substitution, keeps N public), ``eps_selection`` (the rational
rate the selection spends; 0 without one) and ``eps_release``, the chosen ``r`` (and ``beta``; for
``private_selection`` their expectations under the selection's law), the accuracy measures above (paper B's
σ followed by its own flag ``sigma_global_upper_proven``: every premise of Theorem 1 holds), and the
composed claim (``claim_eps``, ``claim_delta``, ``neighbours``) with its scope (``public_inputs``,
``data_dependent``, ``proven_end_to_end``). Paper A's ``skipped`` says why a private selection could not be
made (empty unless a metric has no packing bound). The accuracy measures are the experimenter's evaluation of
the release against the labels of the private part (what the price is), not outputs of the release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from privanomaly import mechanisms, outliers as ol, sp
from privanomaly.price import released_path
from privanomaly.price.plan import TUNINGS
from privanomaly.paper_a import selection
from privanomaly.paper_a.detection import expected_pr
from privanomaly.paper_b import tuning
from privanomaly.privacy import scope, selection_methods
from privanomaly.price.released_path import (  # noqa: F401 - the utilities' bounds, named here as before
    Counts, packing_upper, paper_a_sensitivity, paper_a_utility, paper_b_sensitivity)
from privanomaly.sp.dlap import MAX_DENOMINATOR_BITS

__all__ = ["TUNINGS", "paper_b_price", "paper_a_price", "paper_a_utility", "packing_upper", "paper_b_sensitivity",
           "paper_a_sensitivity", "price_table"]

PUBLIC_B = "ε, δ, k, N, d (bounded DP)"  # paper B's public inputs (substitution: N is public)


def _scope_cols(claim) -> dict:
    sc = scope.Scope(claim.public_inputs, claim.data_dependent)
    return {"claim_eps": float(claim.epsilon), "claim_delta": float(claim.delta), "neighbours": claim.neighbours,
            **sc.columns(claim.proven)}


def _aligned(X: np.ndarray, raw: released_path.RawRecords) -> None:
    if len(raw.X) != len(X):
        raise ValueError(f"privacy_price: the raw-scale table has {len(raw.X)} rows and the prepared table {len(X)}; "
                         "both come from the same records in the same order (rules prepare and prepare_raw) - "
                         "rerun the workflow")


# --------------------------------------------------------------------------------------------------- paper B
def paper_b_price(X: np.ndarray, y: np.ndarray, prov: Mapping, *, raw: released_path.RawRecords, seed: int,
                  fraction: float, k: int, delta: float, eps_grid, radii, selection_share: float,
                  tie_break: str = "smallest",
                  selectors: Sequence[released_path.Selector] = (released_path.EXPONENTIAL,)) -> pd.DataFrame:
    """One row per (ε, tuning) - per selector of ``selectors`` for private_selection - for paper B's Scenario-1
    count (module docstring). ``X, y, prov``: rule prepare's table (the ``paper`` row); ``raw``: the same records
    at raw scale (the end-to-end rows' released path)."""
    X, y = np.asarray(X, float), np.asarray(y).astype(int)
    _aligned(X, raw)
    radii = np.asarray(radii, float)
    v = released_path.view(raw, seed, fraction)
    ps = released_path.paper_b_public_split(v, k=k, radii=radii, tie_break=tie_break)
    sel = released_path.paper_b_private_selection(v, k=k, radii=radii, selector=selectors[0])
    priv = v.split.private
    n_priv, d = len(priv), v.Xpriv.shape[1]
    gauss = mechanisms.get("gaussian_gs_upper")
    gs = gauss.gs(n_priv, d, k)
    # the paper's r: tuned on every record's label, features z-scored on every record
    r_paper = tuning.select_r(tuning.accuracy_curve(X, y, k, radii, "full"), tie_break).r
    at_paper = tuning.accuracy_curve(X[priv], y[priv], k, np.array([r_paper]), "full").iloc[0]
    at_pub = sel.private["curve"].iloc[ps.chosen]  # every candidate, on the private part, once for every method
    r_pub = ps.candidates[ps.chosen]
    base = {"paper": "B", "k": int(k), "delta": float(delta), "n_public": len(v.split.public), "n_private": n_priv,
            "d": d, "gs_upper": int(gs)}
    rows = []
    for eps in eps_grid:
        eps = float(eps)
        sigma_paper = ol.sigma_global(gs, eps, delta)
        release = gauss.claim(eps=eps, delta=delta)
        sc = scope.paper_b_r({"r": r_paper}) + scope.preprocessing(prov)
        sigma = {"sigma_global_upper": sigma_paper, "sigma_global_upper_proven": bool(release.proven),
                 "sigma_ratio": 1.0}
        rows.append({**base, "eps": eps, "tuning": "paper", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "r": r_paper, "accuracy": float(at_paper["accuracy"]),
                     "outlier_count": float(at_paper["tp"] + at_paper["fp"]), **sigma, "accuracy_loss": 0.0,
                     **_scope_cols(release.scoped((PUBLIC_B, "r grid (config)"), sc.data_dependent))})
        claim_pub, _, _ = released_path.composed_claim(ps, gauss, eps, selection_share, (PUBLIC_B,), delta=delta)
        rows.append({**base, "eps": eps, "tuning": "public_split", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "r": r_pub, "accuracy": float(at_pub["accuracy"]),
                     "outlier_count": float(at_pub["tp"] + at_pub["fp"]), **sigma,
                     "accuracy_loss": float(at_paper["accuracy"] - at_pub["accuracy"]), **_scope_cols(claim_pub)})
        for s in selectors:
            rows.append({**base, "eps": eps, "tuning": "private_selection", "selection_method": s.name,
                         **_paper_b_selected(released_path.with_selector(sel, s), eps, selection_share, delta, gs,
                                             float(at_paper["accuracy"]))})
    return _with_cheapest(pd.DataFrame(rows), "accuracy_loss")


def _paper_b_selected(sel: released_path.Path, eps: float, share: float, delta: float, gs: int,
                      paper_accuracy: float) -> dict:
    """A private_selection row of paper B (without its keys): r by the path's selector at ε_sel = share · ε on the
    private part's eq. (53) correct counts (the path's curve, shared by every method), then the Gaussian of
    q_count with the rest of ε, composed; its measures are expectations over the selector's law."""
    gauss = mechanisms.get("gaussian_gs_upper")
    total, eps_sel, rel_eps = released_path.composed_claim(sel, gauss, eps, share, (PUBLIC_B,), delta=delta)
    curve = sel.private["curve"]
    p = sel.law(share * eps)
    sigma = ol.sigma_global(gs, rel_eps, delta)
    exp_acc = float(p @ curve["accuracy"].to_numpy())
    return {"eps_selection": eps_sel, "eps_release": rel_eps, "r": float(p @ np.asarray(sel.candidates)),
            "accuracy": exp_acc, "outlier_count": float(p @ (curve["tp"] + curve["fp"]).to_numpy()),
            "sigma_global_upper": sigma,
            "sigma_global_upper_proven": bool(gauss.claim(eps=rel_eps, delta=delta).proven),
            "sigma_ratio": sigma / ol.sigma_global(gs, eps, delta), "accuracy_loss": paper_accuracy - exp_acc,
            **_scope_cols(total)}


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


# --------------------------------------------------------------------------------------------------- paper A
def _sp_metrics(m, c: Counts, y: np.ndarray, beta: int, r: float, k: int, eps: float) -> dict:
    """Exact error on the (β, r)-anomalies and expected precision/recall vs labels of ``m`` on c's records."""
    x_u, B_u, inv = c.pairs(r)  # status and error per distinct (x_i, B), then per record
    g = np.asarray(sp.is_anomaly(x_u, B_u, beta)).astype(bool)[inv]
    err = np.asarray(m.error(x_u, B_u, beta=beta, k=k, eps=eps, cap=c.cap), dtype=float)[inv]
    p_one = np.asarray(sp.prob_one(err, g.astype(np.int8)), dtype=float)
    precision, recall = expected_pr(p_one, y == 1)
    return {"error_anomaly": float(err[g].mean()) if g.any() else np.nan, "precision_labels": precision,
            "recall_labels": recall, "n_anomalies": float(g.sum())}


def _expect(p: np.ndarray, v: np.ndarray) -> float:
    """E[v] under the selection law; candidates where v is undefined (no anomaly: NaN) are conditioned out."""
    ok = ~np.isnan(v)
    return float(p[ok] @ v[ok] / p[ok].sum()) if p[ok].sum() > 0 else float("nan")


def paper_a_price(X: np.ndarray, y: np.ndarray, prov: Mapping, *, raw: released_path.RawRecords, seed: int,
                  fraction: float, betas, fractions, eps_grid, k: int, selection_share: float,
                  rng: np.random.Generator, mechanism: str = "sp", metric: str = "euclidean",
                  max_query_rows: int | None = None,
                  selectors: Sequence[released_path.Selector] = (released_path.EXPONENTIAL,)) -> pd.DataFrame:
    """One row per (ε, tuning) - per selector of ``selectors`` for private_selection - for paper A's SP mechanism
    (module docstring); ``X, y, prov`` and ``raw`` as in :func:`paper_b_price`."""
    X, y = np.asarray(X, float), np.asarray(y).astype(int)
    _aligned(X, raw)
    m = mechanisms.get(mechanism)
    pnorm = sp.minkowski_p(metric)
    prep = scope.preprocessing(prov)
    ch = selection.choose(selection.selection_surface(X, y, list(betas), list(fractions), rng=rng,
                                                      max_query_rows=max_query_rows, p=pnorm))
    v = released_path.view(raw, seed, fraction)
    priv = v.split.private
    ps = released_path.paper_a_public_split(v, betas=betas, fractions=fractions, p=pnorm)
    beta_pub, r_pub = ps.candidates[0]
    # counts capped as paper_a.records caps them: every error exact to 2^-60 at the smallest release eps,
    # B <= beta unchanged; every candidate radius in one search (sp.ball_counts_radii)
    cap = sp.recommended_cap(max(int(b) for b in betas),
                             min(float(e) for e in eps_grid) * (1.0 - selection_share) * m.noise_share)
    paper_counts = released_path.Counts(X[priv], metric, cap)
    try:
        sel, why = released_path.paper_a_private_selection(v, betas=betas, fractions=fractions, metric=metric, cap=cap,
                                                           selector=selectors[0]), ""
        honest_counts = sel.private["counts"]
    except ValueError as exc:  # a metric without a packing bound: no Δu, no private selection
        sel, why, honest_counts = None, str(exc), released_path.Counts(v.Xpriv, metric, cap)
    # the private part's size moves under add/remove: published on the paper's row only (module docstring)
    base = {"paper": "A", "k": int(k), "mechanism": mechanism, "n_public": len(v.split.public), "d": v.Xpriv.shape[1]}
    rows = []
    for eps in eps_grid:
        eps = float(eps)
        release = m.claim(eps=eps, beta=ch.beta, k=k)
        paper = _sp_metrics(m, paper_counts, y[priv], ch.beta, ch.r, k, eps)
        rows.append({**base, "n_private": len(priv), "eps": eps, "tuning": "paper", "selection_method": "",
                     "eps_selection": 0.0, "eps_release": eps, "beta": ch.beta, "r": ch.r, **paper,
                     "precision_loss": 0.0,
                     "recall_loss": 0.0, "skipped": "",
                     **_scope_cols(release.scoped((scope.PAPER_A_PUBLIC, "β and fraction grids (config)"),
                                                  (scope.paper_a_beta_r({"beta": ch.beta, "r": ch.r}) + prep).data_dependent))})
        honest = _sp_metrics(m, honest_counts, v.ypriv, beta_pub, r_pub, k, eps)
        rows.append({**base, "eps": eps, "tuning": "public_split", "selection_method": "", "eps_selection": 0.0,
                     "eps_release": eps, "beta": beta_pub, "r": r_pub, **honest,
                     "precision_loss": paper["precision_labels"] - honest["precision_labels"],
                     "recall_loss": paper["recall_labels"] - honest["recall_labels"], "skipped": "",
                     **_scope_cols(released_path.composed_claim(ps, m, eps, selection_share, (scope.PAPER_A_PUBLIC,),
                                                                beta=beta_pub, k=k)[0])})
        rows += _paper_a_selection_rows(m, sel, why, selectors, base, paper, honest_counts, eps, k, selection_share)
    return _with_cheapest(_with_f1(pd.DataFrame(rows)), "f1_loss")


def _paper_a_selection_rows(m, sel, why: str, selectors, base: dict, paper: dict, counts: released_path.Counts,
                            eps: float, k: int, share: float) -> list[dict]:
    """The private_selection rows of paper A at ``eps``, one per selector: (β, r) by the selector at
    ε_sel = share · ε on the private part's utility, SP with the rest; every candidate's SP metrics are computed
    once per release ε and shared by the methods (only the law over them differs)."""
    rows, per_eps = [], {}
    for s in selectors:
        row = {**base, "eps": eps, "tuning": "private_selection", "selection_method": s.name}
        if sel is None:
            rows.append({**row, "skipped": why})
            continue
        path, cands = released_path.with_selector(sel, s), sel.candidates
        total, eps_sel, rel_eps = released_path.composed_claim(
            path, m, eps, share, (scope.PAPER_A_PUBLIC, scope.CANDIDATES_RELATION), beta=max(b for b, _ in cands), k=k)
        if rel_eps not in per_eps:
            per_eps[rel_eps] = [_sp_metrics(m, counts, sel.view.ypriv, b, r, k, rel_eps) for b, r in cands]
        per, p = per_eps[rel_eps], path.law(share * eps)
        expect = {key: _expect(p, np.array([c[key] for c in per], dtype=float)) for key in per[0]}
        rows.append({**row, "eps_selection": eps_sel, "eps_release": rel_eps,
                     "beta": float(p @ np.array([b for b, _ in cands])),
                     "r": float(p @ np.array([r for _, r in cands])),
                     **expect, "precision_loss": paper["precision_labels"] - expect["precision_labels"],
                     "recall_loss": paper["recall_labels"] - expect["recall_labels"], "skipped": "",
                     **_scope_cols(total)})
    return rows


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
                privacy: Mapping, cfg: Mapping, raw_paths: list[str], raw_provenance_paths: list[str],
                progress=lambda it: it) -> pd.DataFrame:
    """The tidy price-of-honest-tuning table of ``paper`` ("A" or "B") over ``datasets`` (rule privacy_price).

    ``privacy`` is config ``privacy`` (eps, public_split {fraction, seed}, selection_share, selection_methods:
    one private_selection row per method); ``cfg`` the
    paper's section (paper A: selection.{betas, fractions, max_query_rows}, k_main, metric; paper B: k, delta,
    tuning.{r_grid, tie_break}; paper A also the master ``seed``). ``data_paths`` / ``provenance_paths``: rule
    prepare's tables (the ``paper`` rows); ``raw_paths`` / ``raw_provenance_paths``: rule prepare_raw's (the
    end-to-end rows, :mod:`privanomaly.price.released_path`). A record is public by its keyed hash
    (:mod:`privanomaly.privacy.membership`, key ``public_split.seed``); paper A's protocol subsample (datasets
    above ``max_query_rows``) is drawn from ``seeding.rng(seed, "paper_a_select", dataset)``, rule
    ``paper_a_select``'s draw, so the ``paper`` row is the (β, r) of Tables 1-3."""
    from privanomaly import seeding

    if paper not in ("A", "B"):
        raise ValueError(f"privacy_price: paper must be 'A' or 'B', got {paper!r}")
    if not (len(datasets) == len(data_paths) == len(provenance_paths) == len(raw_paths) == len(raw_provenance_paths)):
        raise ValueError("privacy_price: one data file, one raw-scale file and their provenance per dataset")
    if paper == "A" and "seed" not in cfg:
        raise ValueError("privacy_price: paper A's settings need the master 'seed' (config 'seed': the selection "
                         "protocol's subsample is rule paper_a_select's; privanomaly.price.plan.paper_settings)")
    _check_rates(privacy, paper)
    if "selection_methods" not in privacy:
        raise ValueError("privacy_price: config privacy.selection_methods is missing (expected a list of "
                         f"{', '.join(selection_methods.METHODS)})")
    selectors = tuple(released_path.selector(n) for n in selection_methods.check_names(privacy["selection_methods"]))
    ps = privacy["public_split"]
    parts = []
    for name, data, prov_path, raw_path, raw_prov in progress(list(zip(datasets, data_paths, provenance_paths,
                                                                       raw_paths, raw_provenance_paths))):
        X, y, _ = _load(data)
        prov = scope.read_provenance(prov_path)
        raw = released_path.read_raw(raw_path, raw_prov)
        common = dict(raw=raw, seed=int(ps["seed"]), fraction=float(ps["fraction"]), eps_grid=list(privacy["eps"]),
                      selection_share=float(privacy["selection_share"]), selectors=selectors)
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


def _load(path: str):
    from privanomaly import experiment

    return experiment.load_dataset(path)


def _check_rates(privacy: Mapping, paper: str) -> None:
    """Every rate a row spends must be one the exact samplers take (>= 2^-MAX_DENOMINATOR_BITS)."""
    share = float(privacy["selection_share"])
    rational = (("selection", share), ("release", 1.0 - share)) if paper == "A" else (("selection", share),)
    for part, eps in ((what, float(e) * f) for e in privacy["eps"] for what, f in rational):  # SP: rational too
        if eps < 2.0**-MAX_DENOMINATOR_BITS:
            raise ValueError(f"privacy.eps × privacy.selection_share: the {part} of a row would spend {eps:.3g}, below "
                             f"2^-{MAX_DENOMINATOR_BITS}, the smallest rate the exact samplers take; raise the smallest "
                             f"privacy.eps ({min(map(float, privacy['eps'])):g}) or move selection_share ({share:g}) "
                             "away from 0 and 1")
