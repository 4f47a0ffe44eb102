"""Evaluate paper A's qualitative claims (NOTES.md, Part 4A) on the measured tables: PASS/FAIL each.

Every claim is a pure function of tidy tables plus thresholds from config (``paper_a.claims``), so the
claims file is generated from this run's numbers and never written by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass
class Result:
    claim_id: str
    claim: str
    test: str
    evidence: str
    passed: bool | None  # None = not evaluable (no data)

    @property
    def status(self) -> str:
        return "N/A" if self.passed is None else ("PASS" if self.passed else "FAIL")


def _fmt(v: float) -> str:
    return "—" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.3g}"


def _sel(summaries: pd.DataFrame, eps: float, k: int | None, mech: str, group: str) -> pd.DataFrame:
    m = np.isclose(summaries["eps"], eps) & (summaries["mechanism"] == mech) & (summaries["group"] == group)
    if k is not None:
        m &= summaries["k"] == k
    return summaries[m]


def sp_anomaly_near_zero(summaries: pd.DataFrame, eps: float, k: int, tol: float) -> Result:
    s = _sel(summaries, eps, k, "SP", "anomaly")
    ev = [f"{r.dataset}: median {_fmt(r.median_error)}, mean {_fmt(r.mean_error)}, "
          f"{_fmt(100 * r.frac_below_1e2)}% below 0.01" for r in s.itertuples()]
    ok = None if s.empty else bool((s["median_error"] <= tol).all())
    return Result("A1", "SP error on anomalies is zero for practical purposes",
                  f"median exact SP error over (β,r)-anomalies ≤ {tol} at ε={eps}, k={k}, every dataset", "; ".join(ev), ok)


def dp_anomaly_at_tradeoff(summaries: pd.DataFrame, eps_grid: list[float], ratio: float, eps_ref: float) -> Result:
    ev, ok = [], []
    for eps in eps_grid:
        s = _sel(summaries, eps, None, "DP", "anomaly").drop_duplicates("dataset")
        bound = 1 / (1 + np.exp(eps))
        ok.append(bool((s["mean_error"] >= ratio * bound).all()) if len(s) else None)
        if np.isclose(eps, eps_ref) or np.isclose(eps, min(eps_grid)):
            ev.append(f"ε={eps:g} (bound 1/(1+e^ε)={bound:.3g}): " + ", ".join(
                f"{r.dataset} {_fmt(r.mean_error)}" for r in s.itertuples()))
    oks = [o for o in ok if o is not None]
    return Result("A2", "DP error on anomalies stays near the coin flip (1/2 as ε→0)",
                  f"mean exact DP error over anomalies ≥ {ratio}·1/(1+e^ε) at every ε of the grid, every dataset",
                  "; ".join(ev), None if not oks else all(oks))


def sp_equals_dp_on_normal(summaries: pd.DataFrame, k: int, tol: float) -> Result:
    sp_ = summaries[(summaries["mechanism"] == "SP") & (summaries["group"] == "normal") & (summaries["k"] == k)]
    dp_ = summaries[(summaries["mechanism"] == "DP") & (summaries["group"] == "normal") & (summaries["k"] == k)]
    j = sp_.merge(dp_, on=["dataset", "eps", "k", "group"], suffixes=("_sp", "_dp"))
    j["diff"] = (j["mean_error_sp"] - j["mean_error_dp"]).abs()
    worst = j.groupby("dataset", sort=False)["diff"].max()
    ev = [f"{d}: max |SP−DP| {_fmt(v)}" for d, v in worst.items()]
    return Result("A3", "SP and DP perform about equally on normal records",
                  f"|mean SP − mean DP error| over normal records ≤ {tol} at every ε (k={k})", "; ".join(ev),
                  None if j.empty else bool((j["diff"] <= tol).all()))


def sp_error_falls_with_size(growth: pd.DataFrame) -> Result:
    ev, ok = [], []
    for d, sub in growth.groupby("dataset", sort=False):
        sub = sub.sort_values("n_records")
        first, last = sub.iloc[0], sub.iloc[-1]
        ev.append(f"{d}: n={int(first.n_records)} → {_fmt(first.mean_error_sp)}, n={int(last.n_records)} → "
                  f"{_fmt(last.mean_error_sp)}")
        ok.append(bool(last.mean_error_sp < first.mean_error_sp))
    return Result("A4", "SP error on anomalies falls as the data grow",
                  "mean exact SP error over anomalies at the largest subsample < at the smallest (nested subsamples, "
                  "same β and flagged fraction)", "; ".join(ev), None if not ok else all(ok))


def larger_k_protects_more(sens: pd.DataFrame) -> Result:
    ev, ok = [], []
    for d, sub in sens.groupby("dataset", sort=False):
        sub = sub.sort_values("k")
        f = sub["frac_sensitive"].to_numpy()
        ev.append(f"{d}: " + ", ".join(f"k={int(k)} {100 * v:.1f}%" for k, v in zip(sub["k"], f)))
        ok.append(bool(np.all(np.diff(f) >= 0) and f[-1] > f[0]))
    return Result("A5", "Larger k protects more records (Fig 3)",
                  "fraction of k-sensitive records non-decreasing in k and larger at the largest k than the smallest",
                  "; ".join(ev), None if not ok else all(ok))


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def sp_beats_laplace(detection: pd.DataFrame, margin: float, truth: str = "br") -> Result:
    """SP's F1 (against ``truth``: "br" = the (β,r)-anomalies the AIQ asks about, or "labels") must exceed
    each Laplace baseline's by ``margin``."""
    ev, ok = [], []
    pcol, rcol = f"precision_{truth}", f"recall_{truth}"
    for d, sub in detection.groupby("dataset", sort=False):
        spr = sub[sub["method"] == "SP"]
        lap = sub[sub["method"].str.startswith("Laplace")]
        if spr.empty or lap.empty:
            continue
        f_sp = _f1(float(spr[pcol].iloc[0]), float(spr[rcol].iloc[0]))
        f_lap = [_f1(a, b) for a, b in zip(lap[pcol], lap[rcol])]
        ok.append(all(f_sp >= f + margin for f in f_lap))
        ev.append(f"{d}: SP F1 {_fmt(f_sp)} vs " + ", ".join(f"{m} {_fmt(f)}" for m, f in zip(lap["method"], f_lap)))
    what = "the (β,r)-anomalies" if truth == "br" else "the labels"
    return Result("A6", "SP largely outperforms the Laplace-threshold baselines in precision/recall (Table 3)",
                  f"F1 of SP against {what} ≥ each Laplace baseline's F1 + {margin}, every dataset", "; ".join(ev),
                  None if not ok else all(ok))


def sp_beats_dp_on_anomalies(summaries: pd.DataFrame, eps: float, k: int, ratio: float) -> Result:
    s = _sel(summaries, eps, k, "SP", "anomaly").merge(
        _sel(summaries, eps, k, "DP", "anomaly"), on=["dataset", "eps", "k", "group"], suffixes=("_sp", "_dp"))
    ev = [f"{r.dataset}: SP {_fmt(r.mean_error_sp)} vs DP {_fmt(r.mean_error_dp)}" for r in s.itertuples()]
    return Result("A7", "For a randomly picked anomaly SP significantly outperforms DP (Table 2)",
                  f"mean exact SP error ≤ {ratio} × mean DP error over anomalies at ε={eps}, k={k}, every dataset",
                  "; ".join(ev), None if s.empty else bool((s["mean_error_sp"] <= ratio * s["mean_error_dp"]).all()))


def compiler_exponential_gain(comp: pd.DataFrame, atol: float = 1e-9) -> Result:
    eps = float(comp["eps"].iloc[0])
    d = comp["delta"].to_numpy()
    ratio = comp["compiled_error"].to_numpy() / comp["input_error"].to_numpy()
    pos = d > 0
    slope_ok = bool(np.allclose(np.log(ratio[pos]), -eps * d[pos] / 4, atol=atol)) if pos.any() else False
    eq_ok = bool(np.allclose(ratio[~pos], 1.0, atol=atol))
    gain = float(1 / ratio.min())
    ev = (f"ε={eps:g}: {int(pos.sum())} of {len(d)} records non-sensitive with δ>0; compiled/input = e^(−εδ/4) "
          f"{'holds' if slope_ok else 'fails'} (tol {atol}); sensitive records unchanged: {eq_ok}; "
          f"largest gain factor {gain:.3g} at δ={int(d.max())}")
    return Result("A8", "The compiler gives an exponential gain on non-sensitive records (Construction 2)",
                  "compiled error = input·e^(−εδ/4) with δ>0 on some records, and = input where δ=0", ev,
                  bool(slope_ok and eq_ok and pos.any()))


def sampling_agrees(trials: pd.DataFrame, min_coverage: float) -> Result:
    inside = (trials["exact_error"] >= trials["ci_low"]) & (trials["exact_error"] <= trials["ci_high"])
    cov = float(inside.mean()) if len(trials) else np.nan
    return Result("A9", "Sampled trials agree with the exact closed-form errors",
                  f"exact error inside the 95% Wilson CI of the sampled error in ≥ {min_coverage:.0%} of "
                  "(dataset, ε, k, mechanism) cells", f"{int(inside.sum())}/{len(trials)} cells ({_fmt(100 * cov)}%)",
                  None if not len(trials) else bool(cov >= min_coverage))


def evaluate(summaries, growth, sens, detection, comp, trials, cfg: dict) -> list[Result]:
    """All claims; ``cfg`` = config ``paper_a`` section (uses eps, k_main, eps_grid and claims thresholds)."""
    c = cfg["claims"]
    eps, k = float(cfg["eps_ref"]), int(cfg["k_main"])
    return [
        sp_anomaly_near_zero(summaries, eps, k, c["sp_zero_tol"]),
        dp_anomaly_at_tradeoff(summaries, cfg["eps_grid"], c["dp_floor_ratio"], eps),
        sp_equals_dp_on_normal(summaries, k, c["normal_tol"]),
        sp_error_falls_with_size(growth),
        larger_k_protects_more(sens),
        sp_beats_laplace(detection, c["laplace_margin"]),
        sp_beats_dp_on_anomalies(summaries, eps, k, c["sp_vs_dp_ratio"]),
        compiler_exponential_gain(comp),
        sampling_agrees(trials, c["ci_min_coverage"]),
    ]


def to_frame(results: list[Result]) -> pd.DataFrame:
    return pd.DataFrame([dict(claim_id=r.claim_id, claim=r.claim, test=r.test, evidence=r.evidence, status=r.status)
                         for r in results])


def to_markdown(results: list[Result], header: str) -> str:
    lines = [header, ""]
    n_pass = sum(r.passed is True for r in results)
    lines.append(f"**{n_pass} of {len(results)} claims PASS** in this run.\n")
    for r in results:
        lines += [f"## {r.claim_id} — {r.claim}: **{r.status}**", "", f"- Test: {r.test}", f"- Measured: {r.evidence}", ""]
    return "\n".join(lines)
