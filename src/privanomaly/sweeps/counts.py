"""Ball counts of a sweep, computed once per (dataset, r, metric) and shared by every ε, k, β, mechanism.

A table holds every record of the dataset (``kind = record``: label, multiplicity x_i, ball count B) and
the sweep's *absent query points* (``kind = absent``): seeded uniform draws from the data's bounding box
that are not a record of the data (x_i = 0, g = 0), with their ball counts B = #records within r computed
against the data. On present records the SP mechanism at k = 1 and the Laplace-count baseline err alike;
on absent points - void spots, whose presence SP protects - they differ (claim A6).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from collections.abc import Sequence

from privanomaly import sp
from privanomaly.sweeps.spec import Ball

P_OF_METRIC = {m: sp.minkowski_p(m) for m in sp.METRICS}


def resolve_r(X: np.ndarray, r_kind: str, value: float, beta: int | None, metric: str) -> float:
    """The radius of a grid point: ``value`` itself, or read off the (β+1)-NN distances d_β of X.

    ``fraction`` f: the selection protocol's midpoint radius flagging about f of the records
    (:func:`~privanomaly.paper_a.selection.radius_for_fraction`, computed by
    :func:`~privanomaly.paper_a.selection.radius_at_fraction` from the largest d_β); ``quantile`` q: the
    q-quantile of d_β.
    """
    from privanomaly.paper_a.selection import knn_radius_table, radius_at_fraction  # scipy: only when read off

    if r_kind == "value":
        return float(value)
    if beta is None:
        raise ValueError(f"r given as {r_kind} needs β (the (β+1)-NN distance it is read from)")
    if r_kind == "fraction":  # from the largest d_β only, the same float as from all of them
        return radius_at_fraction(X, int(beta), value, p=P_OF_METRIC[metric])
    if r_kind == "quantile":
        d = knn_radius_table(X, [int(beta)], p=P_OF_METRIC[metric])[:, 0]
        return closed_at(X, d, float(np.quantile(d, value)), int(beta), metric)
    raise ValueError(f"unknown r kind {r_kind!r}")


def closed_at(X: np.ndarray, d_beta: np.ndarray, r: float, beta: int, metric: str, tries: int = 8) -> float:
    """``r``, or the next floats above it while a record whose d_β is exactly ``r`` has fewer than β + 1
    records within r in the ball counts (:func:`privanomaly.sp.ball_counts_at`).

    A quantile of the d_β can be a d_β itself (an order statistic, or a tie). That record's (β+1)-th neighbour
    is then at distance r, so it is no (β, r)-anomaly (Def. 2.2 counts d <= r), but the ball counts compare
    squares (sum (a - b)^2 <= r*r) while d_β is a rounded square root: the pair fell outside in about a quarter
    of such cases. Moving r up by a few units in the last place counts it, as d_β <= r says.
    """
    on = np.flatnonzero(np.asarray(d_beta) == r)
    for _ in range(tries):
        if not len(on) or bool((sp.ball_counts_at(X[on], X, r, metric=metric, cap=beta + 1) >= beta + 1).all()):
            return r
        r = float(np.nextafter(r, np.inf))
    return r


def resolve_radii(X: np.ndarray, balls: Sequence[Ball], metric: str) -> list[float]:
    """The radius r of each count table of :func:`privanomaly.sweeps.spec.balls`, in order: :func:`resolve_r` of
    each, the same floats, the fractions of one β read off one search of the largest d_β."""
    from privanomaly.paper_a.selection import radii_at_fractions  # scipy: only when read off

    out: dict[int, float] = {}
    fractions: dict[int, list[tuple[int, float]]] = {}
    for i, ball in enumerate(balls):
        beta, r_kind, value = ball["beta"], ball["r_kind"], float(ball["r_spec"])
        if r_kind == "fraction" and beta is not None:
            fractions.setdefault(int(beta), []).append((i, value))
        else:
            out[i] = resolve_r(X, r_kind, value, beta, metric)
    for beta, iv in fractions.items():
        radii = radii_at_fractions(X, beta, [v for _, v in iv], p=P_OF_METRIC[metric])
        out.update(zip([i for i, _ in iv], radii))
    return [out[i] for i in range(len(balls))]


def resolve_r_paper_b(X: np.ndarray, r_kind: str, value: float, k: int) -> float:
    """The radius of a paper-B grid point, on paper B's own distance dist_S (Sec. 3.1, scaled by 1/sqrt|S|).

    An outlier has fewer than ``k`` other records within r (Def. 8), i.e. its (k+1)-NN distance including
    itself exceeds r: β = k of :func:`resolve_r`, read off the scaled full-space coordinates that
    :func:`privanomaly.outliers.q_count` measures - so ``fraction: f`` flags about f of the records.
    """
    from privanomaly.outliers.distance import subspace_coords

    if r_kind != "value" and int(k) + 1 > len(X):
        raise ValueError(f"k = {int(k)}: r given as {r_kind} {value:g} is read off the (k+1)-NN distances, which "
                         f"need at least k + 1 = {int(k) + 1} records; the dataset has {len(X)} (use a smaller k, or "
                         "give r as a value)")
    return resolve_r(subspace_coords(X), r_kind, value, int(k), "euclidean")


def absent_points(X: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points drawn uniformly from the bounding box of X, none equal to a record of X (redrawn if so)."""
    X = np.asarray(X, dtype=float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    rows = {r.tobytes() for r in (X + 0.0)}
    out = np.empty((n, X.shape[1]))
    filled = 0
    while filled < n:
        cand = rng.uniform(lo, hi, size=(n - filled, X.shape[1])) + 0.0
        keep = cand[[c.tobytes() not in rows for c in cand]]
        out[filled : filled + len(keep)] = keep
        filled += len(keep)
        if lo.size and np.all(lo == hi) and filled < n:
            raise ValueError("every record is the same point: the bounding box has no absent point")
    return out


def count_table(
    X: np.ndarray, labels: np.ndarray, r: float, *, metric: str, cap: int | None, absent: np.ndarray
) -> pd.DataFrame:
    """Records then absent points: ``kind, index, label, x_i, B`` (B = min(B, cap) when capped)."""
    return count_tables_at(X, labels, [r], metric=metric, cap=cap, absent=absent)[0]


def count_tables_at(
    X: np.ndarray, labels: np.ndarray, radii, *, metric: str, cap: int | None, absent: np.ndarray
) -> list[pd.DataFrame]:
    """:func:`count_table` at every r of ``radii``, in their order: the ball counts of every radius from one
    walk of the tree per record and per absent point (:func:`privanomaly.sp.ball_counts_radii`, the same
    integers as one count per radius)."""
    X = np.asarray(X, dtype=float)
    n_abs = len(absent)
    walk_cap = int(cap) if cap is not None else max(len(X), 1)  # no count exceeds the number of records
    x_i, B = sp.record_counts_radii(X, radii, metric=metric, cap=walk_cap)  # the kernel of record_table, all radii
    B_abs = (
        sp.ball_counts_at_radii(absent, X, radii, metric=metric, cap=walk_cap)
        if n_abs
        else np.zeros((len(B), 0), np.int64)
    )
    head = {
        "kind": np.array(["record"] * len(X) + ["absent"] * n_abs),
        "index": np.concatenate([np.arange(len(X)), np.arange(n_abs)]).astype(np.int64),
        "label": np.concatenate([np.asarray(labels).astype(np.int8), np.zeros(n_abs, np.int8)]),
        "x_i": np.concatenate([x_i, np.zeros(n_abs, np.int64)]),
    }
    return [pd.DataFrame({**head, "B": np.concatenate([b, b_abs]).astype(np.int64)}) for b, b_abs in zip(B, B_abs)]


def sweep_cap(betas, eps_grid, mechanisms_halve_eps: bool = True, noise_share: float = 1.0) -> int:
    """Count cap for a sweep: beyond it every error is below 2^-60 at the smallest ε of the grid.

    The rate is ε times the smaller of ``noise_share`` (the smallest of the sweep's mechanisms': 1/2 for the
    Laplace noisy threshold, 1/4 for the compiler) and 1/2 unless ``mechanisms_halve_eps`` is False - by default
    the cap is the noisy threshold's even without it, a larger cap than needed (errors stay within 2^-60).
    """
    e = min(eps_grid) * min(float(noise_share), 0.5 if mechanisms_halve_eps else 1.0)
    return int(sp.recommended_cap(max(betas), e))
