"""Small readers shared by the paper-B scripts (the data schema of docs/CONVENTIONS.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd


def load_xy(path: str | Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Features (float64), labels (int, 1 = outlier) and feature names of a ``results/data`` parquet."""
    df = pd.read_parquet(path)
    if "label" not in df.columns:
        raise ValueError(f"{path}: no 'label' column (expected feature columns + label, 1 = outlier)")
    features = [c for c in df.columns if c != "label"]
    if not features:
        raise ValueError(f"{path}: no feature columns")
    X = df[features].to_numpy(dtype=float)
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{path}: feature values must be finite")
    y = df["label"].to_numpy().astype(int)
    if not set(np.unique(y)) <= {0, 1}:
        raise ValueError(f"{path}: label must be 0/1, got {sorted(set(np.unique(y)))}")
    return X, y, [str(c) for c in features]


def read_choice(path: str | Path) -> dict:
    """The tuning result (``paper_b_tune_r``'s JSON): the r every later rule uses, and how it was chosen."""
    with open(path, encoding="utf-8") as fh:
        choice = json.load(fh)
    if "r" not in choice or not choice["r"] > 0:
        raise ValueError(f"{path}: expected a positive 'r', got {choice.get('r')!r}")
    return choice
