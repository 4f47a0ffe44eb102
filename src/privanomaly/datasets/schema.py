"""The pipeline's data schema - float64 features and an int8 0/1 ``label`` (:func:`check_schema`) - and the
prepared datasets no analysis can use (:func:`check_degenerate`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .validation import DataError


@dataclass(frozen=True)
class Wording:
    """What :func:`check_degenerate`'s messages name: the dataset (``subject``), where its rows stand (``stage``),
    what to check when one class is missing (``labels``) and when all rows are identical (``columns``)."""

    subject: str
    stage: str
    labels: str
    columns: str


def pipeline_wording(name: str) -> Wording:
    """The pipeline's wording: the config keys of ``datasets.<name>``."""
    key = f"datasets.{name}"
    return Wording(key, "after preprocessing", f"{key}.label (column, positive values) and {key}.preprocess.subsample",
                   f"{key}.preprocess (keep_columns/drop_columns) and the file")


def check_degenerate(df: pd.DataFrame, name: str, wording: Wording | None = None) -> list[str]:
    """Stop on a prepared dataset no analysis of either paper can use, naming it; return warnings for one the
    analyses run on but read with care (logged too).

    Errors: fewer than 2 rows (every notion of both papers compares a record with others: balls B(x, r),
    (k+1)-NN distances); one label only (paper A selects (β, r) by F1 and paper B tunes r by accuracy against
    the labels, both undefined without both classes); all rows identical (every distance is 0, so every
    radius flags all records or none). Warning: anomalies are the majority (the papers' anomalies are rare).
    The messages name the config keys of ``datasets.<name>`` unless ``wording`` says otherwise (the Python API).
    """
    w = wording or pipeline_wording(name)
    key = w.subject
    n = len(df)
    if n < 2:
        raise DataError(f"{key}: {n} row(s) {w.stage}; at least 2 are needed (every analysis compares a "
                        "record with the others)")
    y = df["label"].to_numpy()
    n_anom = int(y.sum())
    if n_anom in (0, n):
        which = "no anomaly (every label is 0)" if n_anom == 0 else "only anomalies (every label is 1)"
        raise DataError(f"{key}: {which} in {n} rows {w.stage}; the (β, r) selection (F1) and paper B's "
                        f"r tuning (accuracy) need both classes: check {w.labels}")
    X = df.drop(columns="label").to_numpy()
    if X.shape[1] == 0 or bool(np.all(X == X[0])):
        raise DataError(f"{key}: all {n} rows are identical {w.stage} (every distance is 0, so no "
                        f"record differs from another); check {w.columns}")
    warnings = []
    if 2 * n_anom > n:
        warnings.append(f"{key}: anomalies are the majority ({n_anom} of {n} rows have label 1); both papers "
                        "take anomalies to be rare - check the label's positive values")
    for msg in warnings:
        logging.getLogger("privanomaly").warning(msg)  # in the prepare job's log
    return warnings


def check_schema(df: pd.DataFrame, where: str = "", missing: bool = False) -> None:
    """Raise ``DataError`` unless ``df`` has float64 features and an int8 0/1 ``label`` column (the data schema);
    ``missing``: NaN cells allowed (the raw-scale table of a deferred median imputation, ``build(fit=False)``)."""
    if "label" not in df.columns:
        raise DataError(f"{where}: no 'label' column")
    if df["label"].dtype != np.int8 or not df["label"].isin([0, 1]).all():
        raise DataError(f"{where}: 'label' must be int8 with values 0/1")
    bad = [c for c in df.columns if c != "label" and df[c].dtype != np.float64]
    if bad:
        raise DataError(f"{where}: feature columns must be float64, got {bad}")
    X = df.drop(columns="label").to_numpy()
    if not (np.isfinite(X) | (missing & np.isnan(X))).all():
        raise DataError(f"{where}: non-finite feature values")
