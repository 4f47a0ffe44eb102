"""The scope of a released row: which inputs its privacy claim treats as public, which were chosen from the
released data outside the mechanism, and whether it is therefore proven end to end.

A differential-privacy theorem (paper A's Theorem 4.4 / Construction 1, paper B's Theorems 1-3) holds for
*public* parameters: ε, δ, k, β, r fixed before the data are seen. Both papers tune r (paper B: eq. (53)
accuracy against the labels; paper A: (β, r) by its appendix protocol, here max F1 against the labels) and
standardise / project (PCA) with statistics of the same records; the sweeps' ``r: {fraction|quantile}``
reads r off the data. Each such choice is a deterministic function of the private records, so the release
(choice, noisy output) is not private for any ε (one substituted record can move the tuned r). These
functions derive the ``data_dependent`` text from the config and the dataset's provenance (never per dataset
by name), and every released table carries the three columns of :data:`SCOPE_COLUMNS` at its right.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from privanomaly.datasets.prepare import FITTED_ON_DATA  # the provenance's ``fitted_on`` of a fitted step

__all__ = ["SCOPE_COLUMNS", "FITTED_ON_DATA", "FITTED_ON_PUBLIC", "Scope", "read_provenance", "preprocessing",
           "PAPER_A_PUBLIC", "CANDIDATES_RELATION", "paper_b_r", "paper_a_beta_r", "sweep_r", "paper_b_scenario1", "paper_b_scenario2", "paper_a", "sweep"]

SCOPE_COLUMNS = ("public_inputs", "data_dependent", "proven_end_to_end")
TUNING_NOTE = (
    "Both papers tune non-privately: paper A chooses (β, r) by F1 and paper B chooses r by eq. (53) accuracy "
    "against the labels of the very records they release, after standardising on them, so their (ε, δ) holds "
    "only for public parameters; this pipeline reproduces that tuning, states on every row its public_inputs, "
    "its data_dependent choices and proven_end_to_end (false whenever anything was tuned on the released "
    "data), and measures the price of honest tuning (public split or private selection) in "
    "privacy/price_A.csv and privacy/price_B.csv."
)
SEP = "; "
# Paper A's mechanisms answer one anomaly identification query (Def. 2.2) per run: their claims are per query.
# The answers for many records together are not covered: paper A's Claim 5 charges m·ε for m queries within a
# ball of radius r, and answering every record makes the query set the data itself.
PAPER_A_PUBLIC = "ε, k (per query)"
CANDIDATES_RELATION = "relation: the G_S(k) edges of every candidate (β, r)"
FITTED_ON_PUBLIC = "public split"
PREPROCESSING_STEPS = {"standardize": "standardisation", "pca": "PCA"}
PREPROCESSING_STEP_OF = {v: k for k, v in PREPROCESSING_STEPS.items()}  # "standardisation" -> "standardize"


@dataclass(frozen=True)
class Scope:
    """The public inputs and the data-dependent choices of a release (paper terms, one phrase each)."""

    public_inputs: tuple[str, ...]
    data_dependent: tuple[str, ...]

    def __add__(self, other: "Scope") -> "Scope":
        return Scope(self.public_inputs + other.public_inputs, self.data_dependent + other.data_dependent)

    def columns(self, proven) -> dict:
        """The three :data:`SCOPE_COLUMNS`; ``proven`` (a bool or a boolean array/Series: the mechanism's own
        claim) is True end to end only where nothing data-dependent is left outside the accounting."""
        end_to_end = np.logical_and(np.asarray(proven, dtype=bool), not self.data_dependent)
        return {"public_inputs": SEP.join(self.public_inputs), "data_dependent": SEP.join(self.data_dependent),
                "proven_end_to_end": end_to_end.item() if end_to_end.ndim == 0 else end_to_end}

    def add_to(self, df: pd.DataFrame, proven) -> pd.DataFrame:
        """``df`` with the three columns appended at its right (existing columns untouched)."""
        out = df.copy()
        for col, value in self.columns(proven).items():
            if col in out.columns:
                raise ValueError(f"table already has a {col!r} column")
            out[col] = value
        return out


def beside(data_path: str | Path) -> Path:
    """The provenance JSON written with a prepared table (rule ``prepare``: ``<name>.parquet`` + ``<name>.json``)."""
    return Path(data_path).with_suffix(".json")


REBUILD_PROVENANCE = "the file is damaged - delete it and rerun the workflow, whose rule prepare rebuilds it"


def read_provenance(path: str | Path, *keys: str) -> dict:
    """A dataset's provenance JSON (``results/data/<name>.json``), checked to be an object with a list ``steps``
    and every key of ``keys``: a missing, unreadable or damaged file is a ``ValueError`` naming it and how to
    rebuild it (never a bare ``JSONDecodeError`` or ``KeyError``)."""
    try:
        with open(path, encoding="utf-8") as fh:
            prov = json.load(fh)
    except FileNotFoundError:
        raise ValueError(f"{path}: not found (expected a dataset's provenance JSON, written by rule prepare); rerun "
                         "the workflow to rebuild it") from None
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read the dataset's provenance JSON ({type(exc).__name__}: {exc}); "
                         f"{REBUILD_PROVENANCE}") from None
    if not isinstance(prov, dict) or not isinstance(prov.get("steps", []), list):
        raise ValueError(f"{path}: dataset provenance must be an object with a list 'steps'; {REBUILD_PROVENANCE}")
    lacks = [k for k in keys if k not in prov]
    if lacks:
        raise ValueError(f"{path}: the dataset's provenance has no key {', '.join(map(repr, lacks))} (expected "
                         f"{list(keys)}); {REBUILD_PROVENANCE}")
    return prov


def preprocessing(prov: Mapping | None) -> Scope:
    """Standardisation / PCA / median imputation of the provenance ``steps``: data-dependent unless fitted on a
    public split; a label-stratified subsample (``n_normal`` / ``n_anomaly`` drawn from all records: whether a
    record is kept depends on the others and on the labels) is data-dependent; a ``deferred`` step (the raw-scale
    table of rule prepare_raw) is fitted later, on the public part (:mod:`.public_fit`).

    A step without ``fitted_on`` (provenance written before it was recorded) was fitted on all records.
    ``prov = None`` (no provenance at hand) is itself data-dependent: nothing says the features are raw."""
    if prov is None:
        return Scope((), ("preprocessing unknown (no dataset provenance)",))
    pub, dep = [], []
    for step in prov.get("steps", []):
        if not isinstance(step, Mapping) or step.get("deferred"):  # deferred: fitted later on a public part
            continue
        if step.get("step") == "subsample":
            dep.append(f"label-stratified subsample ({step.get('n_normal')} normal, {step.get('n_anomaly')} anomalous "
                       "records drawn from all records)")
            continue
        if step.get("step") == "missing" and step.get("mode") == "impute_median" and step.get("cells_imputed"):
            what = "median imputation"  # the medians are statistics of every record
        elif step.get("step") in PREPROCESSING_STEPS:
            what = PREPROCESSING_STEPS[step["step"]]
        else:
            continue
        if step["step"] == "pca":
            what += f" ({step.get('n_components', '?')} components)"
        fitted = step.get("fitted_on", FITTED_ON_DATA)
        if fitted == FITTED_ON_PUBLIC:
            pub.append(f"{what} fitted on the public split")
        else:
            dep.append(f"{what} fitted on the data")
    return Scope(tuple(pub), tuple(dep))


def paper_b_r(choice: Mapping) -> Scope:
    """Where paper B's r comes from (the reading's tuning JSON, ``paper_b_tune_r`` / ``paper_b_paper_r``)."""
    source = choice.get("r_source", "")
    r = choice.get("r")
    if source == FITTED_ON_PUBLIC:
        return Scope((f"r = {r:.6g} (tuned by eq. (53) on the public split)",), ())
    if source == "paper_b.paper_reported.r":
        return Scope((), (f"r = {r:.6g} printed by paper B (tuned there by eq. (53) accuracy on these data)",))
    return Scope((), (f"r = {r:.6g} tuned by eq. (53) accuracy against the labels",))


def paper_a_beta_r(choice: Mapping) -> Scope:
    """Where paper A's (β, r) comes from (``paper_a_select``'s JSON)."""
    beta, r = choice.get("beta"), choice.get("r")
    if choice.get("r_source") == FITTED_ON_PUBLIC:
        return Scope((f"(β, r) = ({beta}, {r:.6g}) chosen on the public split",), ())
    return Scope((), (f"(β, r) = ({beta}, {r:.6g}) by max F1 against the labels",))


def sweep_r(r_kind: str, r_spec: float) -> Scope:
    """A sweep's r: ``value`` is public (config); ``fraction`` / ``quantile`` are read off the data. The number
    is written in full (the shortest digits that give the float back): the value the row used."""
    v = np.format_float_positional(float(r_spec), trim="-")
    if r_kind == "value":
        return Scope((f"r = {v} (config)",), ())
    if r_kind == "fraction":
        return Scope((), (f"r for flagged fraction {v} read off the data's k-NN distances",))
    if r_kind == "quantile":
        return Scope((), (f"r = {v}-quantile of the data's k-NN distances",))
    raise ValueError(f"unknown r kind {r_kind!r} (one of value, fraction, quantile)")


def paper_b_scenario1(choice: Mapping, prov: Mapping | None) -> Scope:
    """Scenario 1 (paper B, Theorems 1-2): ε, δ, k, N and d public (bounded DP), r and preprocessing as set."""
    return Scope(("ε, δ, k, N, d (bounded DP)", "noise convention", "smooth-bound method"), ()) + paper_b_r(
        choice) + preprocessing(prov)


def algorithm2_guard(method: str, max_work: int | None, skip_infeasible: bool, fits_by_shape: bool) -> Scope:
    """Which Scenario-1 rows are released when Algorithm 2 runs under a work guard: past ``max_work`` a β's rows
    (and every smaller β's) are skipped, and Algorithm 2's work is a function of the data - unless its bound
    from the shape alone fits (``fits_by_shape``: :func:`privanomaly.paper_b.released_bound.algorithm2_outlook`
    is "feasible", e.g. 2(N + 1) in 1-D and 2-D). Otherwise which rows carry a σ_Smooth is a choice made from
    the data, outside the (ε, δ) claim."""
    if method != "paper" or max_work is None or not skip_infeasible or fits_by_shape:
        return Scope((), ())
    return Scope((), (f"which β have a σ_Smooth: Algorithm 2 within max_work = {max_work:,} work units, "
                      "its work a function of the data",))


def paper_b_scenario2(choice: Mapping, prov: Mapping | None) -> Scope:
    """Scenario 2 (paper B, Algorithm 3 / Theorem 7): ε, h, k, N, d and the candidate subspaces public; r and
    preprocessing as set."""
    return Scope(("ε, h, k, N, d (bounded DP)", "candidate subspaces"), ()) + paper_b_r(choice) + preprocessing(prov)


def paper_a(choice: Mapping, prov: Mapping | None) -> Scope:
    """Paper A's tables (Construction 1, Theorem 4.4): ε, k public; (β, r) and preprocessing as set."""
    return Scope((PAPER_A_PUBLIC,), ()) + paper_a_beta_r(choice) + preprocessing(prov)


def sweep(kind: str, r_kind: str, r_spec: float, prov: Mapping | None) -> Scope:
    """A sweep row: its grid values are public; r and preprocessing as set."""
    grid = f"{PAPER_A_PUBLIC}, β (grid)" if kind == "paper_a" else "ε, δ, k, N, d (grid; bounded DP)"
    return Scope((grid,), ()) + sweep_r(r_kind, r_spec) + preprocessing(prov)


def _flag(df: pd.DataFrame, col: str) -> pd.Series:
    return df[col].astype("boolean").fillna(False).astype(bool) if col in df else pd.Series(False, index=df.index)


def scenario1_proven(df: pd.DataFrame) -> pd.Series:
    """A Scenario-1 row's own claim: its proven release (σ_Global with the GS upper bound, or σ_Smooth)."""
    return _flag(df, "sigma_global_upper_proven") | _flag(df, "sigma_smooth_proven")


def sweep_proven(df: pd.DataFrame, kind: str) -> pd.Series:
    """A sweep row's own claim: ``claim_proven`` (paper A); σ rows as Scenario 1, computed top-h rows as
    Algorithm 3 with the standard exponent (ε-DP, Theorem 7 with Δu <= 1), a named mechanism's rows its
    ``claim_proven`` (paper B); skipped rows: False."""
    if kind == "paper_a":
        return _flag(df, "claim_proven")
    done = df["skipped"].fillna("") == "" if "skipped" in df else pd.Series(True, index=df.index)
    top_h = (df["part"] == "top_h") if "part" in df else pd.Series(False, index=df.index)
    return (scenario1_proven(df) | top_h | _flag(df, "claim_proven")) & done


def add_sweep_columns(df: pd.DataFrame, kind: str, r_kind: str, r_spec: float, prov: Mapping | None,
                      extra: Scope | None = None) -> pd.DataFrame:
    """A sweep's rows with the scope columns at the right (rules ``sweep_chunk`` / ``sweep_b_dataset``), with the
    ``extra`` scope of these rows (e.g. :func:`algorithm2_guard`) beside the sweep's."""
    return (sweep(kind, r_kind, r_spec, prov) + (extra or Scope((), ()))).add_to(df, sweep_proven(df, kind))


def provenance_of(inputs) -> dict | None:
    """The dataset provenance of a job: its ``provenance`` input if the rule names one, else the JSON beside
    its ``data`` input (written by the same ``prepare`` job), else None (then :func:`preprocessing` states
    the preprocessing as unknown, never as public)."""
    path = getattr(inputs, "provenance", None)
    if not path and getattr(inputs, "data", None):
        path = beside(inputs.data)
    return read_provenance(path) if path else None
