"""Small I/O helpers shared by the paper-A rule scripts (reading the tidy inputs they are given)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from privanomaly.paper_a.records import features_and_labels


def load_xy(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of a prepared dataset parquet (results/data/{dataset}.parquet)."""
    return features_and_labels(pd.read_parquet(path), str(path))


def load_choice(path: str | Path) -> dict:
    """The (β, r) chosen for a dataset by the selection rule; checks the keys every later rule needs."""
    with open(path, encoding="utf-8") as fh:
        choice = json.load(fh)
    for key in ("dataset", "beta", "r"):
        if key not in choice:
            raise ValueError(f"{path}: missing key {key!r} (expected the output of rule paper_a_select)")
    return choice


def concat(paths: list[str], reader=pd.read_csv) -> pd.DataFrame:
    """Concatenate per-dataset tidy tables (each already carries a ``dataset`` column)."""
    frames = [reader(p) for p in paths]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
