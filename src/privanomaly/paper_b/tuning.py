"""Tuning the radius r of paper B by the detection accuracy of eq. (53) (Section 6.2, Tables 1-2).

The paper: "For each dataset, we tuned the radius r so that the Accuracy given by eq. (53) is maximized",
Accuracy = (TP + TN) / (TP + FP + FN + TN), where "true" = the instance is detected as a distance outlier
(Def. 8: fewer than k other records within distance r) and the ground truth is the label (1 = outlier).
The search grid and the tie-break are not stated; both are config keys here.

A record is a distance outlier at radius r iff the distance to its k-th nearest *other* record exceeds r
(with the core's closed-ball tolerance, :data:`privanomaly.outliers.distance.RADIUS_RTOL`),
so one k-NN query per space gives the prediction for every r of the grid at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree

from privanomaly.outliers.distance import RADIUS_RTOL
from privanomaly.sp.balls import unit_scale
from privanomaly.sp.knn import knn_distances

SPACES = ("full", "any_1d", "mean_1d")
TIE_BREAKS = ("smallest", "largest", "median")


def r_grid(spec: dict) -> np.ndarray:
    """The r values of a ``{min, max, num, scale}`` config entry (scale ``log`` or ``linear``)."""
    lo, hi, num, scale = float(spec["min"]), float(spec["max"]), int(spec["num"]), spec.get("scale", "log")
    if not (0 <= lo <= hi) or num < 1:
        raise ValueError(f"r_grid: need 0 <= min <= max and num >= 1, got {spec!r}")
    if scale == "log":
        if lo <= 0:
            raise ValueError(f"r_grid: a log grid needs min > 0, got {spec!r}")
        return np.geomspace(lo, hi, num)
    if scale == "linear":
        return np.linspace(lo, hi, num)
    raise ValueError(f"r_grid.scale: expected 'log' or 'linear', got {scale!r}")


def kth_neighbour_distance(X: np.ndarray, k: int, S: tuple[int, ...] | None = None) -> np.ndarray:
    """Distance from each record to its k-th nearest other record under dist_S (paper B, Section 3.1).

    dist_S(x, y) = sqrt(sum_{i in S} (x_i - y_i)^2 / |S|); duplicates are other records at distance 0.
    Returns +inf where fewer than k other records exist.
    """
    X = np.asarray(X, dtype=float)
    cols = list(range(X.shape[1])) if S is None else list(S)
    Z = X[:, cols] / np.sqrt(len(cols))
    n = len(Z)
    if n <= k:
        return np.full(n, np.inf)
    # the query includes the record itself at distance 0, hence k + 1; on Z times a power of two (exact: the
    # same distances wherever their squares neither under- nor overflow, the right ones where they would)
    s = unit_scale(Z)
    return knn_distances(cKDTree(Z * s), Z * s, k + 1)[:, k] / s


def _confusion(dist: np.ndarray, thr: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """TP/FP/FN/TN at every threshold of ``thr`` of the prediction ``dist > thr`` (positive = outlier): the
    same float comparisons and integer counts as over the (records x radii) matrix, by binary search in each
    class's sorted distances."""
    out = {}
    for name, miss, cls in (("tp", "fn", dist[y == 1]), ("fp", "tn", dist[y != 1])):
        above = len(cls) - np.searchsorted(np.sort(cls), thr, side="right")  # #{dist > thr}
        out[name], out[miss] = above, len(cls) - above
    return {key: out[key] for key in ("tp", "fp", "fn", "tn")}


def accuracy_curve(X: np.ndarray, y: np.ndarray, k: int, radii: np.ndarray, space: str,
                   kth: Callable[[tuple[int, ...] | None], np.ndarray] | None = None) -> pd.DataFrame:
    """Eq. (53) accuracy of non-private distance-outlier detection for every r in ``radii``.

    ``space``: ``full`` - detection in the full space (Scenario 1's query); ``any_1d`` - a record is
    predicted an outlier if it is a distance outlier in at least one 1-D subspace; ``mean_1d`` - the
    confusion counts are summed over the d one-dimensional subspaces (accuracy = mean per-subspace
    accuracy). Columns: space, r, tp, fp, fn, tn, n_correct, n_total, accuracy. ``kth(S)``: the distances of
    :func:`kth_neighbour_distance` in subspace S (None: the full space), by default computed here.
    """
    y = np.asarray(y).astype(int)
    radii = np.asarray(radii, dtype=float)
    d = np.asarray(X).shape[1]
    # "dist <= r" with the core's rounding tolerance (privanomaly.outliers.distance.RADIUS_RTOL)
    thr = radii * (1.0 + RADIUS_RTOL)
    kth = kth or (lambda S: kth_neighbour_distance(X, k, S))
    if space == "full":
        counts = _confusion(kth(None), thr, y)
    elif space == "any_1d":
        kd = np.stack([kth((j,)) for j in range(d)], axis=1)
        counts = _confusion(kd.max(axis=1), thr, y)
    elif space == "mean_1d":
        parts = [_confusion(kth((j,)), thr, y) for j in range(d)]
        counts = {key: sum(p[key] for p in parts) for key in parts[0]}
    else:
        raise ValueError(f"space: expected one of {SPACES}, got {space!r}")
    df = pd.DataFrame({"space": space, "r": radii, **{key: v.astype(np.int64) for key, v in counts.items()}})
    df["n_correct"] = df["tp"] + df["tn"]
    df["n_total"] = df["tp"] + df["fp"] + df["fn"] + df["tn"]
    df["accuracy"] = df["n_correct"] / df["n_total"]
    return df


def accuracy_curves(X: np.ndarray, y: np.ndarray, k: int, radii: np.ndarray,
                    spaces: tuple[str, ...] = SPACES) -> list[pd.DataFrame]:
    """:func:`accuracy_curve` in each of ``spaces``, the k-NN distances of each subspace computed once (``any_1d``
    and ``mean_1d`` read the same d one-dimensional ones)."""
    memo: dict[tuple[int, ...] | None, np.ndarray] = {}

    def kth(S: tuple[int, ...] | None) -> np.ndarray:
        if S not in memo:
            memo[S] = kth_neighbour_distance(X, k, S)
        return memo[S]

    return [accuracy_curve(X, y, k, radii, space, kth) for space in spaces]


@dataclass(frozen=True)
class Selection:
    """The tuned radius and how it was chosen."""

    r: float
    accuracy: float
    n_maximisers: int
    r_max_lo: float
    r_max_hi: float


def select_r(curve: pd.DataFrame, tie_break: str = "smallest") -> Selection:
    """The accuracy-maximising r of ``curve`` (one space); ties compared on exact integer counts.

    ``tie_break``: ``smallest`` / ``largest`` r among the maximisers, or ``median`` (the lower middle one
    of the maximisers sorted by r) - deterministic in every case.
    """
    if curve.empty:
        raise ValueError("select_r: empty accuracy curve (empty r grid?)")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break: expected one of {TIE_BREAKS}, got {tie_break!r}")
    c = curve.sort_values("r", kind="stable").reset_index(drop=True)
    # exact comparison: accuracy = n_correct / n_total with the same n_total for every r
    best = c["n_correct"].max()
    winners = c[c["n_correct"] == best]
    idx = {"smallest": 0, "largest": len(winners) - 1, "median": (len(winners) - 1) // 2}[tie_break]
    row = winners.iloc[idx]
    return Selection(
        r=float(row["r"]),
        accuracy=float(row["accuracy"]),
        n_maximisers=int(len(winners)),
        r_max_lo=float(winners["r"].min()),
        r_max_hi=float(winners["r"].max()),
    )


def choice_at(X: np.ndarray, y: np.ndarray, k: int, r: float, space: str) -> dict:
    """The tuning record of a *given* r (the paper's printed one): eq. (53) accuracy and confusion
    counts there, in the same ``space`` as our tuning; same keys as the tuned record where they apply."""
    if not (r > 0 and np.isfinite(r)):
        raise ValueError(f"r: expected a positive finite radius, got {r!r}")
    row = accuracy_curve(X, y, k, np.array([float(r)]), space).iloc[0]
    return {
        "space": space,
        "k": int(k),
        "r": float(r),
        "accuracy": float(row["accuracy"]),
        **{c: int(row[c]) for c in ("tp", "fp", "fn", "tn")},
        "N": int(len(y)),
        "d": int(np.asarray(X).shape[1]),
        "n_outliers": int(np.asarray(y).astype(int).sum()),
    }
