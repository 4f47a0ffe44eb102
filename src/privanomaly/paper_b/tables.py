"""Tables 1 and 2 of paper B ("Summary of datasets and parameters"), ours next to the printed values."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly.registry import Registry

FIGURES: Registry = Registry("paper B table function")
"""The table functions of this module by catalogue name (merged by :mod:`privanomaly.report.figures`)."""

QUANTITIES = (
    ("n_outliers", "The number of outliers"),
    ("n_inliers", "The number of inliers"),
    ("N", "The number of samples N"),
    ("d", "Dimension d"),
    ("k", "Threshold k"),
    ("r", "Radius r"),
)


def dataset_summary(y: np.ndarray, d: int, k: int, r: float) -> dict:
    """Our values of the table's quantities for one dataset."""
    y = np.asarray(y).astype(int)
    return {"n_outliers": int(y.sum()), "n_inliers": int((y == 0).sum()), "N": int(len(y)), "d": int(d), "k": k,
            "r": float(r)}


def paper_table(
    table: str, datasets: list[str], ours: dict[str, dict], paper: dict, names: dict[str, str], k_paper: int = 3
) -> pd.DataFrame:
    """Tidy rows (table, dataset, paper_name, quantity, label, ours, paper) of one table.

    ``paper`` is config ``paper_b.paper_reported`` (maps quantity -> dataset -> value); k is 3 in the paper.
    """
    rows = []
    for ds in datasets:
        for q, label in QUANTITIES:
            printed = k_paper if q == "k" else paper.get(q, {}).get(ds, np.nan)
            rows.append(
                {
                    "table": table,
                    "dataset": ds,
                    "paper_name": names.get(ds, ds),
                    "quantity": q,
                    "label": label,
                    "ours": float(ours[ds][q]),
                    "paper": float(printed) if printed is not None else np.nan,
                }
            )
    return pd.DataFrame(rows)


def wide_markdown_frame(tidy: pd.DataFrame) -> pd.DataFrame:
    """The paper's layout: one row per quantity, one column per dataset, cells "ours (paper: x)"."""

    def cell(ours: float, paper: float) -> str:
        fmt = (lambda v: f"{v:.3g}") if not float(ours).is_integer() or not float(paper).is_integer() else (
            lambda v: f"{int(v)}")
        p = "—" if paper != paper else fmt(paper)
        return f"{fmt(ours)} (paper: {p})"

    out = {"": [label for _, label in QUANTITIES]}
    for ds, g in tidy.groupby("dataset", sort=False):
        g = g.set_index("quantity")
        out[g["paper_name"].iloc[0]] = [cell(g.loc[q, "ours"], g.loc[q, "paper"]) for q, _ in QUANTITIES]
    return pd.DataFrame(out)


@FIGURES.register("paper_b.timing")
def _timing(inp, p):
    """Beyond the paper: time and bound of Algorithm 2 vs the fast bound, every timing dataset in one table
    (registered table function: the catalogue's ``table:`` section, privanomaly.report.figures)."""
    from privanomaly import experiment  # per-dataset tables: one that lost a column is an error, never NaN

    df = experiment.concat(inp["timing"])
    df.insert(1, "paper_name", df["dataset"].map(p["names"]))
    df["fast_over_paper"] = df["fast_value"] / df["paper_value"]
    return df
