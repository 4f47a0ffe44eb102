"""The data summary table (start of paper A's Table 1): one row per prepared dataset, from its provenance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

COLUMNS = [
    "dataset",
    "rows",
    "dims",
    "n_anomalies",
    "pct_anomalies",
    "raw_rows",
    "raw_columns",
    "steps",
    "source",
    "sha256",
]


def _step_label(step: Mapping[str, Any]) -> str | None:
    kind = step["step"]
    if kind == "missing":
        if step.get("missing_cells", 0) == 0:
            return None
        if step["mode"] == "drop":
            return f"drop {step['rows_dropped']} rows with missing values"
        return f"impute {step.get('cells_imputed', 0)} missing cells ({step['mode']})"
    if kind == "select_columns":
        dropped = list(step.get("dropped") or [])
        return f"drop {len(dropped)} columns" if dropped else None
    if kind == "standardize":
        return "standardize"
    if kind == "pca":
        return f"PCA to {step['n_components']}"
    if kind == "subsample":
        return f"subsample {step['n_normal']}+{step['n_anomaly']}"
    return kind


#: the keys of a provenance JSON that :func:`summary_table` reads
PROVENANCE_KEYS = ("dataset", "rows", "dims", "n_anomalies", "raw_rows", "raw_columns", "source", "steps")


def summary_table(provenances: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per dataset: rows, dims, #anomalies, % anomalies, raw size, steps, source, raw sha256."""
    rows = []
    for p in provenances:
        src = p["source"]
        source = f"generator {src['generator']['name']}" if "generator" in src else src["path"]
        steps = [s for s in (_step_label(st) for st in p["steps"]) if s]
        rows.append(
            {
                "dataset": p["dataset"],
                "rows": int(p["rows"]),
                "dims": int(p["dims"]),
                "n_anomalies": int(p["n_anomalies"]),
                "pct_anomalies": round(100.0 * p["n_anomalies"] / p["rows"], 3) if p["rows"] else float("nan"),
                "raw_rows": int(p["raw_rows"]),
                "raw_columns": int(p["raw_columns"]),
                "steps": "; ".join(steps),
                "source": source,
                "sha256": src.get("sha256", ""),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)
