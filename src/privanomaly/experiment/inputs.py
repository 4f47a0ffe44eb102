"""Reading what the rules of both papers are given: a prepared dataset (``results/data/{dataset}.parquet``,
the data schema of docs/CONVENTIONS.md: float feature columns + ``label``, 1 = anomaly/outlier), the JSON of
the parameters a tuning rule chose (``paper_a_select``'s (β, r), ``paper_b_tune_r``'s r), and per-dataset
tidy tables to concatenate."""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Iterable, NamedTuple

import numpy as np
import pandas as pd


class Dataset(NamedTuple):
    """Features (float64, one row per record), labels (int64, 1 = anomaly/outlier) and feature names."""

    X: np.ndarray
    y: np.ndarray
    features: list[str]


def split_frame(df: pd.DataFrame, name: str = "dataset") -> Dataset:
    """Split a dataset frame (feature columns + ``label``) into a :class:`Dataset`, with an error naming
    ``name`` when the frame does not follow the data schema."""
    if "label" not in df.columns:
        raise ValueError(f"{name}: no 'label' column (expected feature columns + label, 1 = outlier; "
                         f"columns: {list(df.columns)[:8]}...)")
    features = [c for c in df.columns if c != "label"]
    if not features:
        raise ValueError(f"{name}: no feature columns")
    X = df[features].to_numpy(dtype=float)
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name}: feature values must be finite")
    y = df["label"].to_numpy().astype(np.int64)
    if not set(np.unique(y)) <= {0, 1}:
        raise ValueError(f"{name}: label must be 0/1, got {sorted(set(np.unique(y).tolist()))}")
    return Dataset(X, y, [str(c) for c in features])


def read_csv(path: str | Path, **kwargs) -> pd.DataFrame:
    """A CSV table this workflow wrote (:func:`privanomaly.io.write_table`: every line, the last one too, ends
    with a newline). A file whose last byte is not a newline was cut mid-row - a copy or write interrupted, a
    full disk - and is a ``ValueError``: pandas would read the cut row with NaN and the job carry on."""
    with open(path, "rb") as fh:
        size = fh.seek(0, 2)
        cut = False
        if size:  # an empty file is left to pandas (EmptyDataError)
            fh.seek(size - 1)
            cut = fh.read(1) != b"\n"
    if cut:
        raise ValueError(f"the file ends in the middle of a row (its last line has no newline, {size} bytes): "
                         "it was cut short")
    return pd.read_csv(path, **kwargs)


def read_output(path: str | Path, reader, what: str):
    """``reader(path)``; a file of this workflow that is missing or cannot be read (truncated, emptied, not its
    format) is a ``ValueError`` naming it, saying what it should be and how to rebuild it."""
    try:
        return reader(path)
    except FileNotFoundError:
        raise ValueError(f"{path}: not found (expected {what}); rerun the workflow to rebuild it") from None
    except (OSError, ValueError, pd.errors.EmptyDataError) as exc:  # ArrowInvalid, JSONDecodeError: ValueError
        raise ValueError(f"{path}: cannot be read as {what} ({type(exc).__name__}: {exc}); the file is damaged - "
                         "delete it and rerun the workflow, which rebuilds it") from None


def _load_json(path: str | Path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def read_json(path: str | Path, what: str):
    """A JSON output of this workflow (:func:`read_output`: missing or damaged is an error naming it)."""
    return read_output(path, _load_json, what)


def _looked_up(exc: BaseException) -> tuple[Any, list[str] | None] | None:
    """(column, columns of the table it was looked up in, when known) of a failed column lookup: pandas'
    ``KeyError`` of ``df[col]`` or the ``AttributeError`` of an ``itertuples`` row; None for anything else (a
    ``KeyError`` of a dict of the caller)."""
    if isinstance(exc, AttributeError) and type(getattr(exc, "obj", None)).__name__ == "Pandas":
        fields = list(exc.obj._fields)
        return exc.name, fields[1:] if fields[:1] == ["Index"] else fields
    if not (isinstance(exc, KeyError) and exc.args):
        return None
    tb, marker = exc.__traceback__, f"{os.sep}pandas{os.sep}"
    while tb is not None:
        if marker in tb.tb_frame.f_code.co_filename:
            table = tb.tb_frame.f_locals.get("self")
            return exc.args[0], list(map(str, table.columns)) if isinstance(table, pd.DataFrame) else None
        tb = tb.tb_next
    return None


def column_error(exc: BaseException, frames: Mapping[str, Any], what: str) -> ValueError | None:
    """What to raise instead of ``exc`` when it is a column lookup that failed on tables read from files -
    pandas' ``KeyError`` for ``df[col]`` or the ``AttributeError`` of an ``itertuples`` row - and some of
    ``frames`` ({path: what was read from it}) lack that column: a ``ValueError`` naming those files, the
    column, ``what`` reads it and how to rebuild them. None when ``exc`` is about something else."""
    looked = _looked_up(exc)
    if looked is None:
        return None
    column, columns = looked
    lacking = {str(p): t for p, t in frames.items() if isinstance(t, pd.DataFrame) and column not in t.columns}
    same = [p for p, t in lacking.items() if columns is not None and list(map(str, t.columns)) == columns]
    lacking = same or (list(lacking) if len(lacking) == 1 else [])  # the table looked in, else the only one
    if not lacking:
        return None
    return ValueError(f"{', '.join(lacking)}: no column {column!r}, which {what} reads; the file is damaged - "
                      "delete it and rerun the workflow, which rebuilds it")


def read_table(path: str | Path, columns: Iterable[str], what: str, rule: str, reader=read_csv) -> pd.DataFrame:
    """One table of this workflow (written by ``rule``) read with ``reader``, checked to have every column a
    script reads by name: a missing or unreadable file, or one that lacks a column, is a ``ValueError`` naming the
    file, the columns and how to rebuild it (never a bare ``KeyError`` inside the library)."""
    columns = list(columns)
    df = read_output(path, reader, what)
    lacks = [c for c in columns if c not in df.columns]
    if lacks:
        raise ValueError(f"{path}: no column {', '.join(repr(c) for c in lacks)} (expected {what} with columns "
                         f"{columns}; it has {list(df.columns)}); the file is damaged - delete it and rerun "
                         f"the workflow, whose rule {rule} rebuilds it")
    return df


def load_dataset(path: str | Path) -> Dataset:
    """The prepared dataset parquet at ``path`` (``results/data/{dataset}.parquet``) as a :class:`Dataset`."""
    return split_frame(read_output(path, pd.read_parquet, "a prepared dataset (Parquet)"), str(path))


def read_choice(path: str | Path, *keys: str) -> dict:
    """The JSON of the parameters a tuning rule chose for one dataset: paper A's ``paper_a_select`` (β and r:
    ``read_choice(path, "beta")``), paper B's ``paper_b_tune_r``/``paper_b_paper_r`` (r).

    Checks that ``dataset``, ``r`` and every further key of ``keys`` are there and that r is a finite radius ≥ 0.
    """
    choice = read_json(path, "the JSON of a tuning rule")
    if not isinstance(choice, dict):
        raise ValueError(f"{path}: expected a JSON object (the output of a tuning rule), got {type(choice).__name__}")
    for key in ("dataset", "r", *keys):
        if key not in choice:
            raise ValueError(f"{path}: missing key {key!r} (expected the output of rule paper_a_select, "
                             "paper_b_tune_r or paper_b_paper_r)")
    r = choice["r"]
    if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or r < 0:
        raise ValueError(f"{path}: expected a finite radius r >= 0, got {r!r}")
    return choice


def concat(paths: Iterable[str | Path], reader=read_csv, what: str = "a tidy table of this workflow",
           ordered: bool = True) -> pd.DataFrame:
    """Concatenate per-dataset tidy tables (each already carries a ``dataset`` column); empty if none.

    The tables are one rule's output for several datasets, so they have the same columns: one that lacks a
    column (or has another) is damaged - an error naming it, never rows of NaN that a table or figure drops.
    ``ordered=False``: the same columns in any order (tables whose columns a job writes in the order it meets them).
    """
    paths = list(paths)
    frames = [read_output(p, reader, what) for p in paths]
    columns = [tuple(f.columns) if ordered else tuple(sorted(map(str, f.columns))) for f in frames]
    if len(set(columns)) > 1:  # the damaged file is the odd one: most tables agree; of two, a lost column is the damage
        votes = Counter(columns)
        ref = max(votes, key=lambda c: (votes[c], len(c)))
        good = paths[columns.index(ref)]
        i = next(i for i, c in enumerate(columns) if c != ref)
        lacks = [c for c in ref if c not in columns[i]]
        extra = [c for c in columns[i] if c not in ref]
        raise ValueError(f"{paths[i]}: its columns differ from those of {good} (the same rule's table for another "
                         f"dataset): lacks {lacks}, has {extra} besides, order {list(frames[i].columns)}; the file is "
                         "damaged - delete it and rerun the workflow, which rebuilds it")
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
