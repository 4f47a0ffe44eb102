"""An independent checker of the privacy scope of a run's tables (not the code that writes them).

For every released table that carries ``proven_end_to_end`` it derives, from the run's configuration, each
dataset's provenance and what the rule that writes the table does, which inputs of each row were read off
the released records, and reports:

* an **over-claim**: a row saying ``proven_end_to_end = True`` while something is data-dependent - a (β, r)
  tuned by F1 on the labels (paper A's tables), an r tuned by eq. (53) or printed by paper B (tuned there on
  the same data), a sweep's ``fraction`` / ``quantile`` r (read off the data's k-NN distances), z-scores, PCA
  or median imputation fitted on the data (the price tables' honest rows fit them on the raw public part), a
  label-stratified subsample (n_normal / n_anomaly drawn from all records);
* an **unstated choice**: a data-dependent input the row's ``data_dependent`` text does not name;
* an **under-claim**: a row with nothing data-dependent whose mechanism's claim is proven, saying False;
* in the price tables: the public part's size (and no private part's size where the relation is add/remove),
  and every composed (ε, δ) recomputed by basic composition
  here (Dwork & Roth Thm 3.16) from the rational rates the mechanisms spend.

The mechanisms' own claims come from the registry (``privanomaly.mechanisms``: what each mechanism says it
spends); nothing of ``privanomaly.privacy.scope`` is used.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import yaml

from privanomaly import mechanisms
from privanomaly.sp.dlap import rational_rate

PUBLIC_SPLIT = "public split"
# paper A's mechanisms: (share of ε their noise spends, relation) - Constructions 1-2 and the Laplace count at
# the rational rate of ε, the noisy threshold at that of ε/2 (paper A Sec. 4-5)
PAPER_A_SPEND = {"sp": (1.0, "sensitive_k"), "optimal_dp": (1.0, "add_remove"), "compiler": (1.0, "sensitive_k"),
                 "laplace_count": (1.0, "add_remove"), "laplace_noisy_threshold": (0.5, "add_remove")}
# paper A's tables of mechanism results at the chosen (β, r) (claims.csv is the claims page, not a release)
PAPER_A_TABLES = ("table1.csv", "table2.csv", "table3.csv", "parameters.csv", "growth.csv")
TUNED_WORDS = ("tuned", "F1", "read off", "quantile", "printed")
PREP_WORDS = {"standardize": "standardisation", "pca": "PCA", "impute": "imputation", "subsample": "subsample"}


def merged_config(root: Path, *overlays: Path) -> dict:
    """config.yaml with each overlay merged key by key (mappings merged, everything else replaced)."""

    def merge(a, b):
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            out = dict(a)
            for k, v in b.items():
                out[k] = merge(a.get(k), v) if k in a else v
            return out
        return b

    cfg = yaml.safe_load((root / "config.yaml").read_text())
    for o in overlays:
        cfg = merge(cfg, yaml.safe_load(Path(o).read_text()) or {})
    return cfg


def fitted_steps(prov: Mapping) -> list[str]:
    """The preprocessing steps whose statistics come from the records (as ``prepare`` records them)."""
    out = []
    for s in prov.get("steps", []):
        if s.get("step") == "standardize":
            out.append("standardize")
        elif s.get("step") == "pca":
            out.append("pca")
        elif s.get("step") == "missing" and s.get("mode") == "impute_median" and s.get("cells_imputed"):
            out.append("impute")
        elif s.get("step") == "subsample":
            out.append("subsample")  # label-stratified: which record is kept depends on the others' labels
    return out


def _kind(rel: str) -> str | None:
    """Which rule's table ``rel`` is (relative to the results directory)."""
    name = rel.rsplit("/", 1)[-1]
    if rel.startswith("sweeps/") and name == "sweep.csv":
        return "sweep"
    if rel in ("privacy/price_A.csv", "privacy/price_B.csv"):
        return "price"
    if rel.startswith("paper_a/tables/"):
        return "paper_a" if name in PAPER_A_TABLES else None
    if not rel.startswith("paper_b/") or not name.startswith(("scenario1_", "scenario2_pr_")):
        return None  # per-subspace counts, Tables 1-2, timing: exact, no private release
    return "paper_b_printed_r" if rel.startswith("paper_b/paper_r") else "paper_b_tuned_r"


def mechanism_proven(kind: str, rel: str, row: Mapping) -> bool | None:
    """The row's own mechanism claim, from the registry (None: the row releases nothing private)."""
    if kind == "paper_a":
        if rel.endswith(("table1.csv", "parameters.csv")):
            return None  # exact counts / the parameter choice itself: no private release
        if rel.endswith("table3.csv") and not bool(row.get("private")):
            return None
        return True  # Constructions 1-2 / Laplace: pure ε, every premise holds for ε > 0
    if kind == "price":
        return None  # recomputed by check_price
    if kind == "sweep" and row.get("part") == "mechanism":  # a paper-B sweep's named count mechanism
        if str(row.get("skipped", "") or "") not in ("", "nan"):
            return False
        return mechanisms.get(row["mechanism"]).claim(eps=float(row["eps"]), delta=float(row["delta"])).proven
    if kind == "sweep" and "mechanism" in row and isinstance(row["mechanism"], str):
        return mechanisms.get(row["mechanism"]).claim(eps=float(row["eps"]), beta=int(row["beta"]),
                                                      k=int(row["k"])).proven
    if str(row.get("skipped", "") or "") not in ("", "nan"):
        return False
    if row.get("part") == "top_h" or "h" in row and "sigma_smooth" not in row:
        return True  # Algorithm 3 with the standard exponent: ε-DP (Theorem 7, Δu <= 1)
    eps, delta = float(row["eps"]), float(row["delta"])
    upper = mechanisms.get("gaussian_gs_upper").claim(eps=eps, delta=delta).proven
    smooth = mechanisms.get("gaussian_smooth_fast").claim(eps=eps, delta=delta).proven
    return bool(upper or smooth)


def expected_dependent(kind: str, row: Mapping, steps: list[str], sweep_cfg: Mapping | None) -> list[str]:
    """The data-dependent inputs of a row, as category words (see module docstring)."""
    dep = []
    if kind in ("paper_a", "paper_b_tuned_r", "paper_b_printed_r"):
        dep.append("tuned")
    elif kind == "sweep":
        rk = row["r_kind"]
        if sweep_cfg is not None and rk not in sweep_cfg["r"]:
            raise AssertionError(f"sweep row with r kind {rk!r}, the sweep's config has {sorted(sweep_cfg['r'])}")
        if rk in ("fraction", "quantile"):
            dep.append("tuned")
    elif kind == "price":
        if row["tuning"] == "paper":
            dep.append("tuned")
        else:  # the honest rows fit every step on the raw public part; a stratified subsample reads all labels
            steps = ["subsample"] if "subsample" in steps else []
    return dep + steps


def _words(cat: str) -> tuple[str, ...]:
    if cat == "work guard":
        return ("max_work",)
    return TUNED_WORDS if cat == "tuned" else (PREP_WORDS[cat],)


def work_guard(kind: str, row: Mapping, cfg: Mapping, sweep_cfg: Mapping | None, prov: Mapping) -> list[str]:
    """["work guard"] for a σ row of Algorithm 2 (method ``paper``) computed under a max_work guard that its
    worst case does not fit: 1-D/2-D Algorithm 2 makes at most 2(N + 1) one-unit calls (paper B, Section 5); in
    3-D or more no such bound - whether the row got a σ_Smooth then depends on the data."""
    if row.get("method") != "paper" or (kind == "sweep" and row.get("part") != "sigma"):
        return []
    s1 = cfg["paper_b"]["scenario1"]
    if kind == "sweep":
        guard = sweep_cfg.get("max_work", s1.get("max_work"))
    elif kind in ("paper_b_tuned_r", "paper_b_printed_r") and "convention" in row:
        if not s1.get("skip_infeasible", True):
            return []  # past the guard the job fails: no row is released without its σ_Smooth
        guard = (s1.get("max_work_by_dataset") or {}).get(row["dataset"], s1.get("max_work"))
    else:
        return []
    n, d = int(prov["rows"]), int(prov["dims"])
    if guard is None or (d <= 2 and 2 * (n + 1) <= int(guard)):
        return []
    return ["work guard"]


def check_price(df: pd.DataFrame, paper: str, cfg: Mapping, sizes: Mapping[str, int]) -> list[str]:
    """Public split sizes and every composed (ε, δ) of a price table, recomputed here."""
    problems = []
    priv = cfg["privacy"]
    frac, share = float(priv["public_split"]["fraction"]), float(priv["selection_share"])
    delta = float(cfg["paper_b"]["delta"]) if paper == "B" else 0.0
    for i, row in df.iterrows():
        where = f"price_{paper}.csv row {i} ({row['dataset']}, ε = {row['eps']}, {row['tuning']})"
        n = sizes.get(row["dataset"])
        # per-record split: n_public ~ Binomial(n, frac); the private part's size moves under add/remove, so
        # paper A's end-to-end rows do not publish it
        hidden = paper == "A" and row["tuning"] != "paper"
        if hidden != pd.isna(row["n_private"]):
            problems.append(f"{where}: n_private {'published' if hidden else 'missing'}")
        elif n is not None and not hidden and row["n_public"] + row["n_private"] != n:
            problems.append(f"{where}: split {row['n_public']} + {row['n_private']} is not the {n} records")
        if n is not None and not 0 < row["n_public"] < n:
            problems.append(f"{where}: public part of {row['n_public']} records of {n} (fraction {frac})")
        if str(row.get("skipped", "") or "") not in ("", "nan"):
            continue
        eps = float(row["eps"])
        spend = (lambda e: float(rational_rate(e))) if paper == "A" else (lambda e: float(e))
        if row["tuning"] == "private_selection":
            sel = rational_rate(share * eps)
            rel = eps - float(sel)
            want_eps, want = float(sel) + spend(rel), (float(sel), rel)
            got = (float(row["eps_selection"]), float(row["eps_release"]))
            if not all(math.isclose(a, b, rel_tol=0, abs_tol=1e-15) for a, b in zip(got, want)):
                problems.append(f"{where}: (ε_sel, ε_release) = {got}, expected {want}")
        else:
            want_eps = spend(eps)
        if not math.isclose(float(row["claim_eps"]), want_eps, rel_tol=0, abs_tol=1e-12):
            problems.append(f"{where}: claim_eps {row['claim_eps']} != composed {want_eps}")
        if float(row["claim_eps"]) > eps + 1e-12 or float(row["claim_delta"]) != delta:
            problems.append(f"{where}: claim ({row['claim_eps']}, {row['claim_delta']}) exceeds ({eps}, {delta})")
        relation = "sensitive_k" if paper == "A" else "substitution"
        if row["neighbours"] != relation:
            problems.append(f"{where}: neighbours {row['neighbours']!r}, expected {relation!r}")
    return problems


def check_run(results: Path, cfg: Mapping) -> tuple[list[str], dict[str, int]]:
    """(problems, counts of rows by verdict) over every scoped table of the run in ``results``."""
    problems: list[str] = []
    seen = {"tables": 0, "rows": 0, "proven": 0, "not_proven": 0}
    provs: dict[str, dict] = {}

    def prov(ds: str) -> dict:
        if ds not in provs:
            provs[ds] = json.loads((results / "data" / f"{ds}.json").read_text())
        return provs[ds]

    for path in sorted(results.rglob("*.csv")):
        rel = path.relative_to(results).as_posix()
        kind = _kind(rel)
        if kind is None:
            continue
        df = pd.read_csv(path)
        if "proven_end_to_end" not in df.columns:
            problems.append(f"{rel}: a released table without the scope columns")
            continue
        seen["tables"] += 1
        sweep_cfg = cfg.get("sweeps", {}).get(rel.split("/")[1]) if kind == "sweep" else None
        for i, row in df.iterrows():
            r = row.to_dict()
            ds = r.get("dataset")
            if not isinstance(ds, str) or not (results / "data" / f"{ds}.json").exists():
                if bool(r["proven_end_to_end"]):
                    problems.append(f"{rel} row {i}: no data, yet proven end to end")
                continue
            if any(w in str(r.get("note", "")) for w in ("not available",)):
                continue
            seen["rows"] += 1
            dep = expected_dependent(kind, r, fitted_steps(prov(ds)), sweep_cfg)
            dep += work_guard(kind, r, cfg, sweep_cfg, prov(ds))
            text = "" if pd.isna(r["data_dependent"]) else str(r["data_dependent"])
            claimed = bool(r["proven_end_to_end"])
            seen["proven" if claimed else "not_proven"] += 1
            for cat in dep:
                if not any(w in text for w in _words(cat)):
                    problems.append(f"{rel} row {i} ({ds}): data-dependent {cat} not stated in {text!r}")
            if claimed and dep:
                problems.append(f"{rel} row {i} ({ds}): proven end to end although {dep} are data-dependent")
            if not dep:
                own = mechanism_proven(kind, rel, r)
                if kind == "price":
                    own = True  # selection (pure ε) and the release at ε_release: checked by check_price
                    if r["paper"] == "B":
                        own = mechanisms.get("gaussian_gs_upper").claim(eps=float(r["eps_release"]),
                                                                        delta=float(r["delta"])).proven
                    if str(r.get("skipped", "") or "") not in ("", "nan"):
                        own = None
                if own is not None and bool(own) != claimed:
                    problems.append(f"{rel} row {i} ({ds}): nothing data-dependent and the mechanism's claim "
                                    f"proven = {own}, but proven_end_to_end = {claimed}")
                if own is None and claimed:
                    problems.append(f"{rel} row {i} ({ds}): no private release, yet proven end to end")
        if kind == "sweep" and "claim_eps" in df.columns:
            for i, row in df.iterrows():
                if row.get("part") == "mechanism":  # paper B's Gaussians: Theorems 1-2 at the row's (ε, δ), bounded DP
                    if row["mechanism"].startswith("gaussian_") and (
                            float(row["claim_eps"]) != float(row["eps"]) or float(row["claim_delta"]) != float(row["delta"])
                            or row["neighbours"] != "substitution"):
                        problems.append(f"{rel} row {i}: claim ({row['claim_eps']}, {row['claim_delta']}, "
                                        f"{row['neighbours']}), expected ({row['eps']}, {row['delta']}, substitution)")
                    continue
                if not isinstance(row.get("mechanism"), str):
                    continue  # a paper-B sweep's sigma / top-h row: no named mechanism
                share, relation = PAPER_A_SPEND[row["mechanism"]]
                want = float(rational_rate(share * float(row["eps"])))
                if not math.isclose(float(row["claim_eps"]), want, rel_tol=0, abs_tol=1e-15) or \
                        float(row["claim_delta"]) != 0.0 or row["neighbours"] != relation:
                    problems.append(f"{rel} row {i}: claim ({row['claim_eps']}, {row['claim_delta']}, "
                                    f"{row['neighbours']}), expected ({want}, 0, {relation})")
        if kind == "price":
            sizes = {ds: int(prov(ds)["rows"]) for ds in df["dataset"].unique()
                     if (results / "data" / f"{ds}.json").exists() and "rows" in prov(ds)}
            problems += check_price(df, rel[-5], cfg, sizes)
    return problems, seen
