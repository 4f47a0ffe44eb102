"""Paper A's claims A1, A3, A6, A8 and A10 evaluated on a paper-A sweep, where the sweep is the better evidence.

The tables of paper A hold one (β, r) per dataset (the selection protocol's choice); a sweep holds the
whole (β, r) grid, every ε and k, and absent query points. Each function returns a
:class:`privanomaly.experiment.Verdict` (PASS/FAIL) whose test text names the sweep and why it is used:

* A1 (SP's error on anomalies zero for practical purposes): at every (β, r) point of the grid (ε_ref, k_main),
  the selected (β, r) of the tables beside.
* A3 (SP ≈ DP on normal records): checked at every (β, r, ε) point of the grid, not at one (β, r).
* A6 (SP outperforms the Laplace-threshold baselines): on present records SP at k = 1 and the Laplace count
  err identically (their error laws coincide there), so the records alone cannot show it; where they differ
  is the absent query points (x_i = 0, g = 0), whose presence SP protects. The test asks each mechanism about
  the records *and* the sweep's absent points (void spots included) and compares F1 at ε_ref, k_main, at
  every (β, r) point; the records-only F1 is reported beside it.
* A8 (the compiler's exponential gain): the tables' per-record check (present records of the selected
  (β, r)) *and*, from the sweep: on an absent point with an empty ball δ = L − Δ_G = β − k, so the
  compiled error at ε over its ε/2-DP input (the optimal DP mechanism at ε/2, also in the sweep) must be
  exactly e^(−ε(β−k)/4) - checked at every (β, r, k, ε) with ε/2 in the grid: the gain is exponential in δ
  across the grid, not only across the records of one dataset.
* A10 (the optimal DP mechanism outperforms the Laplace baselines): the paper's query is Def. 2.2's, whose
  answer is 1 only for a present record (x_i ≥ 1) with at most β records within r. The baselines threshold the
  ball count alone, so they are judged as A6 is - on the records *and* the absent points, where the missing
  membership test costs them - with the records-only F1 (Table 3 at the selected (β, r), and the grid's) beside.

A claim that fails names its cause (:func:`privanomaly.paper_a.claims.grid_cause`): holding at some grid points
and not at others is the paper's unstated (β, r); holding at none on a dataset is a finding against the paper.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly.paper_a import claims as paper_a_claims
from privanomaly.experiment.inputs import read_table
from privanomaly.experiment.verdict import AGAINST, CHOICE, Verdict
from privanomaly.paper_a.claims import CLAIMS, Claim, _f1, _fmt, grid_cause, point_name

SP, DP, COMPILER = "sp", "optimal_dp", "compiler"
LAPLACE = ("laplace_count", "laplace_noisy_threshold")
LABEL = {SP: "SP", DP: "optimal DP"}
#: the columns of the sweep's tidy table (:mod:`.collect`) these claims read
COLUMNS = ("dataset", "mechanism", "beta", "r_kind", "r_spec", "k", "eps", "error_normal", "error_absent", "error_absent_void",
           "precision_br", "recall_br", "n_anomalies", "n_absent", "n_absent_void", "median_error_anomaly",
           "frac_anomaly_below_1e2")


def read_sweep(path) -> pd.DataFrame:
    """The sweep's tidy table for claims A3, A6, A8: a missing, unreadable or column-less file is an error naming
    it and rule ``sweep_collect`` (never a ``KeyError`` inside a claim)."""
    return read_table(path, COLUMNS, "a paper-A sweep's tidy table (Parquet)", "sweep_collect", reader=pd.read_parquet)


def _why(sweep: str, what: str) -> str:
    return f"From sweep `{sweep}` ({what}; better evidence than the single selected (β, r) of the tables): "


def _wide(t: pd.DataFrame, value: str, key=("dataset", "beta", "r_spec", "k", "eps")) -> pd.DataFrame:
    return t.pivot_table(index=list(key), columns="mechanism", values=value, aggfunc="first")


def sp_equals_dp_on_normal(t: pd.DataFrame, sweep: str, k: int, tol: float) -> Verdict:
    s = t[t["k"] == k]
    w = _wide(s, "error_normal")
    ok, ev, held = None, [], {}
    if {SP, DP} <= set(w.columns) and len(w):
        diff = (w[SP] - w[DP]).abs()
        worst = diff.groupby(level="dataset", sort=False).max()
        n = diff.groupby(level="dataset", sort=False).size()
        held = {d: (int(v), int(n[d])) for d, v in (diff <= tol).groupby(level="dataset", sort=False).sum().items()}
        ev = [f"{d}: max |SP−DP| {_fmt(v)} over {int(n[d])} (β, r, ε) points" for d, v in worst.items()]
        ok = bool((diff <= tol).all())
    return Verdict.check("A3", "SP and DP perform about equally on normal records",
                         _why(sweep, "every (β, r, ε) of the grid") + f"|mean SP − mean DP error| over normal records ≤ {tol} "
                         f"at every point (k={k}), every dataset", "; ".join(ev), ok,
                         *grid_cause(held, f"SP and DP err within {tol} of each other on normal records")[::-1])


def _f1_with_absent(row: pd.Series) -> float:
    """F1 against g over the records and the absent points (g = 0 there), from a sweep row's expectations."""
    tp = row["recall_br"] * row["n_anomalies"]
    flagged_records = tp / row["precision_br"] if row["precision_br"] > 0 else 0.0
    flagged = flagged_records + row["error_absent"] * row["n_absent"]
    precision = tp / flagged if flagged > 0 else 0.0
    return _f1(precision, row["recall_br"])


def _point(rows: pd.DataFrame) -> str:
    """The name of the grid point of ``rows`` (rows of one (β, r))."""
    first = rows.iloc[0]
    return point_name(first["beta"], first["r_spec"], str(first.get("r_kind", "")))


def _at(t: pd.DataFrame, eps: float, k: int) -> pd.DataFrame:
    return t[np.isclose(t["eps"], eps) & (t["k"] == k)]


def _break_even(own: pd.Series, base: pd.Series) -> float:
    """The number of absent points from which ``own``'s F1 (records + absent points, :func:`_f1_with_absent`)
    exceeds ``base``'s, their mean errors there as measured; inf if no number does. With TP = recall · #anomalies,
    F the records flagged and e the mean error on absent points, F1 = 2 TP / (F + e N + #anomalies), so
    F1_own > F1_base ⟺ N (TP_own e_base − TP_base e_own) > TP_base (F_own + A) − TP_own (F_base + A)."""
    def parts(row):
        tp = row["recall_br"] * row["n_anomalies"]
        return tp, (tp / row["precision_br"] if row["precision_br"] > 0 else 0.0), row["error_absent"]

    (t_o, f_o, e_o), (t_b, f_b, e_b) = parts(own), parts(base)
    a = own["n_anomalies"]
    coeff, rhs = t_o * e_b - t_b * e_o, t_b * (f_o + a) - t_o * (f_b + a)
    return float(max(rhs, 0.0) / coeff) if coeff > 0 else (0.0 if rhs < 0 else float("inf"))


def _compare_point(by: pd.DataFrame, mech: str, beats) -> list[tuple[float, str, bool, float, float]]:
    """At one grid point (rows by mechanism): per Laplace baseline (F1 difference with absent points, baseline,
    holds, records-only difference, break-even number of absent points)."""
    f_own, f_rec = _f1_with_absent(by.loc[mech]), _f1(by.loc[mech, "precision_br"], by.loc[mech, "recall_br"])
    out = []
    for m in (m for m in LAPLACE if m in by.index):
        f_m = _f1_with_absent(by.loc[m])
        out.append((f_own - f_m, m, bool(beats(f_own, f_m)),
                    f_rec - _f1(by.loc[m, "precision_br"], by.loc[m, "recall_br"]), _break_even(by.loc[mech], by.loc[m])))
    return out


def _against_laplace(t: pd.DataFrame, mech: str, eps: float, k: int, beats) -> tuple[list[str], list[bool], dict, list]:
    """Per dataset: ``mech``'s F1 against each Laplace baseline's on the records *and* the absent points, at every
    (β, r) point at ``eps``, ``k`` (``beats(f_mech, f_laplace)`` must hold), as evidence with the worst point named,
    the records-only difference beside and each mechanism's mean error on the absent points. Also per dataset
    (points where it holds, points), and the failures: (dataset, point, baseline, break-even, absent points)."""
    s = _at(t, eps, k)
    s = s[s["n_absent"] > 0]
    ev, ok, held, fails = [], [], {}, []
    for d, sub in s.groupby("dataset", sort=False):
        res = []
        for _, pt in sub.groupby(["beta", "r_spec"], sort=True):
            by = pt.set_index("mechanism")
            if mech in by.index:
                res += [(*r, _point(pt), int(by.loc[mech, "n_absent"])) for r in _compare_point(by, mech, beats)]
        if not res:
            continue
        ok += [r[2] for r in res]
        held[d] = (sum(r[2] for r in res), len(res))
        fails += [(d, r[5], r[1], r[4], r[6]) for r in res if not r[2]]
        worst = min(res)
        ab = sub.groupby("mechanism", sort=False)["error_absent"].mean()
        ev.append(f"{d}: holds at {held[d][0]} of {len(res)} (β, r, baseline) points; smallest F1({LABEL[mech]}) − "
                  f"F1(Laplace) with absent points {_fmt(worst[0])} at {worst[5]} vs {worst[1]}; records only "
                  f"{_fmt(min(r[3] for r in res))} … {_fmt(max(r[3] for r in res))}; mean error on absent points "
                  f"{LABEL[mech]} {_fmt(ab.get(mech))} vs " + ", ".join(f"{m} {_fmt(ab[m])}" for m in LAPLACE if m in ab.index))
    return ev, ok, held, fails


def _zero_on_grid(sub: pd.DataFrame, tol: float, share: float) -> tuple[int, int, str]:
    """Claim A1 at every (β, r) point of one dataset's SP rows: (points where it holds, points, the worst point)."""
    holds = (sub["median_error_anomaly"] <= tol) & (sub["frac_anomaly_below_1e2"] >= share)
    w = sub.sort_values(["frac_anomaly_below_1e2", "median_error_anomaly"], ascending=[True, False]).iloc[0]
    return int(holds.sum()), len(sub), (f"worst {point_name(w['beta'], w['r_spec'], str(w.get('r_kind', '')))}: median "
                                        f"{_fmt(w['median_error_anomaly'])}, {_fmt(100 * w['frac_anomaly_below_1e2'])}% "
                                        "below 0.01")


def sp_anomaly_near_zero(t: pd.DataFrame, sweep: str, eps: float, k: int, tol: float, share: float,
                         summaries: pd.DataFrame) -> Verdict:
    """Claim A1 ("zero for all practical purposes", :func:`privanomaly.paper_a.claims.sp_anomaly_near_zero`) at every
    (β, r) point of the grid (ε, k as the tables), as A3 and A6 are, and at the selected (β, r) of the tables
    (``summaries``) beside: it holds where it holds at every one of these points."""
    s = _at(t, eps, k)
    s = s[(s["mechanism"] == SP) & (s["n_anomalies"] > 0)]
    held, ev = {}, []
    for d, sub in s.groupby("dataset", sort=False):
        h, n, worst = _zero_on_grid(sub, tol, share)
        held[d] = (h, n)
        ev.append(f"{d}: holds at {h} of {n} (β, r) points; {worst}")
    sel = paper_a_claims.sp_anomaly_near_zero(summaries, eps, k, tol, share)
    for d, sub in summaries.groupby("dataset", sort=False):  # the selected (β, r): one more point per dataset
        one = paper_a_claims.sp_anomaly_near_zero(sub, eps, k, tol, share).passed
        if one is not None:
            h, n = held.get(d, (0, 0))
            held[d] = (h + int(one), n + 1)
    ok = [h == n for h, n in held.values()]
    cause, why = grid_cause(held, f"the SP error on anomalies is zero (median ≤ {tol}, ≥ {100 * share:g}% below 0.01)")
    return Verdict.check("A1", sel.claim, _why(sweep, "every (β, r) of the grid") + sel.expected + " at every (β, r) "
                         "point of the grid and at the selected (β, r) of the tables",
                         "; ".join(ev) + f"; at the selected (β, r): {sel.evidence}", None if not ok else all(ok),
                         why, cause)


def sp_beats_laplace(t: pd.DataFrame, sweep: str, eps: float, k: int, margin: float) -> Verdict:
    ev, ok, held, _ = _against_laplace(t, SP, eps, k, lambda own, f: own >= f + margin)
    return Verdict.check("A6", "SP largely outperforms the Laplace-threshold baselines in precision/recall (Table 3)",
                         _why(sweep, "records and absent query points, every (β, r) of the grid")
                         + f"F1 against the (β,r)-anomalies of the answers on the records and the sweep's absent points "
                         f"(g = 0) ≥ each Laplace baseline's F1 + {margin} at every (β, r) point (ε={eps:g}, k={k}), every "
                         "dataset. On present records SP at k = 1 and the Laplace count coincide (records-only difference "
                         "shown)", "; ".join(ev), None if not ok else bool(all(ok)),
                         *grid_cause(held, f"SP's F1 beats each Laplace baseline's by {margin}")[::-1])


#: what each Laplace baseline answers, and what leaving out Def. 2.2's membership condition costs it (claim A10)
BASELINE_QUERIES = ("the Laplace count answers B + Z ≤ β and the noisy threshold B + Z1 ≤ β + Z2 (Sec. 5): neither "
                    "asks x_i ≥ 1, the membership condition of the anomaly identification query (Def. 2.2), so on an "
                    "absent point they answer 1 with probability P(B + Z ≤ β) where the truth is 0; the optimal DP "
                    "mechanism answers Def. 2.2's query (Δ_G sees membership) and errs there with at most 1/(1+e^ε)")


def dp_beats_laplace(t: pd.DataFrame, sweep: str, eps: float, k: int, tables: Verdict) -> Verdict:
    """Claim A10 on the query the paper asks: the optimal DP mechanism's F1 above each Laplace baseline's over the
    records and the sweep's absent points at every (β, r) point (as A6), with the records-only numbers of the
    tables (``tables``: Table 3 at the selected (β, r)) and of the sweep beside."""
    ev, ok, held, fails = _against_laplace(t, DP, eps, k, lambda own, f: own > f)
    return Verdict.check("A10", "The optimal DP mechanism outperforms the Laplace-threshold baselines (Table 3)",
                         _why(sweep, "records and absent query points, every (β, r) of the grid")
                         + f"F1 of optimal DP against the (β,r)-anomalies of the answers on the records and the sweep's "
                         f"absent points (g = 0) > each Laplace baseline's F1 at every (β, r) point (ε={eps:g}, k={k}), "
                         f"every dataset. Which query each answers: {BASELINE_QUERIES}. Records only, at the selected "
                         f"(β, r) (Table 3): {tables.expected}",
                         "; ".join(ev) + f"; records only at the selected (β, r): {tables.evidence} ({tables.verdict} "
                         "there)", None if not ok else bool(all(ok)),
                         *_absent_cause(fails, held)[::-1])


def _absent_cause(fails: list, held: dict) -> tuple[str, str]:
    """Claim A10's cause where it fails: when more absent points would turn every failing point (the optimal DP
    mechanism errs less there than the baseline), how many the query asks is the evaluation's choice - the number
    from which each would turn is given; otherwise :func:`privanomaly.paper_a.claims.grid_cause`."""
    if fails and all(np.isfinite(f[3]) for f in fails):
        at = "; ".join(f"on {d} at {pt} vs {m} from {int(np.floor(n)) + 1} absent points on (the sweep asks {n_ab})"
                       for d, pt, m, n, n_ab in fails)
        return CHOICE, ("optimal DP loses only where the sweep asks too few absent points for the baselines' missing "
                        f"membership test to outweigh DP's noise on the records: {at} (sweeps.<name>.n_absent)")
    return grid_cause(held, "the optimal DP mechanism's F1 beats each Laplace baseline's")


def compiler_exponential_gain(t: pd.DataFrame, sweep: str, rtol: float = 1e-9) -> Verdict:
    ev, ok = [], []
    for d, sub in t[t["n_absent_void"] > 0].groupby("dataset", sort=False):
        w = _wide(sub, "error_absent_void")
        if not {COMPILER, DP} <= set(w.columns):
            continue
        checked, deltas = 0, set()
        for (ds, beta, r_spec, k, eps), row in w.iterrows():
            half = w.index[(w.index.get_level_values("beta") == beta) & (w.index.get_level_values("r_spec") == r_spec)
                           & (w.index.get_level_values("k") == k)
                           & np.isclose(w.index.get_level_values("eps"), eps / 2)]
            if not len(half):
                continue
            delta = max(0, int(beta) - int(k))
            ratio = row[COMPILER] / w.loc[half[0], DP]
            ok.append(bool(np.isclose(ratio, np.exp(-eps * delta / 4), rtol=rtol, atol=0)))
            checked += 1
            deltas.add(delta)
        if checked:
            big = max(deltas)
            ev.append(f"{d}: compiled/input = e^(−εδ/4) on void points at {checked} (β, r, k, ε) points, "
                      f"δ = β − k ∈ {{{', '.join(map(str, sorted(deltas)))}}} (largest gain e^(ε·{big}/4))")
    return Verdict.check("A8", "The compiler gives an exponential gain on non-sensitive records (Construction 2)",
                         _why(sweep, "absent points with an empty ball, every (β, k, ε) with ε/2 in the grid")
                         + "compiled error at ε = input error (optimal DP at ε/2) · e^(−ε(β−k)/4) exactly, every point, every "
                         "dataset", "; ".join(ev), None if not ok else bool(all(ok)),
                         f"the compiled error departs from e^(−ε(β−k)/4) × its input at {len(ok) - sum(ok)} of {len(ok)} "
                         "void points", AGAINST)


def _both(tables: Verdict, swept: Verdict) -> Verdict:
    """The tables' check and the sweep's check of one claim: PASS only if both pass (N/A parts ignored)."""
    parts = [r.passed for r in (tables, swept) if r.passed is not None]
    failed = [r for r in (tables, swept) if r.passed is False]
    return Verdict.check(swept.id, swept.claim, f"(1) per record on the tables: {tables.expected}; (2) {swept.expected}",
                         f"(1) {tables.evidence}; (2) {swept.evidence or 'no row of the sweep for these datasets'}",
                         None if not parts else all(parts), "; ".join(r.reason for r in failed),
                         failed[0].cause if failed else "")


def registry_with_sweep(sweep: str, base: list[Claim] | None = None) -> list[Claim]:
    """The claim registry with A1, A3, A6, A8 and A10 read from table ``"sweep"`` (the tidy table of ``sweep``); A1
    and A10 show the tables' check at the selected (β, r) beside (A1 counts it as one more point)."""
    from_sweep = {
        "A1": lambda t, c: sp_anomaly_near_zero(t["sweep"], sweep, float(c["eps_ref"]), int(c["k_main"]),
                                                c["claims"]["sp_zero_tol"], float(c["claims"]["sp_zero_share"]),
                                                t["summaries"]),
        "A3": lambda t, c: sp_equals_dp_on_normal(t["sweep"], sweep, int(c["k_main"]), c["claims"]["normal_tol"]),
        "A6": lambda t, c: sp_beats_laplace(t["sweep"], sweep, float(c["eps_ref"]), int(c["k_main"]),
                                            c["claims"]["laplace_margin"]),
        "A8": lambda t, c: _both(paper_a_claims.compiler_exponential_gain(t["comp"]),
                                 compiler_exponential_gain(t["sweep"], sweep)),
        "A10": lambda t, c: dp_beats_laplace(t["sweep"], sweep, float(c["eps_ref"]), int(c["k_main"]),
                                             paper_a_claims.dp_beats_laplace(t["detection"])),
    }
    table = {"A1": "summaries"}  # A1 also reads the tables' selected (β, r): a dataset the sweep lacks is not left out
    return [Claim(cl.claim_id, table.get(cl.claim_id, "sweep"), from_sweep[cl.claim_id]) if cl.claim_id in from_sweep else cl
            for cl in (CLAIMS if base is None else base)]
