"""Per-record quantities for a dataset at the chosen (β, r): duplicates x_i, ball count B, truth g.

Ball counts are capped at β + C with e^{−ε_min·C} ≤ 2^-60 (``cap_for``; ε_min: the smallest ε a configured
mechanism's error decays at, :func:`privanomaly.paper_a.plan.eps_min` - half the ε for the noisy
threshold, a quarter for the compiler, ``noise_share``). The mdd-based mechanisms (SP, DP,
compiler) use min(Δ, C): exactly private, and their error exceeds the uncapped one by < 2^-60, only where a
distance reaches C (records with B ≥ β + C; anomalies whose L is cut when C < β). The Laplace baselines run on the capped count min(B, β + C) — also sensitivity 1,
so the same claim — and the probabilities reported are that mechanism's own (a stored capped count never
stands in for the uncapped one); ``cap`` is stored so every consumer knows which mechanism it evaluates.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from privanomaly import experiment, sp

# the columns of record_table that the records' readers use by name
RECORD_COLUMNS = ("record", "label", "x_i", "B", "anomaly", "cap")


def cap_for(beta: int, eps_min: float) -> int:
    """Count cap β + C with e^{−ε_min·C} ≤ 2^-60 (:func:`privanomaly.sp.recommended_cap`)."""
    return int(sp.recommended_cap(beta, eps_min))


def rec_cap(rec: pd.DataFrame) -> int | None:
    """The cap the ball counts of ``rec`` were computed with (None = exact counts)."""
    c = int(rec["cap"].iloc[0]) if len(rec) else -1
    return None if c < 0 else c


def read_records(path: str | Path) -> pd.DataFrame:
    """The records table of rule ``paper_a_records`` at ``path``; one that lacks a column of
    :data:`RECORD_COLUMNS` is an error naming the file, the column and how to rebuild it."""
    return experiment.read_table(path, RECORD_COLUMNS, "the per-record table of a dataset (Parquet)",
                                 "paper_a_records", reader=pd.read_parquet)


def record_table(X: np.ndarray, labels: np.ndarray, beta: int, r: float, *, cap: int | None, workers: int = 1,
                 metric: str = "euclidean") -> pd.DataFrame:
    """One row per record: ``record, label, x_i, B, anomaly, cap`` (anomaly = g(i,x), Def. 2.2; B = min(B, cap),
    cap = -1 when uncapped)."""
    x_i, B = sp.record_counts(X, r, metric=metric, cap=cap, workers=workers)
    g = np.asarray(sp.is_anomaly(x_i, B, beta)).astype(bool)
    return pd.DataFrame(
        {
            "record": np.arange(len(X), dtype=np.int64),
            "label": np.asarray(labels).astype(np.int8),
            "x_i": x_i.astype(np.int64),
            "B": B.astype(np.int64),
            "anomaly": g,
            "cap": np.int64(-1 if cap is None else cap),
        }
    )
