"""Paper A's claims A3, A6 and A8 evaluated on a paper-A sweep, where the sweep is the better evidence.

The tables of paper A hold one (β, r) per dataset (the selection protocol's choice); a sweep holds the
whole (β, r) grid, every ε and k, and absent query points. Each function returns a
:class:`privanomaly.experiment.Verdict` (PASS/FAIL) whose test text names the sweep and why it is used:

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
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly.paper_a import claims as paper_a_claims
from privanomaly.experiment.inputs import read_table
from privanomaly.experiment.verdict import Verdict
from privanomaly.paper_a.claims import CLAIMS, Claim, _f1, _fmt

SP, DP, COMPILER = "sp", "optimal_dp", "compiler"
LAPLACE = ("laplace_count", "laplace_noisy_threshold")
#: the columns of the sweep's tidy table (:mod:`.collect`) these claims read
COLUMNS = ("dataset", "mechanism", "beta", "r_spec", "k", "eps", "error_normal", "error_absent", "error_absent_void",
           "precision_br", "recall_br", "n_anomalies", "n_absent", "n_absent_void")


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
    ok, ev = None, []
    if {SP, DP} <= set(w.columns) and len(w):
        diff = (w[SP] - w[DP]).abs()
        worst = diff.groupby(level="dataset", sort=False).max()
        n = diff.groupby(level="dataset", sort=False).size()
        ev = [f"{d}: max |SP−DP| {_fmt(v)} over {int(n[d])} (β, r, ε) points" for d, v in worst.items()]
        ok = bool((diff <= tol).all())
    return Verdict.check("A3", "SP and DP perform about equally on normal records",
                         _why(sweep, "every (β, r, ε) of the grid") + f"|mean SP − mean DP error| over normal records ≤ {tol} "
                         f"at every point (k={k}), every dataset", "; ".join(ev), ok)


def _f1_with_absent(row: pd.Series) -> float:
    """F1 against g over the records and the absent points (g = 0 there), from a sweep row's expectations."""
    tp = row["recall_br"] * row["n_anomalies"]
    flagged_records = tp / row["precision_br"] if row["precision_br"] > 0 else 0.0
    flagged = flagged_records + row["error_absent"] * row["n_absent"]
    precision = tp / flagged if flagged > 0 else 0.0
    return _f1(precision, row["recall_br"])


def sp_beats_laplace(t: pd.DataFrame, sweep: str, eps: float, k: int, margin: float) -> Verdict:
    s = t[np.isclose(t["eps"], eps) & (t["k"] == k) & (t["n_absent"] > 0)]
    ev, ok = [], []
    for d, sub in s.groupby("dataset", sort=False):
        lines, worst, worst_rec = [], np.inf, []
        for _, pt in sub.groupby(["beta", "r_spec"], sort=True):
            by = pt.set_index("mechanism")
            if SP not in by.index or not any(m in by.index for m in LAPLACE):
                continue
            f_sp = _f1_with_absent(by.loc[SP])
            for m in (m for m in LAPLACE if m in by.index):
                f_m = _f1_with_absent(by.loc[m])
                worst = min(worst, f_sp - f_m)
                ok.append(f_sp >= f_m + margin)
                worst_rec.append(_f1(by.loc[SP, "precision_br"], by.loc[SP, "recall_br"])
                                 - _f1(by.loc[m, "precision_br"], by.loc[m, "recall_br"]))
            lines.append(pt)
        if lines:
            first = sub.set_index("mechanism")
            ev.append(f"{d}: smallest F1(SP) − F1(Laplace) with absent points {_fmt(worst)} over {len(lines)} (β, r) "
                      f"points; records only {_fmt(min(worst_rec))} … {_fmt(max(worst_rec))}; mean error on absent "
                      f"points SP {_fmt(first.loc[SP, 'error_absent'].mean())} vs "
                      + ", ".join(f"{m} {_fmt(first.loc[m, 'error_absent'].mean())}" for m in LAPLACE if m in first.index))
    return Verdict.check("A6", "SP largely outperforms the Laplace-threshold baselines in precision/recall (Table 3)",
                         _why(sweep, "records and absent query points, every (β, r) of the grid")
                         + f"F1 against the (β,r)-anomalies of the answers on the records and the sweep's absent points "
                         f"(g = 0) ≥ each Laplace baseline's F1 + {margin} at every (β, r) point (ε={eps:g}, k={k}), every "
                         "dataset. On present records SP at k = 1 and the Laplace count coincide (records-only difference "
                         "shown)", "; ".join(ev), None if not ok else bool(all(ok)))


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
                         "dataset", "; ".join(ev), None if not ok else bool(all(ok)))


def _both(tables: Verdict, swept: Verdict) -> Verdict:
    """The tables' check and the sweep's check of one claim: PASS only if both pass (N/A parts ignored)."""
    parts = [r.passed for r in (tables, swept) if r.passed is not None]
    return Verdict.check(swept.id, swept.claim, f"(1) per record on the tables: {tables.expected}; (2) {swept.expected}",
                         f"(1) {tables.evidence}; (2) {swept.evidence or 'no row of the sweep for these datasets'}",
                         None if not parts else all(parts))


def registry_with_sweep(sweep: str, base: list[Claim] | None = None) -> list[Claim]:
    """The claim registry with A3, A6 and A8 read from table ``"sweep"`` (the tidy table of ``sweep``)."""
    from_sweep = {
        "A3": lambda t, c: sp_equals_dp_on_normal(t["sweep"], sweep, int(c["k_main"]), c["claims"]["normal_tol"]),
        "A6": lambda t, c: sp_beats_laplace(t["sweep"], sweep, float(c["eps_ref"]), int(c["k_main"]),
                                            c["claims"]["laplace_margin"]),
        "A8": lambda t, c: _both(paper_a_claims.compiler_exponential_gain(t["comp"]),
                                 compiler_exponential_gain(t["sweep"], sweep)),
    }
    return [Claim(cl.claim_id, "sweep", from_sweep[cl.claim_id]) if cl.claim_id in from_sweep else cl
            for cl in (CLAIMS if base is None else base)]
