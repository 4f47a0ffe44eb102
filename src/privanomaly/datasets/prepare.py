"""Turn a raw file (or a generator) into the pipeline's data schema, recording every step.

Output: a DataFrame of float64 feature columns plus ``label`` (int8, 1 = anomaly/outlier, 0 = normal), and
a provenance dict (source, sha256, rows, dims, #anomalies, steps with their parameters).

Steps, always in this order (``datasets.<name>.preprocess``):

1. ``missing``      — ``error`` (default: any missing value is an error), ``drop`` (rows with a missing value
                      in any column, as is usual for UCI Adult's ``?``), or ``impute_median`` (per numeric column,
                      median over the full data; columns entirely missing are dropped).
2. column selection — ``keep_columns`` (if given), minus ``drop_columns``, minus non-numeric columns.
3. ``standardize``  — z-score each column (mean 0, variance 1, ddof = 0) on the full data; constant columns
                      become 0 (noted).
4. ``pca``          — project on the first ``pca`` principal components (columns ``pc0..``), if set.
5. ``subsample``    — keep ``n_normal`` normal and ``n_anomaly`` anomalous rows drawn without replacement
                      (seeded: ``privanomaly.seeding.rng(seed, "subsample", name)``); original order kept.
                      Provenance ``source_rows`` = the 0-based data-row numbers in the parsed raw table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from privanomaly.seeding import rng as make_rng

from . import loaders, sources, synthetic
from .validation import DataError

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


def handle_missing(df: pd.DataFrame, y: np.ndarray, rows: np.ndarray, mode: str, where: str = ""):
    """Step 1. Return (df, y, rows, step record)."""
    na = df.isna()
    n_cells = int(na.to_numpy().sum())
    step: dict[str, Any] = {"step": "missing", "mode": mode, "missing_cells": n_cells}
    if n_cells == 0:
        return df, y, rows, step
    if mode == "error":
        cols = [str(c) for c in df.columns[na.any().to_numpy()]][:10]
        raise DataError(
            f"{where}preprocess.missing: {n_cells} missing values (columns {cols}); "
            f"set preprocess.missing to 'drop' or 'impute_median'"
        )
    if mode == "drop":
        keep = ~na.any(axis=1).to_numpy()
        step["rows_dropped"] = int((~keep).sum())
        return df.loc[keep].reset_index(drop=True), y[keep], rows[keep], step
    if mode == "impute_median":
        df = df.copy()
        all_missing = [c for c in df.columns if na[c].all()]
        df = df.drop(columns=all_missing)
        numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c]) and na[c].any()]
        medians = df[numeric].median()
        df[numeric] = df[numeric].fillna(medians)
        step.update(
            columns_imputed=len(numeric),
            cells_imputed=int(na[numeric].to_numpy().sum()),
            columns_dropped_all_missing=[str(c) for c in all_missing],
        )
        return df, y, rows, step
    raise DataError(f"{where}preprocess.missing: unknown mode {mode!r}")


def select_columns(
    df: pd.DataFrame, keep: Sequence[str] | None, drop: Sequence[str], where: str = ""
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Step 2. Keep ``keep`` (if given), remove ``drop``, then remove non-numeric columns; return float64."""
    cols = [str(c) for c in df.columns]
    df = df.copy()
    df.columns = cols
    for key, names in (("keep_columns", keep or []), ("drop_columns", drop or [])):
        unknown = [c for c in names if c not in cols]
        if unknown:
            raise DataError(f"{where}preprocess.{key}: no column(s) {unknown} (columns: {', '.join(cols)})")
    if keep:
        df = df[list(keep)]
    df = df.drop(columns=[c for c in drop if c in df.columns])
    non_numeric = [
        c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c])
    ]
    df = df.drop(columns=non_numeric)
    if df.shape[1] == 0:
        raise DataError(f"{where}preprocess: no numeric feature column left after column selection")
    if "label" in df.columns:
        raise DataError(f"{where}preprocess: a feature column is named 'label' (reserved); add it to drop_columns")
    step = {
        "step": "select_columns",
        "keep_columns": list(keep) if keep else None,
        "dropped": list(drop or []),
        "dropped_non_numeric": non_numeric,
        "columns": list(df.columns),
    }
    out = df.astype(np.float64)
    inf = np.isinf(out.to_numpy())
    if inf.any():
        cols = [c for c, bad in zip(out.columns, inf.any(axis=0)) if bad]
        raise DataError(
            f"{where}preprocess: non-finite (infinite) values in column(s) {cols} ({int(inf.sum())} cells); "
            f"remove them from the file or drop the column(s) with preprocess.drop_columns"
        )
    return out, step


def standardize(X: np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
    """Step 3. z-score every column (ddof = 0); constant columns are set to 0."""
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    const = std == 0
    Z = (X - mean) / np.where(const, 1.0, std)
    Z[:, const] = 0.0
    return Z, {"step": "standardize", "ddof": 0, "constant_columns_set_to_0": np.flatnonzero(const).tolist()}


def pca(X: np.ndarray, n_components: int, where: str = "") -> tuple[np.ndarray, dict[str, Any]]:
    """Step 4. Project on the first ``n_components`` principal components (sklearn PCA, full SVD)."""
    from sklearn.decomposition import PCA

    if n_components > X.shape[1]:
        raise DataError(f"{where}preprocess.pca: {n_components} components asked, data has {X.shape[1]} columns")
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


def preprocess(
    features: pd.DataFrame, y: np.ndarray, pre: Mapping[str, Any] | None, seed: int, name: str
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Apply steps 1-5 to ``features`` / ``y``; return the output frame and the list of steps applied."""
    where = f"datasets.{name}."
    opt = preprocess_options(pre)
    rows = np.arange(len(features))
    steps: list[dict[str, Any]] = []
    df, y, rows, step = handle_missing(features, np.asarray(y, dtype=np.int8), rows, opt["missing"], where)
    steps.append(step)
    df, step = select_columns(df, opt["keep_columns"], opt["drop_columns"], where)
    steps.append(step)
    columns = list(df.columns)
    X = df.to_numpy(dtype=np.float64)
    if opt["standardize"]:
        X, step = standardize(X)
        step["constant_columns_set_to_0"] = [columns[i] for i in step["constant_columns_set_to_0"]]
        steps.append(step)
    if opt["pca"]:
        X, step = pca(X, int(opt["pca"]), where)
        columns = [f"pc{i}" for i in range(X.shape[1])]
        steps.append(step)
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


def build(
    name: str, entry: Mapping[str, Any], raw_files: Sequence[str], seed: int
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Load or generate dataset ``name`` per its config ``entry``; return (table, provenance).

    ``raw_files`` are the local paths of ``entry['files']`` (raw cache or local file), in the same order.
    """
    where = f"datasets.{name}."
    prov: dict[str, Any] = {"dataset": name, "description": entry.get("description", "")}
    if "generator" in entry:
        gen = dict(entry["generator"])
        X, y = synthetic.generate(make_rng(seed, "synthetic", name), gen)
        features = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
        prov["source"] = {"generator": gen, "seed_keys": [seed, "synthetic", name]}
        raw_rows = len(features)
    else:
        if len(raw_files) != len(entry["files"]):
            raise DataError(f"{where}files: {len(entry['files'])} configured, {len(raw_files)} given")
        spec, path = entry["files"][0], raw_files[0]
        # Downloaded files were verified by the download rule, local files were not: check both here, so
        # that provenance records the hash of the bytes actually read.
        got = sources.verify_sha256(
            path,
            spec.get("sha256"),
            what=f"{where}files[0] {path}",
            hint="replace or delete the file (a cached download is fetched again)",
        )
        table = loaders.load_table(path, entry["format"], entry.get("read"), entry["label"]["column"])
        raw_rows = len(table)
        features, y = loaders.split_label(table, entry["label"], where)
        prov["source"] = {
            "path": spec["path"],
            "url": spec.get("url"),
            "homepage": entry.get("homepage"),
            "sha256": got,
            "format": entry["format"],
            "read": dict(entry.get("read") or {}),
            "label": dict(entry["label"]),
        }
        if "preamble_lines" in table.attrs:
            prov["source"]["preamble_lines"] = table.attrs["preamble_lines"]
    raw_dims = features.shape[1]
    out, steps = preprocess(features, y, entry.get("preprocess"), seed, name)
    prov.update(
        raw_rows=int(raw_rows),
        raw_columns=int(raw_dims),
        rows=int(len(out)),
        dims=int(out.shape[1] - 1),
        n_anomalies=int(out["label"].sum()),
        columns=[c for c in out.columns if c != "label"],
        steps=steps,
        seed=seed,
    )
    return out, prov


def check_schema(df: pd.DataFrame, where: str = "") -> None:
    """Raise ``DataError`` unless ``df`` has float64 features and an int8 0/1 ``label`` column (the data schema)."""
    if "label" not in df.columns:
        raise DataError(f"{where}: no 'label' column")
    if df["label"].dtype != np.int8 or not df["label"].isin([0, 1]).all():
        raise DataError(f"{where}: 'label' must be int8 with values 0/1")
    bad = [c for c in df.columns if c != "label" and df[c].dtype != np.float64]
    if bad:
        raise DataError(f"{where}: feature columns must be float64, got {bad}")
    if not np.isfinite(df.drop(columns="label").to_numpy()).all():
        raise DataError(f"{where}: non-finite feature values")
