"""Paper A (Asif, Papakonstantinou, Vaidya, CCS'19): sensitive privacy for (beta, r)-anomaly identification.

Modules: :mod:`.balls` (ball counts), :mod:`.mdd` (anomaly status, k-sensitivity, mdd closed forms),
:mod:`.mechanisms` (Construction 1 optimal DP / SP, Construction 2 compiler, Laplace baselines),
:mod:`.dlap` (exact discrete Laplace), :mod:`.composition` (Claims 3-5), :mod:`.metrics` (exact error
summaries), :mod:`.graphs` (exhaustive small worlds, G, G_S, BFS mdd). The names of :mod:`.metrics` (pandas)
are imported on first use, so the math of this package does not import pandas.
"""

from typing import Any

from .balls import (
    METRICS,
    ball_counts,
    ball_counts_at,
    ball_counts_at_radii,
    ball_counts_radii,
    ball_counts_bruteforce,
    ball_counts_scipy,
    duplicate_counts,
    minkowski_p,
    pairwise_within,
    record_counts,
    record_counts_radii,
    unique_rows,
)
from .composition import claim5, claim5_graph, parallel, sequential
from .dlap import dlap_diff_pmf, dlap_diff_sf, dlap_pmf, dlap_sf, rational_rate, sample_dlap
from .graphs import (
    anomaly_labels,
    ball_count_hist,
    bfs_distance_to,
    bfs_mdd,
    certified_lower_bound,
    domain_ball_matrix,
    enumerate_histograms,
    hist_index,
    neighbourhood_graph,
    sensitive_graph,
    to_networkx,
)
from .mdd import compiler_delta, is_anomaly, is_k_sensitive, mdd_dp, mdd_sp_lower, recommended_cap
from .mechanisms import (
    LAPLACE_VARIANTS,
    compiled_error,
    constant_error_range,
    construction1_error,
    laplace_error,
    laplace_privacy,
    laplace_prob_one,
    laplace_probs,
    laplace_sample,
    optimal_dp_error,
    prob_one,
    sp_error,
    valid_error_bound,
    validity_violations,
)

_METRICS = ("class_mean_errors", "expected_errors", "expected_precision_recall", "random_anomaly_error",
            "random_record_error", "ranked_errors")

__all__ = [n for n in dir() if not n.startswith("_") and n != "Any"] + list(_METRICS)


def __getattr__(name: str) -> Any:
    """The error summaries of :mod:`.metrics`, imported when first asked for."""
    if name in _METRICS:
        from . import metrics

        return getattr(metrics, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
