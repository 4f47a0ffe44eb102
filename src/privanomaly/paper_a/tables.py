"""Paper A tables assembled from the per-dataset tidy outputs (Table 1, Table 2, Table 3)."""

from __future__ import annotations

import logging
import re

import numpy as np
import pandas as pd

from privanomaly import experiment, mechanisms
from privanomaly.paper_a import records
from privanomaly.privacy import scope
from privanomaly.registry import Registry

FIGURES: Registry = Registry("paper A table function")
"""The table functions of this module by catalogue name (merged by :mod:`privanomaly.report.figures`)."""


def unavailable_row(name: str, columns: list[str], note: str) -> dict:
    """A row saying a dataset is absent (never invented numbers): NaN everywhere, with a note."""
    row = {c: np.nan for c in columns}
    row["dataset"] = name
    row["note"] = note
    return row


def _int_columns(df: pd.DataFrame, cols: list[str]) -> pd.DataFrame:
    """Counts as Python ints (NaN where a dataset is unavailable), so CSV/Markdown show 10100, not 1.01e+04."""
    for c in cols:
        df[c] = pd.Series([v if pd.isna(v) else int(v) for v in df[c]], index=df.index, dtype=object)
    return df


def table1(rows: list[dict], missing: list[str]) -> pd.DataFrame:
    """Table 1: size, dim (after PCA where applied), #labelled anomalies, chosen β, r, #(β,r)-anomalies and
    their precision/recall against the labels. ``rows`` come from :func:`table1_row`."""
    cols = ["dataset", "n_records", "dim", "pca", "n_labelled_anomalies", "beta", "r", "n_br_anomalies",
            "precision", "recall", "note"]
    out = [dict(r, note=r.get("note", "")) for r in rows]
    out += [unavailable_row(m, cols, "not available offline (not mirrored); no numbers reported") for m in missing]
    return _int_columns(pd.DataFrame(out, columns=cols), ["n_records", "dim", "n_labelled_anomalies", "beta",
                                                          "n_br_anomalies"])


def table1_row(name: str, rec: pd.DataFrame, dim: int, pca: str, beta: int, r: float) -> dict:
    g = rec["anomaly"].to_numpy(dtype=bool)
    lab = rec["label"].to_numpy() == 1
    tp = int((g & lab).sum())
    return dict(dataset=name, n_records=len(rec), dim=int(dim), pca=pca, n_labelled_anomalies=int(lab.sum()),
                beta=int(beta), r=float(r), n_br_anomalies=int(g.sum()),
                precision=tp / g.sum() if g.sum() else np.nan, recall=tp / lab.sum() if lab.sum() else np.nan)


def column_slug(label: str) -> str:
    """A mechanism label as a column suffix: "SP" -> "sp", "Laplace (count)" -> "laplace_count"."""
    return re.sub(r"[^0-9a-z]+", "_", label.lower()).strip("_")


def table2(summaries: pd.DataFrame, eps: float, k: int, missing: list[str],
           labels: tuple[str, ...] = ("SP", "DP")) -> pd.DataFrame:
    """Table 2: exact error of each mechanism (by label, in this order; the paper's: SP and DP) for a record
    picked uniformly at random and for a random (β,r)-anomaly, at (ε, k). With no summaries (every dataset
    unavailable) only the noted rows remain."""
    groups = (("random_record", "all"), ("random_anomaly", "anomaly"))
    value_cols = [f"{prefix}_{column_slug(lb)}" for prefix, _ in groups for lb in labels]
    if len(set(value_cols)) != len(value_cols):
        raise ValueError(f"table2: mechanism labels {list(labels)} give clashing column names")
    rows = []
    if summaries.empty:
        s = pd.DataFrame(columns=["dataset"])
    else:
        s = summaries[np.isclose(summaries["eps"], eps) & (summaries["k"] == k)]
    for name, sub in s.groupby("dataset", sort=False):
        def val(group, mech):
            v = sub[(sub["group"] == group) & (sub["mechanism"] == mech)]["mean_error"]
            return float(v.iloc[0]) if len(v) else np.nan
        row = dict(dataset=name, eps=eps, k=k)
        row.update({f"{prefix}_{column_slug(lb)}": val(group, lb) for prefix, group in groups for lb in labels})
        rows.append(dict(row, note=""))
    cols = ["dataset", "eps", "k", *value_cols, "note"]
    rows += [unavailable_row(m, cols, "not available offline (not mirrored); no numbers reported") for m in missing]
    return _int_columns(pd.DataFrame(rows, columns=cols), ["k"])


def table3(detection: pd.DataFrame, missing: list[str]) -> pd.DataFrame:
    """Table 3: precision/recall per dataset × method (private mechanisms, then non-private references)."""
    cols = ["dataset", "method", "private", "eps", "k", "precision_labels", "recall_labels", "precision_br",
            "recall_br", "expected_flagged", "note"]
    d = detection.copy()
    d["note"] = d["note"].fillna("") if "note" in d else ""
    rows = d.reindex(columns=cols).to_dict("records")
    rows += [unavailable_row(m, cols, "not available offline (not mirrored); no numbers reported") for m in missing]
    return _int_columns(pd.DataFrame(rows, columns=cols), ["k"])


# ------------------------- registered table functions (catalogue `table.function` names) -------------------------
# Each reads its input paths with the checking readers of privanomaly.experiment and returns one table; the
# generic rule (workflow/rules/report.smk) writes it as CSV + Markdown (privanomaly.report.figures.render_table).


@FIGURES.register("paper_a.table1")
def _table1(inp, p):
    """Table 1: sizes, dimension after PCA, labelled anomalies, chosen (β, r) and the (β, r)-anomalies."""
    rows = []
    for name, prov_path, rec_path, choice_path in zip(p["datasets"], inp["provenance"], inp["records"],
                                                      inp["choices"]):
        prov = scope.read_provenance(prov_path, "dims")
        choice = experiment.read_choice(choice_path, "beta")
        rec = records.read_records(rec_path)
        row = table1_row(name, rec, prov["dims"], pca_note(prov), choice["beta"], choice["r"])
        rows.append(dict(row, note=choice.get("note", "")))  # "⚠ edge of grid: ..." (paper_a.selection)
    # Table 1 releases no private output: nothing in it is proven (the (β, r)-anomalies are exact counts)
    return with_scope(table1(rows, p["missing"]), scopes(inp), lambda df: False)


def scopes(inp) -> dict[str, scope.Scope]:
    """{dataset: its scope} from the item's ``choices`` and ``provenance`` inputs (same {d} order)."""
    out = {}
    for choice_path, prov_path in zip(inp["choices"], inp["provenance"]):
        choice = experiment.read_choice(choice_path, "beta")
        out[choice["dataset"]] = scope.paper_a(choice, scope.read_provenance(prov_path))
    return out


def with_scope(df: pd.DataFrame, by_dataset: dict[str, scope.Scope], proven) -> pd.DataFrame:
    """``df`` with the :data:`privanomaly.privacy.scope.SCOPE_COLUMNS` at its right, per its ``dataset``
    column; ``proven(rows)`` is the mechanism's own claim on those rows. A dataset without a scope (unavailable:
    no numbers) gets empty texts and ``proven_end_to_end = False``."""
    parts = {c: pd.Series("", index=df.index, dtype=object) for c in scope.SCOPE_COLUMNS[:2]}
    end = pd.Series(False, index=df.index, dtype=bool)
    for name, sc in by_dataset.items():
        rows = df["dataset"] == name
        if not rows.any():
            continue
        cols = sc.columns(proven(df[rows]))
        for c in scope.SCOPE_COLUMNS[:2]:
            parts[c][rows] = cols[c]
        end[rows] = cols["proven_end_to_end"]
    out = df.copy()
    for c in scope.SCOPE_COLUMNS[:2]:
        out[c] = parts[c]
    out["proven_end_to_end"] = end
    return out


def pca_note(prov: dict) -> str:
    """"raw columns → dims" when the dataset's provenance has a PCA step, else "none"."""
    steps = [s for s in prov.get("steps", []) if isinstance(s, dict) and s.get("step") == "pca"]
    return f"{prov.get('raw_columns', '?')} → {prov.get('dims', '?')}" if steps else "none"


@FIGURES.register("paper_a.table2")
def _table2(inp, p):
    labels = tuple(mechanisms.get(n).label for n in p["mechanisms"])
    df = table2(experiment.concat(inp["summaries"]), p["eps_ref"], p["k_main"], p["missing"], labels)
    if "choices" not in inp:  # an item without the scope inputs keeps the paper's columns only
        return df
    proven = all(mechanisms.get(n).claim(eps=p["eps_ref"], beta=1, k=p["k_main"]).proven for n in p["mechanisms"])
    return with_scope(df, scopes(inp), lambda rows: proven)


@FIGURES.register("paper_a.table3")
def _table3(inp, p):
    df = table3(experiment.concat(inp["detection"]), p["missing"])
    if "choices" not in inp:
        return df
    return with_scope(df, scopes(inp), lambda rows: rows["private"].fillna(False).astype(bool))


# the columns of a growth curve (privanomaly.paper_a.growth.growth_curve), led by its dataset
GROWTH_COLUMNS = ["dataset", "size_fraction", "n_records", "beta", "r", "n_anomalies", "eps", "k", "mean_error_sp",
                  "median_error_sp", "mean_error_dp", "note"]


def growth_table(curves: pd.DataFrame, missing: dict[str, str] | list[str]) -> pd.DataFrame:
    """The growth curves of every growth dataset in one table, plus one noted row per growth dataset that is
    unavailable in this run (``missing``); with no curve at all the table still has its columns."""
    rows = curves.reindex(columns=GROWTH_COLUMNS).to_dict("records") if len(curves) else []
    for row in rows:
        row["note"] = "" if pd.isna(row["note"]) else row["note"]
    rows += [unavailable_row(m, GROWTH_COLUMNS, "not available offline (not mirrored); no numbers reported")
             for m in missing]
    return _int_columns(pd.DataFrame(rows, columns=GROWTH_COLUMNS), ["n_records", "beta", "n_anomalies", "k"])


@FIGURES.register("paper_a.growth_table")
def _growth_table(inp, p):
    """The growth curves of every growth dataset in one table; growth datasets unavailable in this run
    (``paper_a.growth.datasets`` ∩ ``paper_a.missing``) are noted rows."""
    configured = p.get("configured", [])
    missing = [m for m in p.get("missing", {}) if m in configured]
    df = growth_table(experiment.concat(inp["curves"]), missing)
    if "choices" not in inp:  # an item without the scope inputs keeps the curve's columns only
        return df
    return with_scope(df, growth_scopes(inp), lambda rows: True)  # SP (Construction 1) and DP: proven at ε


def growth_scopes(inp) -> dict[str, scope.Scope]:
    """{dataset: scope} of the growth curves: (β, fraction) chosen on the full data's labels, r re-derived on
    each subsample from its (β+1)-NN distances (:func:`privanomaly.paper_a.growth.growth_curve`), and the
    dataset's preprocessing."""
    out = {}
    for choice_path, prov_path in zip(inp["choices"], inp["provenance"]):
        choice = experiment.read_choice(choice_path, "beta")
        subsample_r = scope.Scope((), (f"r for flagged fraction {choice.get('fraction')} read off each subsample's "
                                       f"(β+1)-NN distances",))
        out[choice["dataset"]] = scope.paper_a(choice, scope.read_provenance(prov_path)) + subsample_r
    return out


@FIGURES.register("paper_a.parameters")
def _parameters(inp, p):
    """The chosen (β, r) of every dataset in one table; a choice on the edge of its grid is logged."""
    rows = [experiment.read_choice(path, "beta") for path in inp["choices"]]
    cols = ["dataset", "beta", "r", "fraction", "f1", "precision", "recall", "n_records", "n_scored", "metric", "note"]
    df = pd.DataFrame(rows).reindex(columns=cols)
    df["note"] = df["note"].fillna("")  # a choice file without the note key (written by hand) has none
    for row in df[df["note"] != ""].itertuples():
        logging.getLogger("privanomaly").warning("%s: (beta, r) on the edge of its grid: %s", row.dataset, row.note)
    if "provenance" not in inp:
        return df
    return with_scope(df, scopes(inp), lambda rows: False)  # a parameter choice, no private release
