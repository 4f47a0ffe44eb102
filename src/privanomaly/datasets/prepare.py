"""The preprocessing steps that turn a parsed raw table into the pipeline's data schema, each recorded.

Output of :func:`preprocess`: a DataFrame of float64 feature columns plus ``label`` (int8, 1 = anomaly/outlier,
0 = normal) and the list of steps with their parameters (a dataset's whole table and provenance:
:func:`privanomaly.datasets.builder.build`; the schema's checks: :mod:`privanomaly.datasets.schema`).

Steps, always in this order (``datasets.<name>.preprocess``):

1. ``missing``      — ``error`` (default: any missing value is an error), ``drop`` (rows with a missing value
                      in any column, as is usual for UCI Adult's ``?``), or ``impute_median`` (per numeric column,
                      median over the full data; a column missing in every row must be in ``drop_columns``).
                      A ``drop`` that leaves no row or no anomaly is an error naming the dataset.
2. column selection — ``keep_columns`` (if given), minus ``drop_columns``. Every other column must be numeric:
                      a non-numeric cell is an error naming file, column and row (no column is dropped
                      unless the config asks for it).
3. ``standardize``  — z-score each column (mean 0, variance 1, ddof = 0) on the full data; constant columns
                      become 0 (noted); provenance ``fitted_on`` says the statistics are the data's (a
                      data-dependent choice outside any privacy claim: privanomaly.privacy.scope). Non-finite results (overflow) are errors, as after ``pca``.
4. ``pca``          — project on the first ``pca`` principal components (columns ``pc0..``), if set.
5. ``subsample``    — keep ``n_normal`` normal and ``n_anomaly`` anomalous rows drawn without replacement
                      (seeded: ``privanomaly.seeding.rng(seed, "subsample", name)``); original order kept.
                      Provenance ``source_rows`` = the 0-based data-row numbers in the parsed raw table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from privanomaly.seeding import rng as make_rng

# ``fitted_on`` of a step whose statistics come from the data (read by privanomaly.privacy.scope)
FITTED_ON_DATA = "all records (the released data included)"

from .validation import DataError

# the name pandas gives a column whose header field is empty
UNNAMED = re.compile(r"Unnamed: \d+")

PREPROCESS_DEFAULTS: dict[str, Any] = {
    "missing": "error",
    "keep_columns": None,
    "drop_columns": [],
    "standardize": True,
    "pca": None,
    "subsample": None,
}


def preprocess_options(pre: Mapping[str, Any] | None) -> dict[str, Any]:
    """``preprocess`` with defaults filled in (see ``PREPROCESS_DEFAULTS``)."""
    out = dict(PREPROCESS_DEFAULTS)
    out.update({k: v for k, v in (pre or {}).items()})
    return out


def handle_missing(
    df: pd.DataFrame, y: np.ndarray, rows: np.ndarray, mode: str, where: str = "", drop: Sequence[str] = (),
    source: str = "",
):
    """Step 1. Return (df, y, rows, step record).

    ``drop`` (``preprocess.drop_columns``) are columns removed in step 2 anyway: ``impute_median`` leaves them
    alone. Rows are never all dropped silently: ``drop`` leaving no row, or no anomaly, is an error. Under
    ``error`` the message names the first missing cell (its data row in ``source``, as ``select_columns`` does).
    """
    na = df.isna()
    n_cells = int(na.to_numpy().sum())
    step: dict[str, Any] = {"step": "missing", "mode": mode, "missing_cells": n_cells}
    if n_cells == 0:
        return df, y, rows, step
    if mode == "error":
        cols = [str(c) for c in df.columns[na.any().to_numpy()]][:10]
        i = int(np.flatnonzero(na.to_numpy().any(axis=1))[0])
        col = str(df.columns[int(np.flatnonzero(na.iloc[i].to_numpy())[0])])
        raise DataError(
            f"{where}preprocess.missing: {n_cells} missing values (columns {cols}), the first in column {col!r}, "
            f"data row {int(rows[i]) + 1}{' of ' + source if source else ''} (1-based, header not counted); "
            f"set preprocess.missing to 'drop' or 'impute_median'"
        )
    all_missing = [str(c) for c in df.columns if na[c].all()]
    if mode == "drop":
        keep = ~na.any(axis=1).to_numpy()
        step["rows_dropped"] = int((~keep).sum())
        left = "no row" if not keep.any() else ("no anomaly" if not y[keep].any() else "")
        if left:
            why = (
                f"column(s) {all_missing} are missing in every row"
                if all_missing
                else f"{int((~keep).sum())} of {len(keep)} rows have a missing value"
            )
            raise DataError(
                f"{where}preprocess.missing: 'drop' leaves {left} ({why}); remove such columns from the file, or "
                f"use missing: impute_median with the column(s) in preprocess.drop_columns"
            )
        return df.loc[keep].reset_index(drop=True), y[keep], rows[keep], step
    if mode == "impute_median":
        df = df.copy()
        not_asked = [c for c in all_missing if c not in set(drop or ())]
        if not_asked:
            raise DataError(
                f"{where}preprocess.missing: column(s) {not_asked} are missing in every row and cannot be imputed; "
                f"add them to {where}preprocess.drop_columns"
            )
        numeric = [
            c for c in df.columns if str(c) not in all_missing and pd.api.types.is_numeric_dtype(df[c]) and na[c].any()
        ]
        medians = df[numeric].median()
        df[numeric] = df[numeric].fillna(medians)
        step.update(columns_imputed=len(numeric), cells_imputed=int(na[numeric].to_numpy().sum()))
        return df, y, rows, step
    raise DataError(f"{where}preprocess.missing: unknown mode {mode!r}")


def _first_non_numeric(col: pd.Series) -> int | None:
    """Position of the first cell of ``col`` that is present but not a number (None if every cell is)."""
    if pd.api.types.is_bool_dtype(col) or pd.api.types.is_datetime64_any_dtype(col) \
            or pd.api.types.is_timedelta64_dtype(col) or isinstance(col.dtype, pd.PeriodDtype):
        return 0 if len(col) else None  # a date or time is not a measurement (pd.to_numeric would give ns)
    if pd.api.types.is_numeric_dtype(col):
        return None
    coerced = pd.to_numeric(col, errors="coerce")
    bad = np.flatnonzero(col.notna().to_numpy() & coerced.isna().to_numpy())
    return int(bad[0]) if len(bad) else None


def _check_column_lists(cols: list[str], keep: Sequence[str] | None, drop: Sequence[str], where: str) -> None:
    """``keep_columns`` and ``drop_columns`` name existing columns, each once."""
    for key, names in (("keep_columns", keep or []), ("drop_columns", drop or [])):
        unknown = [c for c in names if c not in cols]
        if unknown:
            raise DataError(f"{where}preprocess.{key}: no column(s) {unknown} (columns: {', '.join(cols)})")
        twice = sorted({c for c in names if list(names).count(c) > 1})
        if twice:  # keep_columns [a, a] would make column a two features (double weight in every distance)
            raise DataError(f"{where}preprocess.{key}: column(s) {twice} listed more than once; list each column once")


def _check_numeric(df: pd.DataFrame, where: str, rows: np.ndarray | None, source: str) -> None:
    """Every cell of every column is a number (or missing): the first that is not is named with its file, column,
    data row and value."""
    for c in df.columns:
        i = _first_non_numeric(df[c])
        if i is not None:
            row = int(rows[i]) if rows is not None else i
            raise DataError(
                f"{source + ': ' if source else ''}column {c!r}, data row {row + 1} (1-based, header not counted): "
                f"{str(df[c].iloc[i])!r} is not a number; fix the cell, mark it missing (see {where}preprocess.missing, "
                f"read.na_values), or drop the whole column with {where}preprocess.drop_columns: [{c}]"
            )


def select_columns(
    df: pd.DataFrame,
    keep: Sequence[str] | None,
    drop: Sequence[str],
    where: str = "",
    *,
    rows: np.ndarray | None = None,
    source: str = "",
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Step 2. Keep ``keep`` (if given), remove ``drop``; every remaining column must be numeric; return float64.

    A column is never dropped unless the config asks (``keep_columns`` / ``drop_columns``): a non-numeric
    cell is an error naming the file (``source``), the column, the data row (``rows``: 0-based row numbers
    in the parsed raw table, as in provenance ``source_rows``) and the value.
    """
    cols = [str(c) for c in df.columns]
    df = df.copy()
    df.columns = cols
    _check_column_lists(cols, keep, drop, where)
    if keep:
        df = df[list(keep)]
    df = df.drop(columns=[c for c in drop if c in df.columns])
    if df.shape[1] == 0:
        raise DataError(f"{where}preprocess: no feature column left after keep_columns/drop_columns")
    if "label" in df.columns:
        raise DataError(f"{where}preprocess: a feature column is named 'label' (reserved); add it to drop_columns")
    unnamed = [c for c in df.columns if UNNAMED.fullmatch(c)]
    if unnamed:
        raise DataError(
            f"{source + ': ' if source else ''}column(s) {unnamed} have no name in the header (pandas names an empty "
            f"header field 'Unnamed: <position>'); such a column is often the row index written by pandas' to_csv: "
            f"drop it with {where}preprocess.drop_columns: {unnamed}, or name it in the header to keep it"
        )
    _check_numeric(df, where, rows, source)
    step = {
        "step": "select_columns",
        "keep_columns": list(keep) if keep else None,
        "dropped": list(drop or []),
        "columns": list(df.columns),
    }
    out = df.apply(pd.to_numeric).astype(np.float64)
    inf = np.isinf(out.to_numpy())
    if inf.any():
        cols = [c for c, bad in zip(out.columns, inf.any(axis=0)) if bad]
        raise DataError(
            f"{where}preprocess: non-finite (infinite) values in column(s) {cols} ({int(inf.sum())} cells); "
            f"remove them from the file or drop the column(s) with preprocess.drop_columns"
        )
    return out, step


def check_finite(X: np.ndarray, columns: Sequence[str], step: str, where: str = "") -> None:
    """Raise naming the columns if preprocessing step ``step`` produced a non-finite value (e.g. overflow)."""
    bad = ~np.isfinite(X)
    if bad.any():
        cols = [str(c) for c, b in zip(columns, bad.any(axis=0)) if b]
        raise DataError(
            f"{where}preprocess.{step}: non-finite results in column(s) {cols} ({int(bad.sum())} cells): values too "
            f"large for float64 arithmetic (|x| near 1e308 overflows mean/variance); rescale the column(s) in the "
            f"file or drop them with {where}preprocess.drop_columns"
        )


def constant_columns(X: np.ndarray) -> np.ndarray:
    """The columns of ``X`` whose values are all equal (every column of an empty ``X``): exactly, not by a float
    std of 0 - the mean of n copies of 0.3 is not 0.3, so their std is ~1e-16 and z-scores by it would turn the
    column into a constant -1 or 1, or blow other rows scaled by it up to ~1e16."""
    return (X == X[:1]).all(axis=0)


def standardize(X: np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
    """Step 3. z-score every column (ddof = 0); constant columns (:func:`constant_columns`) are set to 0.

    Overflow is not hidden: another column whose mean or variance overflows gives non-finite values, which the
    caller rejects (``check_finite``), instead of a RuntimeWarning and a column of zeros.
    """
    const = constant_columns(X)
    with np.errstate(over="ignore", invalid="ignore"):
        mean = X.mean(axis=0)
        std = X.std(axis=0)
        Z = (X - mean) / np.where(const | (std == 0), 1.0, std)
    Z[:, const] = 0.0
    # an overflowed mean or variance (inf) would silently turn the column into zeros: mark it non-finite
    Z[:, ~(np.isfinite(mean) & np.isfinite(std)) & ~const] = np.nan
    return Z, {"step": "standardize", "ddof": 0, "constant_columns_set_to_0": np.flatnonzero(const).tolist()}


def pca(X: np.ndarray, n_components: int, where: str = "") -> tuple[np.ndarray, dict[str, Any]]:
    """Step 4. Project on the first ``n_components`` principal components (sklearn PCA, full SVD)."""
    from sklearn.decomposition import PCA

    if n_components > X.shape[1]:
        raise DataError(f"{where}preprocess.pca: {n_components} components asked, data has {X.shape[1]} columns")
    if n_components > X.shape[0]:
        raise DataError(f"{where}preprocess.pca: {n_components} components asked, data has {X.shape[0]} rows "
                        f"(PCA finds at most as many components as rows)")
    model = PCA(n_components=n_components, svd_solver="full")
    P = model.fit_transform(X)
    return P, {
        "step": "pca",
        "n_components": n_components,
        "explained_variance_ratio": [round(float(v), 8) for v in model.explained_variance_ratio_],
    }


def stratified_subsample(
    y: np.ndarray, n_normal: int, n_anomaly: int, rng: np.random.Generator, where: str = ""
) -> np.ndarray:
    """Step 5. Sorted row positions of ``n_normal`` label-0 and ``n_anomaly`` label-1 rows (no replacement)."""
    picks = []
    for value, n, key in ((0, n_normal, "n_normal"), (1, n_anomaly, "n_anomaly")):
        pool = np.flatnonzero(y == value)
        if n > len(pool):
            raise DataError(f"{where}preprocess.subsample.{key}: {n} requested, only {len(pool)} available")
        picks.append(rng.choice(pool, size=n, replace=False))
    return np.sort(np.concatenate(picks))


def fitted_steps(X: np.ndarray, columns: list[str], opt: Mapping[str, Any], fit: bool, where: str
                 ) -> tuple[np.ndarray, list[str], list[dict[str, Any]]]:
    """Steps 3-4, the ones that fit statistics of the data (standardisation, PCA) as ``opt`` asks: (X, its columns,
    the step records). ``fit = False`` applies neither and records each asked one with ``deferred: true``."""
    if not fit:
        steps = [{"step": "standardize", "deferred": True}] if opt["standardize"] else []
        return X, columns, steps + ([{"step": "pca", "n_components": int(opt["pca"]), "deferred": True}]
                                    if opt["pca"] else [])
    steps = []
    if opt["standardize"]:
        X, step = standardize(X)
        check_finite(X, columns, "standardize", where)
        step["constant_columns_set_to_0"] = [columns[i] for i in step["constant_columns_set_to_0"]]
        step["fitted_on"] = FITTED_ON_DATA  # its mean/std are statistics of the records it releases
        steps.append(step)
    if opt["pca"]:
        with np.errstate(over="ignore", invalid="ignore"):
            X, step = pca(X, int(opt["pca"]), where)
        columns = [f"pc{i}" for i in range(X.shape[1])]
        check_finite(X, columns, "pca", where)
        step["fitted_on"] = FITTED_ON_DATA  # its components are statistics of the records it releases
        steps.append(step)
    return X, columns, steps


def preprocess(
    features: pd.DataFrame, y: np.ndarray, pre: Mapping[str, Any] | None, seed: int, name: str, source: str = "",
    fit: bool = True,
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Apply steps 1-5 to ``features`` / ``y``; return the output frame and the list of steps applied.

    ``source`` (the raw file's path) is named in messages about a cell. Every step's result must be finite.
    ``fit = False`` gives the raw-scale table of the end-to-end private mode: the steps that fit statistics
    (median imputation, standardisation, PCA) are not applied but recorded with ``deferred: true`` (they are
    fitted on the public part, :mod:`privanomaly.privacy.public_fit`); missing cells of ``impute_median``
    stay NaN. The rows are the fitted table's, in the same order (the subsample reads labels only).
    """
    where = f"datasets.{name}."
    opt = preprocess_options(pre)
    rows = np.arange(len(features))
    steps: list[dict[str, Any]] = []
    if len(features) == 0:
        raise DataError(f"{where[:-1]}: the data has no rows{' (' + source + ')' if source else ''}")
    df, y, rows, step = handle_missing(
        features, np.asarray(y, dtype=np.int8), rows, opt["missing"], where, opt["drop_columns"], source
    )
    if not fit and opt["missing"] == "impute_median" and step.get("cells_imputed"):
        df = features  # the medians are fitted on the public part
        step = {"step": "missing", "mode": "impute_median", "missing_cells": step["missing_cells"], "deferred": True}
    steps.append(step)
    df, step = select_columns(df, opt["keep_columns"], opt["drop_columns"], where, rows=rows, source=source)
    steps.append(step)
    X, columns, fitted = fitted_steps(df.to_numpy(dtype=np.float64), list(df.columns), opt, fit, where)
    steps += fitted
    sub = opt["subsample"]
    if sub:
        idx = stratified_subsample(
            y, int(sub["n_normal"]), int(sub["n_anomaly"]), make_rng(seed, "subsample", name), where
        )
        X, y, rows = X[idx], y[idx], rows[idx]
        steps.append(
            {
                "step": "subsample",
                "n_normal": int(sub["n_normal"]),
                "n_anomaly": int(sub["n_anomaly"]),
                "seed_keys": [seed, "subsample", name],
                "source_rows": rows.tolist(),
            }
        )
    out = pd.DataFrame(X, columns=columns)
    out["label"] = np.asarray(y, dtype=np.int8)
    return out, steps
