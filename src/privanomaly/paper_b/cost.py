"""The CPU-time outlook of paper B's longer jobs from public quantities only: the prepared table's shape (N, d),
k and the config's grids - never the data's values (printed before a run by :func:`privanomaly.preflight.notices`;
nothing is decided by it).

The model counts the operations each job makes and prices them by constants measured here, on a machine shared
with other work (load 4-7 on 2 cores: upper ends), in one process with ``resource.getrusage``, on Gaussian data
(20,000 and 80,000 records, d = 1 ... 21; Gaussian data is a hard case for KD-trees) and on the credit-card stand-in
(284,807 x 6, k = 3):

* a k-NN query (:func:`privanomaly.sp.knn.knn_distances`) per record: 0.8 (d = 1), 1.7 (3), 8.7 (6), 49 (9),
  241 (14), 785 (21) microseconds at N = 20,000; 11.5 (6) and 118 (9) at N = 80,000; 15.4 on the stand-in.
  Model :func:`knn_seconds`: ``0.48 us e^(0.515 d) (N / 20,000)^(0.07 d)``, at most a scan of every record
  (``N d 2 ns``) - it reproduces those measurements within a factor 3 (tested).
* a neighbour count capped at c (:func:`privanomaly.outliers.distance._counts_scaled`) per record: 1.0 (d = 1),
  1.8 (3), 3.2 (6), 7.9 (9), 33 (14), 81 (21) microseconds at c = 3, plus about c d pair tests of
  :data:`~privanomaly.paper_b.released_bound.FAST_PAIR_SECONDS` (19 us at d = 6, c = 200). Model
  :func:`count_seconds`.
* one (dimension, h, eps) cell of exact top-h precision/recall (inclusion probabilities,
  :func:`privanomaly.outliers.top_h_inclusion_probs`) over m candidate subspaces, h = 1 ... 5, eps 0.2 ... 3.2:
  utilities spread over [0, 1] 36 ms (m = 6), 238 ms (29), 3.7 s (100); utilities in [0, 0.05] 8 ms (6), 15 ms
  (34), 2.9 s (100); ionosphere_b's (m = 34, Scenario 2's config) 33 ms; 1,000 sampled trials of Algorithm 3:
  2-5 ms. Model :func:`top_h_cell_seconds`: within a factor 10 of these (the utilities, which the outlook may not
  read, move it by 20x at m = 34).
"""

from __future__ import annotations

import math

from privanomaly.paper_b.released_bound import ALGORITHM1_UNITS_PER_SECOND, FAST_PAIR_SECONDS, fast_bound_seconds

#: k-NN per record: KNN_US_AT_1 e^(KNN_GROWTH d) (N / KNN_N0)^(KNN_N_GROWTH d) microseconds (module doc)
KNN_US_AT_1, KNN_GROWTH, KNN_N0, KNN_N_GROWTH = 0.48, 0.515, 20_000, 0.07
#: a scan of every record: seconds per record x coordinate (the k-NN's ceiling in many dimensions)
SCAN_SECONDS = 2e-9
#: a capped count's descent per record: COUNT_US_AT_0 e^(COUNT_GROWTH d) microseconds (module doc)
COUNT_US_AT_0, COUNT_GROWTH = 0.8, 0.22
#: one exact top-h cell: TOP_H_CELL_SECONDS + TOP_H_PAIR_SECONDS m^2; a sampled trial: TOP_H_TRIAL_SECONDS
TOP_H_CELL_SECONDS, TOP_H_PAIR_SECONDS, TOP_H_TRIAL_SECONDS = 0.01, 1e-4, 4e-6


def knn_seconds(N: int, d: int, k: int) -> float:
    """CPU seconds of the k nearest neighbours of every one of N records in d dimensions (k enters as the
    number of distances kept; it is small in paper B)."""
    per = KNN_US_AT_1 * 1e-6 * math.exp(KNN_GROWTH * d) * (max(N, 1) / KNN_N0) ** (KNN_N_GROWTH * d)
    return N * min(per * max(1.0, k / 4), N * d * SCAN_SECONDS)


def count_seconds(N: int, d: int, cap: int) -> float:
    """CPU seconds of every record's neighbour count capped at ``cap`` (q_count: cap k)."""
    per = COUNT_US_AT_0 * 1e-6 * math.exp(COUNT_GROWTH * d) + cap * d * FAST_PAIR_SECONDS
    return N * min(per, N * d * SCAN_SECONDS + cap * d * FAST_PAIR_SECONDS)


def top_h_cell_seconds(m: int, n_trials: int = 0) -> float:
    """CPU seconds of one (dimension, h, eps) cell of top-h discovery over m subspaces: the exact precision and
    recall, and ``n_trials`` sampled runs of Algorithm 3."""
    return TOP_H_CELL_SECONDS + TOP_H_PAIR_SECONDS * m * m + TOP_H_TRIAL_SECONDS * n_trials


def tune_r_seconds(N: int, d: int, k: int, n_radii: int) -> float:
    """Rule paper_b_tune_r: one k-NN query in the full space and one per column (every space of
    :data:`privanomaly.paper_b.tuning.SPACES`), then d + 2 sorts and ``n_radii`` binary searches each."""
    sorts = (d + 2) * (N * math.log2(max(N, 2)) + n_radii * math.log2(max(N, 2))) * 5e-9
    return knn_seconds(N, d, k + 1) + d * knn_seconds(N, 1, k + 1) + sorts


def scenario2_seconds(N: int, d: int, k: int, dim: int, n_cells: int, n_trials: int) -> float:
    """Rule paper_b_scenario2: q_count in each of the C(d, dim) candidate subspaces, then ``n_cells`` (h, eps)
    cells of sampled trials and exact precision/recall."""
    m = math.comb(d, dim) if 1 <= dim <= d else 0
    return m * count_seconds(N, dim, k) + n_cells * top_h_cell_seconds(m, n_trials)


def sweep_point_seconds(N: int, d: int, k: int, s: dict, betas: list[float], resolve_r: bool) -> float | None:
    """One (k, r) point of rule sweep_b_dataset with settings ``s`` (:meth:`privanomaly.sweeps.plan.SweepPlan.
    b_settings`) and the smooth bounds' ``betas``: r read off the data, the fast bound once at its longest
    horizon, Algorithm 2 at most ``max_work`` units per beta, q_count per delta for the sigma and mechanism rows,
    top-h per subspace dimension. None: unbounded (Algorithm 2 with no work guard)."""
    n_delta = len(s["delta"]) if isinstance(s["delta"], (list, tuple)) else 1
    total = count_seconds(N, d, k + 1) + knn_seconds(min(N, 20_000), d, k + 1) if resolve_r else 0.0
    if "fast" in s["methods"]:
        total += fast_bound_seconds(N, d, k, min(betas))
    if "paper" in s["methods"] or "gaussian_smooth_paper" in (s.get("mechanisms") or []):
        if s.get("max_work") is None or "gaussian_smooth_paper" in (s.get("mechanisms") or []):
            return None
        total += len(betas) * s["max_work"] / ALGORITHM1_UNITS_PER_SECOND
    total += n_delta * (1 + bool(s.get("mechanisms"))) * count_seconds(N, d, k)
    for dim in (s.get("subspace_dims") or []) if s.get("h") else []:
        m = math.comb(d, dim) if dim <= d else 0
        if 0 < m <= s.get("max_subspaces", 100):
            total += m * count_seconds(N, dim, k) + len(s["h"]) * len(s["eps"]) * top_h_cell_seconds(m)
    return total


def say(seconds: float | None, what: str) -> str:
    """One line of the outlook: ``about 12 s CPU (what)``; None: unbounded."""
    if seconds is None:
        return f"unbounded ({what}: Algorithm 2 with no work guard)"
    return f"about {seconds:.0f} s CPU or less ({what})" if seconds >= 1 else f"under 1 s CPU ({what})"
