"""A user's data file read as the pipeline reads its datasets, for the Python API (:mod:`privanomaly.api`, which
re-exports :func:`load`, :func:`load_csv` and :class:`Data`): a CSV, an ``.npz`` or a Parquet table parsed by the
pipeline's loaders, labels read as the pipeline reads them, the same checks of unusable data, optionally z-scored.
Errors name the file and the argument; a wrong type is a ``TypeError``."""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

FORMATS = ("csv", "npz", "parquet")
"""The formats :func:`load` reads, parsed by the pipeline's loaders (:mod:`privanomaly.datasets.loaders`)."""


@dataclass(frozen=True)
class Data:
    """A dataset ready for the mechanisms: features ``X`` (float64, z-scored unless asked otherwise), labels
    ``y`` (bool, True = anomaly/outlier), the feature names and the frame read (for selecting rows)."""

    X: np.ndarray
    y: np.ndarray
    features: list[str]
    frame: pd.DataFrame
    name: str
    fitted_on_data: tuple[str, ...] = ()
    """Preprocessing whose statistics are the data's own (``("standardisation",)`` after z-scoring)."""
    chosen: dict = field(default_factory=dict, compare=False, repr=False)
    """Parameters :func:`choose_beta_r` / :func:`choose_r` read off these data ({kind: set of values})."""


def load(path: str | os.PathLike, label: str, anomaly_values: Sequence[Any] | Any = (1,), *,
         format: str | None = None, features_key: str = "X", features: Sequence[str] | str | None = None,
         standardize: bool = True, name: str | None = None, missing: str = "error") -> Data:
    """Read a data file: a CSV, an ``.npz`` of a feature matrix (key ``features_key``, columns ``x0..x{d-1}``) and a
    label array (key ``label``), or a Parquet table - the pipeline's formats ``csv``, ``npz``, ``parquet``, parsed
    by its loaders (:func:`privanomaly.datasets.loaders.load_table`). ``format`` None: told by the file's content
    (an npz or Parquet file read as another format is an error saying which it is).

    ``label`` is the label column (a row is an anomaly iff its label is one of ``anomaly_values``, a value or a
    list; compared as numbers in a numeric column, else as text, as the pipeline does), ``features`` the feature
    columns (default: every other column; never the label; a column without a header name - pandas' ``to_csv``
    index - is an error then, as in the pipeline). A file that is missing, unreadable or empty is a
    ``ValueError`` naming it. Features must be numbers (errors name the column and row); a row without a label
    is an error, an empty feature cell is an error (``missing="error"``) or drops its row (``missing="drop"``,
    the pipeline's ``preprocess.missing: drop``: each row is kept or dropped on its own cells, so no statistic of
    the data is read); ``Data.frame`` holds the rows kept. ``standardize`` z-scores the features (constant
    columns become 0), as the pipeline's ``preprocess.standardize`` does. A dataset with fewer than 2 rows, one
    label only (the message lists the label values found) or identical rows is an error naming it."""
    from privanomaly.datasets.labels import label_mask

    path, fmt = _check_path(path), _check_format(format)
    anomaly_values = _as_list(anomaly_values)
    features = None if features is None else _as_list(features)
    if missing not in ("error", "drop"):
        raise ValueError(f"missing must be 'error' or 'drop', got {missing!r}")
    fmt = _file_format(path, fmt)
    df = _read_table(path, fmt, label, features_key)
    cols = _feature_columns(df, path, label, features)
    df = _labelled_rows(df, path, label, cols, missing)
    X = _feature_matrix(df, path, cols)
    y = label_mask(df[label], anomaly_values)  # as the pipeline reads labels: 1 matches 1.0 and "1"
    _check_usable(X, y, df, path, fmt, cols, label, anomaly_values, name or Path(path).stem)
    if standardize:
        X = _standardised(X, path, cols)
    return Data(X, y, [str(c) for c in cols], df, name or Path(path).stem, ("standardisation",) if standardize else ())


def load_csv(path: str | os.PathLike, label: str, anomaly_values: Sequence[Any] | Any = (1,), **options: Any) -> Data:
    """:func:`load` of a CSV (``format="csv"``); the same options."""
    return load(path, label, anomaly_values, format="csv", **options)


def _check_path(path: Any) -> Path:
    """``path`` as a Path; anything but a str or an os.PathLike is a ``TypeError`` naming the argument."""
    if isinstance(path, (bytes, bytearray)) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path (a str or a pathlib.Path), got {type(path).__name__} {path!r:.80}")
    return Path(path)


def _check_format(fmt: Any) -> str | None:
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(map(repr, FORMATS))} or None (told by the file's "
                         f"content), got {fmt!r}")
    return fmt


def _as_list(values: Any) -> list:
    """A single value (a str, a number) as a one-element list; a sequence as a list."""
    return [values] if isinstance(values, (str, bytes, int, float, np.generic)) else list(values)


def _content_format(path: Path) -> str | None:
    """"npz" or "parquet" when the file's first bytes say so (a zip of .npy members, a NumPy file, Parquet's
    magic), else None (text: read as CSV); None for a file that cannot be opened (the reader names it)."""
    import zipfile

    try:
        with open(path, "rb") as fh:
            head = fh.read(6)
        if head.startswith(b"PAR1"):
            return "parquet"
        if head == b"\x93NUMPY":
            return "npz"
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                names = zf.namelist()
            return "npz" if names and all(n.endswith(".npy") for n in names) else None
    except (OSError, zipfile.BadZipFile):
        return None
    return None


def _file_format(path: Path, fmt: str | None) -> str:
    """``fmt``, else the file's format by content; a file whose content is another binary format is an error."""
    found = _content_format(path)
    if fmt is not None and found is not None and found != fmt:
        raise ValueError(f"{path}: is {'an .npz archive' if found == 'npz' else 'a Parquet file'}, not {fmt}: read "
                         f"it with format={found!r} or format=None (the CLI's --format {found}, or no --format)")
    return fmt or found or "csv"


def _feature_columns(df: pd.DataFrame, path: Path, label: str, features: list | None) -> list:
    """The feature columns: ``features``, else every column but the label (a nameless one is an error)."""
    from privanomaly.datasets.prepare import UNNAMED

    if label not in df.columns:
        raise ValueError(f"{path}: no label column {label!r} (columns: {', '.join(map(str, df.columns))})")
    if features is not None and label in features:
        raise ValueError(f"{path}: the label column {label!r} cannot also be a feature (features={list(features)})")
    cols = list(features) if features is not None else [c for c in df.columns if c != label]
    absent = [c for c in cols if c not in df.columns]
    if absent or not cols:
        raise ValueError(f"{path}: feature columns {absent or cols} not found (columns: {', '.join(map(str, df.columns))})")
    unnamed = [c for c in cols if UNNAMED.fullmatch(str(c))]
    if features is None and unnamed:  # as the pipeline: a nameless column is never a feature by default
        raise ValueError(f"{path}: column(s) {unnamed} have no name in the header (pandas names an empty header field "
                         "'Unnamed: <position>'); such a column is often the row index written by pandas' to_csv: "
                         "list the feature columns with features=[...] (the CLI's --features), or name it in the header")
    return cols


def _labelled_rows(df: pd.DataFrame, path: Path, label: str, cols: list, missing: str) -> pd.DataFrame:
    """The rows to read: a row without a label is an error; an empty feature cell an error or its row dropped."""
    unlabelled = df[label].isna().to_numpy()
    if unlabelled.any():  # as the pipeline: a record without a label is never read as a normal one
        raise ValueError(f"{path}: label column {label!r}, data row {int(np.flatnonzero(unlabelled)[0]) + 1} is empty "
                         f"({int(unlabelled.sum())} row(s) have no label); give every row its label, or remove the "
                         "rows without one")
    empty = df[cols].isna()
    if missing == "drop":
        return df[~empty.any(axis=1).to_numpy()]
    if empty.to_numpy().any():
        row, j = (int(i[0]) for i in np.nonzero(empty.to_numpy()))
        raise ValueError(f"{path}: column {empty.columns[j]!r}, data row {row + 1} is empty (a missing value; "
                         f"{int(empty.any(axis=1).sum())} row(s) have one): drop such rows with missing='drop' (the "
                         "CLI's --missing drop), fill the cells, or leave the column out with features=[...] (the "
                         "CLI's --features)")
    return df


def _feature_matrix(df: pd.DataFrame, path: Path, cols: list) -> np.ndarray:
    """The feature columns as float64; a cell that is not a finite number is an error naming column and row."""
    X = np.empty((len(df), len(cols)))
    for j, c in enumerate(cols):
        v = pd.to_numeric(df[c], errors="coerce")
        bad = v.isna()
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise ValueError(f"{path}: column {c!r}, data row {int(df.index[row]) + 1}: {str(df[c].iloc[row])!r} is "
                             "not a number (fix the cell, or leave the column out with features=[...], the CLI's "
                             "--features)")
        X[:, j] = v.to_numpy(dtype=float)
    inf = np.isinf(X)
    if inf.any():  # as the pipeline: an infinite feature (inf, 1e400) is never read as a value
        row, j = (int(i[0]) for i in np.nonzero(inf))
        raise ValueError(f"{path}: column {cols[j]!r}, data row {int(df.index[row]) + 1}: {str(df[cols[j]].iloc[row])!r} "
                         f"is not a finite number ({int(inf.sum())} such cell(s)); fix the cell, or leave the column out "
                         "with features=[...] (the CLI's --features)")
    return X


def _label_values(column: pd.Series, most: int = 10) -> str:
    """The distinct values of a label column with their counts, e.g. ``'no' (200), 'yes' (5)``."""
    counts = column.astype("string").str.strip().value_counts(sort=False).sort_index()
    shown = ", ".join(f"{v!r} ({n})" for v, n in list(counts.items())[:most])
    return shown + (f", ... ({len(counts)} values)" if len(counts) > most else "")


def _check_usable(X: np.ndarray, y: np.ndarray, df: pd.DataFrame, path: Path, fmt: str, cols: list, label: str,
                  anomaly_values: list, name: str) -> None:
    """The pipeline's check of a dataset no analysis can use (:func:`privanomaly.datasets.schema.check_degenerate`),
    worded for the arguments of :func:`load` (the CLI's options), with the label values found."""
    from privanomaly.datasets.schema import Wording, check_degenerate

    where = {"csv": "the CSV", "npz": "the .npz", "parquet": "the Parquet file"}[fmt]
    wording = Wording(
        subject=f"{path}", stage=f"in {where}",
        labels=f"label={label!r} and anomaly_values={anomaly_values} (the CLI's --label and --anomaly-values): the "
               f"values of the label column that mark an anomaly (values found in {label!r}: "
               f"{_label_values(df[label])})",
        columns=f"features= (the CLI's --features: the feature columns) and {where}")
    check_degenerate(pd.DataFrame(X, columns=cols).assign(label=y.astype(np.int8)), name, wording)


def _standardised(X: np.ndarray, path: Path, cols: list) -> np.ndarray:
    """The pipeline's z-scores of ``X``; a column whose mean or variance overflows float64 is an error naming it."""
    from privanomaly.datasets.prepare import standardize as zscore

    with np.errstate(all="ignore"), warnings.catch_warnings():  # an overflow is reported below, in words
        warnings.simplefilter("ignore", RuntimeWarning)
        Z, _ = zscore(X)
    bad = ~np.isfinite(Z).all(axis=0)
    if bad.any():  # a mean or variance that overflows float64 (|x| near 1e308): never a column of NaN
        raise ValueError(f"{path}: column(s) {[cols[j] for j in np.flatnonzero(bad)]} cannot be standardised: "
                         "values too large for float64 arithmetic (|x| near 1e308 overflows mean/variance); "
                         "rescale them in the file, or leave them out with features=[...] (the CLI's --features)")
    return Z


def _read_table(path: Path, fmt: str, label: str, features_key: str) -> pd.DataFrame:
    """The table as the pipeline's loader of ``fmt`` reads it (a CSV as format ``csv``: a row with more or fewer
    fields than the header is an error naming its line); a file that is missing, unreadable, empty or not in
    ``fmt`` is a ``ValueError`` naming it."""
    from privanomaly.datasets.loaders import load_table, read_csv_file

    kind = "CSV" if fmt == "csv" else fmt
    try:
        if fmt == "csv":
            return read_csv_file(path, label=label)
        return load_table(path, fmt, {"features_key": features_key}, label, fix="check the file",
                          keys=("features_key (the CLI's --features-key)", "label (the CLI's --label)"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not a {kind} file") from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the file is empty (no header, no rows)") from None
    except pd.errors.ParserError as exc:
        raise ValueError(f"{path}: malformed CSV ({exc})") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte offset {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
