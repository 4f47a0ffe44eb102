"""The label column of a raw table: which raw values mean anomaly (1) and normal (0), per ``datasets.<name>.label``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .rawtext import separator_hint
from .validation import DataError


# YAML 1.1 (the config's loader) reads these words as booleans: `anomaly_values: [yes]` arrives as True
YAML_BOOL_WORDS = {
    True: ("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"),
    False: ("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"),
}


def label_mask(values: pd.Series, wanted: Sequence[Any]) -> np.ndarray:
    """Boolean mask of ``values`` equal to any of ``wanted`` (numeric compare for numeric columns, else text).

    A boolean in ``wanted`` is what YAML made of a word such as ``yes``/``no``/``on``/``off``/``true``: it
    matches each of those words in a text column (and True/False in a boolean one).
    """
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        nums = []
        for w in wanted:
            try:
                nums.append(float(w))
            except (TypeError, ValueError):
                continue
        return np.isin(values.to_numpy(dtype=np.float64), np.asarray(nums, dtype=np.float64))
    texts = [str(w).strip() for w in wanted]
    for flag in (True, False):
        if any(isinstance(w, (bool, np.bool_)) and bool(w) is flag for w in wanted):
            texts += YAML_BOOL_WORDS[flag]
    text = values.astype("string").str.strip()
    mask = text.isin(texts).fillna(False).to_numpy(dtype=bool, copy=True)
    nums = [float(w) for w in wanted if isinstance(w, (int, float)) and not isinstance(w, (bool, np.bool_))]
    if nums and not pd.api.types.is_bool_dtype(values):  # a number matches its other spellings (1 and "1.0")
        as_number = pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        mask |= np.isin(as_number, np.asarray(nums, dtype=np.float64))
    if pd.api.types.is_bool_dtype(values):  # a boolean label (e.g. an npz's y.astype(bool)): True is 1, False 0
        mask |= label_mask(values.astype(np.int8), [w for w in wanted if not isinstance(w, str)])
    return mask


def _separator_hint(df: pd.DataFrame, where: str, source: str) -> str:
    """For a table read as one column whose text holds another separator (a ``;``- or tab-separated file read with
    the default ``,``): the ``read.sep`` to set; else ''."""
    if df.shape[1] != 1:
        return ""
    return separator_hint(str(df.columns[0]) + (" " + str(df.iloc[0, 0]) if len(df) else ""), where,
                          f"{source or 'the file'} was read as a single column")


def split_label(
    df: pd.DataFrame, label: Mapping[str, Any], where: str = "", source: str = ""
) -> tuple[pd.DataFrame, np.ndarray]:
    """Separate the label column; return (other columns, int8 labels with 1 = anomaly/outlier).

    ``label.anomaly_values`` are the raw values meaning anomaly; with ``label.normal_values`` any other value
    is an error (guards against typos such as ``<=50k``). A label with no anomaly at all is an error too.
    ``source`` (the raw file) is named in the message about a row without a label.
    """
    col = label["column"]
    if isinstance(col, int) and col not in df.columns and not 0 <= col < len(df.columns):
        raise DataError(f"{where}label.column: index {col} is outside the {len(df.columns)} columns of the file "
                        f"(0-based: 0..{len(df.columns) - 1}); give the label's index or its name"
                        f"{_separator_hint(df, where, source)}")
    name = df.columns[col] if isinstance(col, int) and col not in df.columns else str(col)
    if name not in df.columns:
        raise DataError(f"{where}label.column: no column {col!r} (columns: {', '.join(map(str, df.columns[:12]))}...)"
                        f"{_separator_hint(df, where, source)}")
    raw = df[name]
    if raw.isna().any():
        first = int(np.flatnonzero(raw.isna().to_numpy())[0]) + 1
        raise DataError(f"{where}label.column {name!r}: {int(raw.isna().sum())} row(s) have no label (the first: data "
                        f"row {first}{' of ' + source if source else ''}, 1-based, header not counted); give every "
                        "row its label, or remove the rows without one")
    is_anom = label_mask(raw, label["anomaly_values"])
    if label.get("normal_values") is not None:
        is_norm = label_mask(raw, label["normal_values"])
        both = is_anom & is_norm
        if both.any():
            seen = sorted(map(str, raw[both].unique()))[:10]
            raise DataError(f"{where}label: values {seen} are in both anomaly_values and normal_values; a value "
                            "means one label - remove it from one of the lists")
        bad = ~(is_anom | is_norm)
        if bad.any():
            seen = sorted(map(str, raw[bad].unique()))[:10]
            raise DataError(f"{where}label: values {seen} are in neither anomaly_values nor normal_values"
                            f"{_separator_hint(df, where, source)}")
    if not is_anom.any():
        seen = sorted(map(str, raw.unique()))[:10]
        raise DataError(
            f"{where}label.anomaly_values: {list(label['anomaly_values'])} match no row of {name!r} "
            f"(values seen: {seen}){_separator_hint(df, where, source)}"
        )
    return df.drop(columns=[name]), is_anom.astype(np.int8)
