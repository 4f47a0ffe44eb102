"""Paper B (Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers"): subspace
distance outliers, global and smooth sensitivity of the outlier count, Gaussian mechanisms, and top-h
subspace discovery with the exponential mechanism.  Resolutions of the paper's inconsistencies:
``docs/paper_b_resolutions.md``.

Every name below is imported from its module on first use (PEP 562), so ``import privanomaly.outliers``
does not import scipy; the modules themselves (``privanomaly.outliers.distance``, ...) import as usual.
"""

from typing import Any

_NAMES: dict[str, str] = {
    "all_subspaces": "distance", "neighbour_counts": "distance", "outlier_mask": "distance", "q_count": "distance",
    "q_count_subspaces": "distance", "subspace_coords": "distance",
    "exp_mech_logits": "exponential", "exp_mech_probs": "exponential", "subspace_utility": "exponential",
    "top_h_inclusion_probs": "exponential", "top_h_sequence_probs": "exponential", "top_h_subspaces": "exponential",
    "top_h_trials": "exponential",
    "CONVENTIONS": "conventions", "NoiseConvention": "conventions", "NoiseScales": "conventions",
    "noise_scales": "conventions",
    "gaussian_hockey_stick": "gaussian", "gaussian_release": "gaussian", "sigma_global": "gaussian",
    "sigma_smooth": "gaussian", "theorem1_exact_delta": "gaussian", "theorem1_factor": "gaussian",
    "theorem1_max_epsilon": "gaussian", "theorem1_sigma": "gaussian", "theorem2_alpha": "gaussian",
    "theorem2_beta": "gaussian", "theorem2_worst_delta": "gaussian", "smooth_parameters": "gaussian",
    "KISSING_EXACT_DIMS": "global_sensitivity", "KISSING_LOWER": "global_sensitivity",
    "KISSING_NUMBERS": "global_sensitivity", "gs_exact": "global_sensitivity", "gs_lower": "global_sensitivity",
    "gs_upper": "global_sensitivity", "kissing_cap_bound": "global_sensitivity",
    "kissing_upper": "global_sensitivity",
    "WorkBudgetExceeded": "enclosing", "algorithm1": "enclosing", "largest_enclosed_subset": "enclosing",
    "seb_radius": "enclosing",
    "SmoothResult": "smooth", "algorithm2": "smooth", "block_smooth_bound": "smooth",
    "local_sensitivity_bound": "smooth", "local_sensitivity_exact_grid": "smooth", "smooth_sensitivity": "smooth",
}
"""Where each public name lives (module of this package)."""

__all__ = list(_NAMES)


def __getattr__(name: str) -> Any:
    """A public name (or a submodule) of this package, imported when first asked for."""
    where = _NAMES.get(name, name)
    if where == "distance":
        import privanomaly.outliers.distance as module
    elif where == "exponential":
        import privanomaly.outliers.exponential as module
    elif where == "conventions":
        import privanomaly.outliers.conventions as module
    elif where == "gaussian":
        import privanomaly.outliers.gaussian as module
    elif where == "global_sensitivity":
        import privanomaly.outliers.global_sensitivity as module
    elif where == "enclosing":
        import privanomaly.outliers.enclosing as module
    elif where == "smooth":
        import privanomaly.outliers.smooth as module
    elif where == "audit_worlds":
        import privanomaly.outliers.audit_worlds as module
    elif where == "exact_normal":
        import privanomaly.outliers.exact_normal as module
    elif where == "exact_random":
        import privanomaly.outliers.exact_random as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module if where == name else getattr(module, name)
