"""Exact error and precision/recall summaries from closed-form output probabilities (paper A, Sec. 5).

No sampling: for every record the probability that a mechanism errs is known exactly
(:mod:`privanomaly.sp.mechanisms`), so expectations over the mechanism's randomness are exact sums.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._util import as_int_array
from .mdd import is_anomaly, is_k_sensitive, mdd_dp, mdd_sp_lower
from .mechanisms import construction1_error

__all__ = [
    "expected_errors",
    "class_mean_errors",
    "random_record_error",
    "random_anomaly_error",
    "ranked_errors",
    "expected_precision_recall",
]


def expected_errors(x_i, B, beta, k, eps, *, cap=None) -> pd.DataFrame:
    """Per-record table: x_i, B, g, sensitive, delta_G, L, dp_error, sp_error.

    dp_error: Pareto-optimal eps-DP mechanism (Theorem 4.4); sp_error: (eps, k)-SP mechanism (Theorem 4.6).
    ``eps`` is a scalar. With ``cap`` (B = min(B, cap)), delta_G and L are min(., cap - beta): the
    errors are those of the (still exactly private) capped mechanisms, within exp(-eps(cap-beta))
    of the uncapped ones.
    """
    x_i = np.atleast_1d(as_int_array(x_i, "x_i"))
    B = np.atleast_1d(as_int_array(B, "B"))
    x_i, B = np.broadcast_arrays(x_i, B)
    dG = mdd_dp(x_i, B, beta, cap=cap)
    L = mdd_sp_lower(x_i, B, beta, k, cap=cap)
    return pd.DataFrame(
        {
            "x_i": x_i,
            "B": B,
            "g": is_anomaly(x_i, B, beta),
            "sensitive": is_k_sensitive(B, beta, k),
            "delta_G": dG,
            "L": L,
            "dp_error": construction1_error(dG, eps),
            "sp_error": construction1_error(L, eps),
        }
    )


def _weights(df: pd.DataFrame, weights) -> np.ndarray:
    if weights is None:
        return np.ones(len(df))
    w = np.asarray(weights, dtype=float)
    if w.shape != (len(df),) or np.any(w < 0):
        raise ValueError("weights must be one non-negative number per row")
    return w


def class_mean_errors(df: pd.DataFrame, columns=("dp_error", "sp_error"), weights=None) -> pd.DataFrame:
    """Mean error per class (index 'anomaly' = g == 1, 'normal' = g == 0) with record counts.

    ``weights``: e.g. multiplicities when ``df`` has one row per distinct value.
    """
    w = _weights(df, weights)
    rows = {}
    for name, mask in (("anomaly", df["g"].to_numpy() == 1), ("normal", df["g"].to_numpy() == 0)):
        ww = w[mask]
        tot = ww.sum()
        row = {"n": tot}
        for c in columns:
            row[c] = float(np.dot(ww, df[c].to_numpy()[mask]) / tot) if tot > 0 else np.nan
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def random_record_error(df: pd.DataFrame, columns=("dp_error", "sp_error"), weights=None) -> pd.Series:
    """Error of the AIQ for a record drawn uniformly at random from the dataset (Table 2, 'random').

    = mean of the per-record errors: exact P(error) when the record and the mechanism are both random.
    """
    w = _weights(df, weights)
    return pd.Series({c: float(np.dot(w, df[c].to_numpy()) / w.sum()) for c in columns})


def random_anomaly_error(df: pd.DataFrame, columns=("dp_error", "sp_error"), weights=None) -> pd.Series:
    """Error of the AIQ for an anomaly (g = 1) drawn uniformly at random (Table 2, 'anomaly')."""
    w = _weights(df, weights) * (df["g"].to_numpy() == 1)
    if w.sum() == 0:
        return pd.Series({c: np.nan for c in columns})
    return pd.Series({c: float(np.dot(w, df[c].to_numpy()) / w.sum()) for c in columns})


def ranked_errors(df: pd.DataFrame, column: str = "sp_error", cls: str | None = "anomaly") -> pd.DataFrame:
    """Errors of one class sorted in decreasing order with rank 1..n (Figure 'rank error' panels)."""
    sub = df
    if cls == "anomaly":
        sub = df[df["g"] == 1]
    elif cls == "normal":
        sub = df[df["g"] == 0]
    elif cls is not None:
        raise ValueError("cls must be 'anomaly', 'normal' or None")
    out = sub.sort_values(column, ascending=False, kind="stable").reset_index(drop=False)
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    return out


def expected_precision_recall(p_one, truth, p_zero=None) -> dict:
    """Expected confusion counts and precision/recall of a randomised identifier, exactly.

    E[TP] = sum over truth = 1 of P(out = 1); E[FP] = sum over truth = 0 of P(out = 1);
    E[FN] = sum over truth = 1 of P(out = 0) (``p_zero`` if given, to keep tiny tails exact).
    recall = E[TP] / #positives is the exact expected recall (fixed denominator).
    precision is reported as the *ratio of expectations* E[TP] / (E[TP] + E[FP]), not E[TP/(TP+FP)]
    (which is undefined when nothing is flagged); it is the precision of the pooled answers of many
    independent runs. NaN when the denominator is 0.
    """
    p1 = np.asarray(p_one, dtype=float)
    t = np.asarray(truth)
    if p1.shape != t.shape:
        raise ValueError("p_one and truth must have the same shape")
    p0 = 1.0 - p1 if p_zero is None else np.asarray(p_zero, dtype=float)
    pos = t == 1
    tp = float(p1[pos].sum())
    fp = float(p1[~pos].sum())
    fn = float(p0[pos].sum())
    tn = float(p0[~pos].sum())
    n_pos = int(pos.sum())
    prec = tp / (tp + fp) if tp + fp > 0 else np.nan
    rec = tp / n_pos if n_pos > 0 else np.nan
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "n_pos": n_pos, "precision": prec, "recall": rec}
