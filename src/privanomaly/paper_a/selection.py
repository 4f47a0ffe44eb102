"""Deterministic (β, r) selection protocol for paper A's (β, r)-anomalies (Def. 2.2).

The paper selects β and r with a protocol in its appendix that is not in our source text (NOTES.md, 2A).
We use an explicit, documented replacement:

1. For every candidate β (a small integer from config), compute for each record its distance
   d_β(i) to the (β+1)-th nearest record *counting itself and its duplicates* (KD-tree k-NN).
   Then ``B_x(i, r) <= β  ⟺  d_β(i) > r``: record i is a (β, r)-anomaly exactly when d_β(i) exceeds r.
2. Candidate radii are quantiles of d_β: for a target flagged fraction f (config grid), r is the midpoint
   between the ⌈f·n⌉-th and the next largest d_β, so about a fraction f of the records are (β, r)-anomalies
   and no record sits exactly on the boundary.
3. Every (β, f) pair is scored by the F1 of "(β, r)-anomaly" against the ground-truth labels; the chosen
   pair maximises F1. Ties (common on well-separated synthetic data, where many pairs reach F1 = 1) go to
   the *larger* β, then the smaller f: among equally accurate definitions, the one whose anomalies stay
   anomalies under the most added records (Δ_G of an anomaly is up to β + 1 − B), i.e. the most
   robustly identifiable ones — the paper's protocol aims at anomalies being "identifiable" (NOTES 2A).

Large datasets are scored on a seeded subsample of query records (their k-NN is still taken in the whole
dataset), so the protocol stays fast; the chosen r is then a quantile estimated from that subsample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree

from privanomaly.sp.balls import unit_scale
from privanomaly.sp.knn import knn_distances


def knn_radius_table(
    X: np.ndarray,
    betas: list[int],
    *,
    query_idx: np.ndarray | None = None,
    p: float = 2.0,
    workers: int = 1,
) -> np.ndarray:
    """d_β(i) for every β in ``betas`` (columns) and every query record i (rows).

    d_β(i) is the distance to the (β+1)-th closest record of X including i itself (distance 0), so that
    ``B_x(i, r) = #{j : d(i, j) <= r} <= β`` iff ``d_β(i) > r``.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or len(X) == 0:
        raise ValueError(f"expected a non-empty 2-D feature matrix, got shape {X.shape}")
    betas = [int(b) for b in betas]
    kmax = max(betas) + 1
    if kmax > len(X):
        raise ValueError(f"largest β={max(betas)} needs at least {kmax} records, dataset has {len(X)}")
    s = unit_scale(X)
    Xs = X * s
    dist = knn_distances(cKDTree(Xs), Xs, kmax, query_idx, p, workers)  # in the tree's order: the same floats
    return dist[:, betas] / s


def _check_fraction(fraction: float) -> None:
    """A flagged fraction of the selection protocol lies in (0, 1) (the config's are bounded by its schema)."""
    if not 0 < fraction < 1:
        raise ValueError(f"fraction must be in (0, 1), got {fraction}")


def radius_for_fraction(d_beta: np.ndarray, fraction: float) -> float:
    """Radius flagging about ``fraction`` of records: midpoint between consecutive distinct sorted d_β values.

    With m = max(1, round(fraction·n)) the m largest d_β exceed the returned r; when the m-th and (m+1)-th
    largest are equal, the nearest count that a gap between distinct values allows (:func:`gap_midpoint`).
    """
    s = np.sort(np.asarray(d_beta, dtype=float))[::-1]
    n = len(s)
    _check_fraction(fraction)
    m = min(max(1, int(round(fraction * n))), n - 1)
    return gap_midpoint(s, m, n)


def gap_midpoint(s: np.ndarray, m: int, n: int) -> float | None:
    """The radius flagging m of n records (d_β > r), from ``s``, the largest d_β in descending order.

    The midpoint of s[m-1] and s[m] when they differ. When they are equal (a mutual (β+1)-th neighbour pair
    has equal d_β, which then is the distance of the pair), that midpoint is a d_β itself: whether such a
    record is flagged - B ≤ β, B counting the pair at distance exactly r - would be decided by the float
    rounding of one distance kernel against another. Then the midpoint of the nearest gap between distinct
    values is taken, above or below the tied value, whichever flags a count nearer m (the fewer when both are
    as near); every value equal: that value. None when ``s`` (shorter than n) ends inside the tie.
    """
    if s[m - 1] > s[m]:
        return float((s[m - 1] + s[m]) / 2.0)
    v = s[m]
    above = int(np.searchsorted(-s, -v, side="left"))  # values > v (s descending)
    below = int(np.searchsorted(-s, -v, side="right"))  # values >= v
    if below == len(s) < n:
        return None
    gaps = ([(m - above, above, (s[above - 1] + v) / 2.0)] if above >= 1 else []) + (
        [(below - m, below, (v + s[below]) / 2.0)] if below < n else [])
    return float(min(gaps)[2]) if gaps else float(v)


METRIC_OF_P = {2.0: "euclidean", 1.0: "manhattan", float("inf"): "chebyshev"}

#: datasets smaller than this take the full k-NN table in :func:`largest_knn_radii` (it is cheap there)
FULL_KNN_BELOW = 20_000
#: about this many records (a stride sample) give the threshold of :func:`largest_knn_radii`
THRESHOLD_SAMPLE = 10_000


def largest_knn_radii(X: np.ndarray, beta: int, count: int, *, p: float = 2.0) -> np.ndarray:
    """The ``count`` largest d_β of X, descending: exactly ``np.sort(knn_radius_table(X, [beta], p=p)[:, 0])
    [::-1][:count]`` without the k-NN query of every record.

    A threshold r0 is read off the d_β of a stride subsample; the capped ball counts of every record at
    r0 (1 - 10^-6) (:func:`privanomaly.sp.ball_counts`, cap β + 1) give the records with B <= β, a superset
    of {d_β >= r0} (fewer than β + 1 records lie closer than r0; the margin covers the two kernels'
    rounding); their d_β come from the same KD-tree query. When at least ``count`` of them are >= r0 they
    hold the ``count`` largest of all; otherwise r0 is lowered (three tries) and then every record is queried.
    """
    X = np.asarray(X, dtype=float)
    n, beta, count = len(X), int(beta), int(count)
    if not 0 < count <= n:
        raise ValueError(f"count must be in [1, {n}], got {count}")
    if n < beta + 1:
        raise ValueError(f"β={beta} needs at least {beta + 1} records, dataset has {n}")
    s = unit_scale(X)
    Xs = X * s
    tree = cKDTree(Xs)

    def d_beta(rows: np.ndarray | None) -> np.ndarray:  # queried in the tree's order: the same floats, less CPU
        return knn_distances(tree, Xs, beta + 1, rows, p)[:, beta] / s

    metric = METRIC_OF_P.get(float(p))
    if metric is not None and n >= FULL_KNN_BELOW and 4 * count <= n:
        from privanomaly import sp

        stride = max(1, n // THRESHOLD_SAMPLE)
        sub = d_beta(np.arange(0, n, stride))
        slack = 3.0 / np.sqrt(len(sub)) if stride > 1 else 0.0  # the sample's quantile error
        for factor in (2.0, 4.0, 8.0):
            level = 1.0 - min(1.0, factor * count / n + slack)
            r0 = float(np.quantile(sub, level))
            if not r0 > 0:
                break
            B = sp.ball_counts(X, r0 * (1.0 - 1e-6), metric=metric, cap=beta + 1)
            cand = np.flatnonzero(B <= beta)
            if 2 * len(cand) > n:
                break
            d = d_beta(cand)
            if np.count_nonzero(d >= r0) >= count:
                return np.sort(d)[::-1][:count]
    return np.sort(d_beta(None))[::-1][:count]


def radius_at_fraction(X: np.ndarray, beta: int, fraction: float, *, p: float = 2.0) -> float:
    """``radius_for_fraction(knn_radius_table(X, [beta], p=p)[:, 0], fraction)``, the same float, from the
    m + 1 largest d_β only (:func:`largest_knn_radii`; more when a tie runs past them)."""
    return radii_at_fractions(X, beta, [fraction], p=p)[0]


def radii_at_fractions(X: np.ndarray, beta: int, fractions, *, p: float = 2.0) -> list[float]:
    """:func:`radius_at_fraction` at each of ``fractions`` (the same floats), from one
    :func:`largest_knn_radii` search for the largest m + 1 of them."""
    n = len(X)
    for f in fractions:
        _check_fraction(f)
    if n < 2:
        raise ValueError(f"a radius at a fraction needs at least 2 records, dataset has {n}")
    ms = [min(max(1, int(round(f * n))), n - 1) for f in fractions]
    count = max(ms) + 1
    while True:  # more of the largest d_β only when a tie at a radius runs past those at hand
        top = largest_knn_radii(X, beta, count, p=p)
        radii = [gap_midpoint(top, m, n) for m in ms]
        if all(r is not None for r in radii):
            return radii
        count = min(n, 2 * count)


def f1_scores(pred: np.ndarray, labels: np.ndarray) -> tuple[float, float, float, int]:
    """(precision, recall, F1, #flagged) of a boolean prediction against 0/1 labels (0 when undefined)."""
    pred = np.asarray(pred, dtype=bool)
    labels = np.asarray(labels).astype(bool)
    tp = int(np.sum(pred & labels))
    n_pred = int(pred.sum())
    n_pos = int(labels.sum())
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_pos if n_pos else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f1, n_pred


def selection_surface(
    X: np.ndarray,
    labels: np.ndarray,
    betas: list[int],
    fractions: list[float],
    *,
    rng: np.random.Generator | None = None,
    max_query_rows: int | None = None,
    p: float = 2.0,
    workers: int = 1,
) -> pd.DataFrame:
    """Score every (β, f) candidate; one row per pair with columns
    ``beta, fraction, r, n_flagged, precision, recall, f1, n_scored``.

    A β with β + 1 > N (no (β+1)-th nearest neighbour on N records) is no candidate: it is left out of the
    surface (a small dataset under the default grid); none left is an error.
    """
    X = np.asarray(X, dtype=float)
    labels = np.asarray(labels).astype(int)
    if len(labels) != len(X):
        raise ValueError(f"{len(X)} records but {len(labels)} labels")
    if not betas or not fractions:
        raise ValueError("β grid and fraction grid must be non-empty")
    usable = [b for b in betas if int(b) + 1 <= len(X)]
    if not usable:
        raise ValueError(f"every β of {list(betas)} needs at least β+1 records, the dataset has {len(X)}: give "
                         "smaller β (paper_a.selection.betas)")
    betas = usable
    query_idx = None
    if max_query_rows is not None and len(X) > max_query_rows:
        if rng is None:
            raise ValueError("subsampled selection needs a seeded rng")
        query_idx = np.sort(rng.choice(len(X), size=max_query_rows, replace=False))
    D = knn_radius_table(X, betas, query_idx=query_idx, p=p, workers=workers)
    return surface_from_table(D, labels if query_idx is None else labels[query_idx], betas, fractions)


def surface_from_table(D: np.ndarray, lab: np.ndarray, betas: list[int], fractions: list[float]) -> pd.DataFrame:
    """:func:`selection_surface` from its (β+1)-NN distance table ``D`` (one column per β of ``betas``) and the
    labels of D's rows."""
    rows = []
    for j, beta in enumerate(betas):
        d = D[:, j]
        for f in fractions:
            r = radius_for_fraction(d, f)
            precision, recall, f1, n_flag = f1_scores(d > r, lab)
            rows.append(dict(beta=int(beta), fraction=float(f), r=r, n_flagged=n_flag,
                             precision=precision, recall=recall, f1=f1, n_scored=len(d)))
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Choice:
    beta: int
    r: float
    fraction: float
    f1: float


def choose(surface: pd.DataFrame) -> Choice:
    """The F1-maximising row; ties → larger β, then smaller fraction (deterministic; module docstring)."""
    if surface.empty:
        raise ValueError("empty selection surface")
    best = surface.sort_values(["f1", "beta", "fraction"], ascending=[False, False, True], kind="mergesort").iloc[0]
    return Choice(beta=int(best["beta"]), r=float(best["r"]), fraction=float(best["fraction"]), f1=float(best["f1"]))



@dataclass(frozen=True)
class GridEdge:
    """A chosen parameter equal to an end of its candidate grid (the F1 optimum may lie outside it)."""

    parameter: str  # "β" or "fraction"
    value: float
    end: str  # "largest" or "smallest"
    key: str  # the config key of the grid
    lo: float
    hi: float

    def message(self) -> str:
        return (f"{self.parameter} = {self.value:g} is the {self.end} candidate of {self.key} "
                f"[{self.lo:g} … {self.hi:g}]: the F1 optimum may lie outside the grid")


def grid_edges(choice: Choice, betas: list[int], fractions: list[float]) -> list[GridEdge]:
    """The chosen β and flagged fraction f that sit on an end of their candidate grids.

    A chosen β equal to the smallest or largest candidate (or f at an end of its grid) means F1 might keep
    rising outside the grid. A grid of one value fixes the parameter: never an edge.
    """
    out = []
    for sym, value, grid, key in (
        ("β", choice.beta, [int(b) for b in betas], "paper_a.selection.betas"),
        ("fraction", choice.fraction, [float(f) for f in fractions], "paper_a.selection.fractions"),
    ):
        if len(set(grid)) < 2:
            continue
        for end, bound in (("largest", max(grid)), ("smallest", min(grid))):
            if value == bound:
                out.append(GridEdge(sym, value, end, key, min(grid), max(grid)))
    return out


def edge_note(edges: list[GridEdge]) -> str:
    """The table note of a dataset: ``"⚠ edge of grid: β = 50 (largest), fraction = 0.2 (largest)"``, or ``""``."""
    if not edges:
        return ""
    return "⚠ edge of grid: " + ", ".join(f"{e.parameter} = {e.value:g} ({e.end})" for e in edges)
