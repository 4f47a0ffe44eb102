"""Fig. 1 (bounds of GS_{q_count}) and the Fig. 2 kissing construction of paper B (Theorem 4, eq. 18).

Fig. 2 is *computed*: the configuration is placed, the outliers are counted with
:func:`privanomaly.outliers.outlier_mask` before and after the centre record x0 is moved far away (bounded
DP: one record replaced), and the change is reported next to the paper's k*K_2 + 1 and 5k + 1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly import outliers as ol

# dist_S of Section 3.1 divides the Euclidean distance by sqrt(|S|); the construction is placed in dist_S
# units, so the records handed to the core are the coordinates times sqrt(2) (full 2-D space).
METRIC_SCALE = np.sqrt(2.0)

# Relative tolerance on r when counting the construction: contacts (distance exactly r, e.g. x0 to a
# surrounding centre, or two touching surrounding spheres) are "within r" by Def. 7 (<=); the tolerance
# only absorbs the rounding of cos/sin in the coordinates.
CONTACT_RTOL = 1e-9

CONFIGURATIONS = {
    # the paper's Fig. 2: six surrounding spheres of radius r/2 touching the centre one *and* each other
    "hexagon": 6,
    # the largest set of surrounding centres at distance r from x0 that are pairwise farther than r apart
    "pentagon": 5,
}


def gs_bounds_table(d_max: int, k: int, N: int | None = None) -> pd.DataFrame:
    """Lower/upper bounds of eq. (18) for d = 1..d_max (N = None: no cap), plus the exact d = 1, 2 values."""
    rows = []
    for d in range(1, d_max + 1):
        rows.append(
            {
                "d": d,
                "k": k,
                "kissing_upper": int(ol.kissing_upper(d)),
                "gs_lower": int(ol.gs_lower(N, d, k)),
                "gs_upper": int(ol.gs_upper(N, d, k)),
                "gs_exact": float(ol.gs_exact(d, k)) if d <= 2 else np.nan,
            }
        )
    return pd.DataFrame(rows)


def kissing_points(config: str, k: int, r: float) -> tuple[np.ndarray, np.ndarray]:
    """Records of the construction: x0 at the origin (index 0) and k records at each surrounding centre.

    Returns (X, cluster) with cluster[i] = -1 for x0 and j = 0..m-1 for the j-th surrounding centre.
    Coordinates are in dist_S units (Euclidean distance between them = dist_S of the records).
    """
    if config not in CONFIGURATIONS:
        raise ValueError(f"configuration: expected one of {sorted(CONFIGURATIONS)}, got {config!r}")
    m = CONFIGURATIONS[config]
    angles = 2 * np.pi * np.arange(m) / m
    centres = r * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    X = np.vstack([np.zeros((1, 2)), np.repeat(centres, k, axis=0)])
    cluster = np.concatenate([[-1], np.repeat(np.arange(m), k)])
    return X, cluster


def _before_after(X: np.ndarray, k: int, r: float, far: float) -> tuple[np.ndarray, np.ndarray]:
    """Outlier masks (Def. 8, dist_S) with x0 in place and after x0 is replaced by a record far away."""
    r_eval = r * (1 + CONTACT_RTOL)
    before = np.asarray(ol.outlier_mask(X * METRIC_SCALE, k, r_eval), dtype=bool)
    X_after = X.copy()
    X_after[0] = [far * r, far * r]
    after = np.asarray(ol.outlier_mask(X_after * METRIC_SCALE, k, r_eval), dtype=bool)
    return before, after


def kissing_count_change(config: str, k: int, r: float = 1.0, far: float = 100.0) -> dict:
    """Count outliers (threshold k, radius r) before/after moving x0 to ``far * r`` (one record replaced)."""
    X, _ = kissing_points(config, k, r)
    before, after = _before_after(X, k, r, far)
    m = CONFIGURATIONS[config]
    centres = X[1:: k] if k > 0 else X[1:]
    diff = centres[:, None, :] - centres[None, :, :]
    dist = np.sqrt((diff**2).sum(-1))[~np.eye(m, dtype=bool)]
    return {
        "configuration": config,
        "k": k,
        "n_surrounding": m,
        "min_centre_gap_over_r": float(dist.min() / r),
        "count_before": int(before.sum()),
        "count_after": int(after.sum()),
        "count_change": int(after.sum() - before.sum()),
        "paper_upper_kK2_plus_1": int(k * ol.KISSING_NUMBERS[2] + 1),
        "paper_exact_5k_plus_1": int(ol.gs_exact(2, k)),
    }


def kissing_counts_table(ks: list[int], r: float = 1.0) -> pd.DataFrame:
    """:func:`kissing_count_change` for every configuration and k."""
    return pd.DataFrame([kissing_count_change(c, k, r) for c in CONFIGURATIONS for k in ks])


def kissing_points_table(k: int, r: float = 1.0, far: float = 100.0) -> pd.DataFrame:
    """Tidy points of each configuration with their outlier status before/after (for the Fig. 2 plot)."""
    frames = []
    for config in CONFIGURATIONS:
        X, cluster = kissing_points(config, k, r)
        before, after = _before_after(X, k, r, far)
        frames.append(
            pd.DataFrame(
                {
                    "configuration": config,
                    "k": k,
                    "r": r,
                    "record": np.arange(len(X)),
                    "cluster": cluster,
                    "x": X[:, 0],
                    "y": X[:, 1],
                    "outlier_before": before.astype(bool),
                    "outlier_after": after.astype(bool),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)
