"""The unit of work of a paper-A sweep: a chunk of grid points computed in one process.

A job start costs ~0.3-0.4 s of CPU while a grid point is milliseconds of numpy on shared ball counts, so one job
per point spends nearly all its CPU starting (benchmarks/bench_sweeps.md). Instead:

* :func:`count_tables` - one job per (sweep, batch): the ball counts of every record and absent query
  point at every (β, r) count table of the sweep (:func:`privanomaly.sweeps.spec.balls`), in one table (columns
  ``dataset``, ``ballkey``: :func:`privanomaly.sweeps.spec.ball_label`);
* :func:`batch_rows` - one job per (sweep, batch, part): the (ε, β, r, k) points of a chunk
  (:mod:`.partition`: blocks of whole ε values, at most ``points_per_job`` points), every mechanism, read
  from the counts, on each dataset of the batch (:func:`chunk_rows` for one).

A batch is one dataset, or the datasets a sweep's ``batches`` puts in the same jobs
(:func:`privanomaly.sweeps.partition.dataset_batches`).

The rows are those of :func:`privanomaly.sweeps.points.point_rows` with the grid values in front: the tidy
table (:mod:`.collect`) is byte-identical whatever the chunking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from privanomaly import experiment
from privanomaly.privacy import scope
from privanomaly.sweeps import counts, points
from privanomaly.sweeps.spec import Ball, GridPoint, ball_label, ball_of

# the columns of count_tables that chunk_rows reads by name
COUNT_COLUMNS = ("dataset", "ballkey", "kind", "label", "x_i", "B", "r")


def read_counts(path: str | Path) -> pd.DataFrame:
    """The counts table of rule ``sweep_counts`` at ``path``; one that lacks a column of :data:`COUNT_COLUMNS`
    is an error naming the file, the column and how to rebuild it."""
    return experiment.read_table(path, COUNT_COLUMNS, "the ball counts of a sweep's dataset (Parquet)",
                                 "sweep_counts", reader=pd.read_parquet)


def count_tables(dataset: str, X: np.ndarray, labels: np.ndarray, balls: Sequence[Ball], metric: str, cap: int,
                 absent: np.ndarray) -> pd.DataFrame:
    """Ball counts (:func:`privanomaly.sweeps.counts.count_table`) of ``dataset`` at every count table in ``balls``
    (:func:`privanomaly.sweeps.spec.balls`), stacked with the dataset, the table's label and its radius r: its part
    of the counts file of a (sweep, batch). Every radius is counted in one walk (``counts.count_tables_at``)."""
    radii = counts.resolve_radii(X, balls, metric)
    tables = []
    for ball, r, t in zip(balls, radii, counts.count_tables_at(X, labels, radii, metric=metric, cap=cap,
                                                               absent=absent), strict=True):
        t.insert(0, "ballkey", ball_label(ball))
        t.insert(0, "dataset", dataset)
        t["r"] = r
        t["cap"] = cap
        tables.append(t)
    return pd.concat(tables, ignore_index=True)


def chunk_rows(table: pd.DataFrame, dataset: str, pts: Sequence[GridPoint],
               mechanisms: Sequence[str], cap: int, provenance: Mapping | None = None) -> pd.DataFrame:
    """Every mechanism's rows at the points ``pts`` of a chunk (:func:`privanomaly.sweeps.partition.chunks`),
    from the counts ``table`` of ``dataset`` (:func:`count_tables`); grid columns first (dataset, beta, r_kind,
    r_spec, r, k, eps), the scope of each row's claim last (:func:`privanomaly.privacy.scope.add_sweep_columns`:
    a fraction or quantile r is read off the data; ``provenance`` of the dataset says what its preprocessing was
    fitted on)."""
    by_key = {key: t.drop(columns=["dataset", "ballkey"]).reset_index(drop=True)
              for key, t in table.groupby("ballkey", sort=False)}
    out = []
    for pt in pts:
        beta, k, eps = int(pt["beta"]), int(pt["k"]), float(pt["eps"])
        r_kind, r_value = pt["r_kind"], float(pt["r_spec"])
        key = ball_label(ball_of(beta, pt))  # the point's count table (shared by every β when r is a value)
        if key not in by_key:
            raise ValueError(f"dataset {dataset}: the sweep's counts have no table {key} for beta {beta}, r "
                             f"({r_kind}) {r_value:g} (they have {sorted(by_key)}); rerun its counts")
        t = by_key[key]
        rows = points.point_rows(t, beta, k, eps, list(mechanisms), cap)
        grid = {"dataset": dataset, "beta": beta, "r_kind": r_kind, "r_spec": r_value,
                "r": float(t["r"].iloc[0]), "k": k, "eps": eps}
        for i, (col, val) in enumerate(grid.items()):
            rows.insert(i, col, val)
        out.append(scope.add_sweep_columns(rows, "paper_a", r_kind, r_value, provenance))
    return pd.concat(out, ignore_index=True)


def batch_rows(table: pd.DataFrame, datasets: Sequence[str], pts: Sequence[GridPoint],
               mechanisms: Sequence[str], cap: int, provenances: Sequence[Mapping | None]) -> pd.DataFrame:
    """:func:`chunk_rows` of each of ``datasets`` (with its provenance, in the same order) from the counts
    ``table`` of their batch, stacked in that order."""
    parts = dict(tuple(table.groupby("dataset", sort=False)))
    missing = [d for d in datasets if d not in parts]
    if missing:
        raise ValueError(f"the counts have no rows of dataset(s) {missing} (they have {sorted(parts)}); rerun "
                         "their sweep_counts job")
    rows = [chunk_rows(parts[d], d, pts, mechanisms, cap, prov) for d, prov in zip(datasets, provenances, strict=True)]
    return pd.concat(rows, ignore_index=True)
