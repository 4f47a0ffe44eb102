"""The tidy long table of a sweep: every point file's rows, grid values as columns, in a fixed order.

Paper A: one row per dataset x mechanism x ε x k x β x r. Paper B: one row per dataset x k x r x (``part =
sigma``: bound ``method`` x ``convention`` x ε | ``part = mechanism``: mechanism x ε | ``part = top_h``: subspace
dimension x h x ε).
The order depends on the grid values only (never on which job finished first), so equal configs give
byte-identical tables.
"""

from __future__ import annotations

import pandas as pd

ORDER = {
    "paper_a": ["dataset", "mechanism", "beta", "r_spec", "k", "eps"],
    "paper_b": ["part", "dataset", "k", "r_spec", "delta", "method", "convention", "mechanism", "subspace_dim", "h",
                "eps"],
}


def collect(paths: list[str], sweep: str, kind: str) -> pd.DataFrame:
    """Concatenate the point files of ``sweep`` (a ``kind`` sweep) into its tidy long table."""
    if kind not in ORDER:
        raise ValueError(f"unknown sweep kind {kind!r}")
    if not paths:
        raise ValueError(f"sweep {sweep}: no point files")
    from privanomaly.experiment.inputs import concat  # a damaged chunk, or one that lost a column, is named

    table = concat(paths, pd.read_parquet, "a sweep chunk of this workflow", ordered=False)
    keys = [c for c in ORDER[kind] if c in table.columns]
    table = table.sort_values(keys, kind="mergesort", na_position="first").reset_index(drop=True)
    table.insert(0, "sweep", sweep)
    return table
