"""Paper B (Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers"): subspace
distance outliers, global and smooth sensitivity of the outlier count, Gaussian mechanisms, and top-h
subspace discovery with the exponential mechanism.  Resolutions of the paper's inconsistencies:
``docs/paper_b_resolutions.md``."""

from .distance import (
    all_subspaces,
    neighbour_counts,
    outlier_mask,
    q_count,
    q_count_subspaces,
    subspace_coords,
)
from .exponential import (
    exp_mech_logits,
    exp_mech_probs,
    subspace_utility,
    top_h_inclusion_probs,
    top_h_sequence_probs,
    top_h_subspaces,
    top_h_trials,
)
from .conventions import CONVENTIONS, NoiseConvention, NoiseScales, noise_scales
from .gaussian import (
    gaussian_hockey_stick,
    gaussian_release,
    sigma_global,
    sigma_smooth,
    theorem1_exact_delta,
    theorem1_factor,
    theorem1_max_epsilon,
    theorem1_sigma,
    theorem2_alpha,
    theorem2_beta,
    theorem2_worst_delta,
    smooth_parameters,
)
from .global_sensitivity import (
    KISSING_EXACT_DIMS,
    KISSING_LOWER,
    KISSING_NUMBERS,
    gs_exact,
    gs_lower,
    gs_upper,
    kissing_cap_bound,
    kissing_upper,
)
from .enclosing import WorkBudgetExceeded, algorithm1, largest_enclosed_subset, seb_radius
from .smooth import (
    SmoothResult,
    algorithm2,
    block_smooth_bound,
    local_sensitivity_bound,
    local_sensitivity_exact_grid,
    smooth_sensitivity,
)

__all__ = [
    "subspace_coords", "neighbour_counts", "outlier_mask", "q_count", "q_count_subspaces", "all_subspaces",
    "KISSING_NUMBERS", "KISSING_LOWER", "KISSING_EXACT_DIMS", "kissing_upper", "kissing_cap_bound",
    "gs_lower", "gs_upper", "gs_exact",
    "SmoothResult", "WorkBudgetExceeded", "seb_radius", "algorithm1", "largest_enclosed_subset",
    "local_sensitivity_bound", "local_sensitivity_exact_grid", "smooth_sensitivity", "algorithm2", "block_smooth_bound",
    "gaussian_hockey_stick", "sigma_global", "theorem1_exact_delta", "theorem1_max_epsilon", "theorem2_worst_delta", "smooth_parameters", "sigma_smooth", "gaussian_release", "theorem1_factor", "theorem1_sigma", "theorem2_alpha",
    "theorem2_beta", "NoiseConvention", "NoiseScales", "CONVENTIONS", "noise_scales",
    "exp_mech_logits", "exp_mech_probs", "top_h_subspaces", "top_h_trials", "top_h_sequence_probs",
    "top_h_inclusion_probs", "subspace_utility",
]  # fmt: skip
