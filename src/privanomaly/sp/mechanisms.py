"""Private mechanisms for the anomaly identification query (AIQ) (i, g) of paper A, in closed form.

Each mechanism M: D -> {0, 1} is described exactly by P(M(x) = 1) for every record (vectorised);
samplers draw answers from a ``numpy.random.Generator``. Errors are P(M(x) != g(i, x)).

* Construction 1 (Sec. 4): for a 1-Lipschitz Delta >= 1 (on the graph where privacy is required),
  P(M(x) != g(i,x)) = exp(-eps Delta(i,x)) / (1 + exp(-eps)).
  - Delta = Delta_G (:func:`privanomaly.sp.mdd.mdd_dp`): the Pareto-optimal eps-DP mechanism (Theorem 4.4).
  - Delta = L (:func:`privanomaly.sp.mdd.mdd_sp_lower`): (eps, k)-SP (Lemma 4.5 / Theorem 4.6).
* Construction 2, the compiler (Theorem 4.7, Appendix A.8): from a *valid* eps/2-DP mechanism M and
  delta = L - Delta_G, P(U(x) != b) = P(M(x) != b) exp(-eps delta(i,x) / 4), b = g(i, x).
* Laplace-threshold baselines (Sec. 5, Table 3) on the ball count, with exact integer noise.

These are the float, vectorised formulas. The mechanisms as objects — claim, exact law, exact integer
sampler (no float Bernoulli) — are :mod:`privanomaly.mechanisms` (registry names optimal_dp, sp, compiler,
laplace_count, laplace_noisy_threshold), which call these functions at the rational rate they sample with.
"""

from __future__ import annotations

import numpy as np

from ._util import as_int_array, check_beta_k, check_eps
from .dlap import dlap_diff_sf, dlap_sf, rational_rate, sample_dlap
from .mdd import compiler_delta, mdd_dp, mdd_sp_lower

__all__ = [
    "construction1_error",
    "optimal_dp_error",
    "sp_error",
    "compiled_error",
    "valid_error_bound",
    "validity_violations",
    "constant_error_range",
    "prob_one",
    "LAPLACE_VARIANTS",
    "laplace_probs",
    "laplace_prob_one",
    "laplace_error",
    "laplace_sample",
    "laplace_privacy",
]


def construction1_error(delta, eps) -> np.ndarray:
    """Construction 1: error exp(-eps delta) / (1 + exp(-eps)) for a 1-Lipschitz lower bound delta >= 1.

    At delta = 1 the error is 1/(1 + e^eps), the DP floor for differently labelled neighbours.
    """
    eps = check_eps(eps)
    d = np.asarray(delta, dtype=np.float64)
    if np.any(d < 1):
        raise ValueError("Construction 1 needs delta >= 1 (an mdd lower bound is always >= 1)")
    return np.exp(-eps * d) / (1.0 + np.exp(-eps))


def optimal_dp_error(x_i, B, beta, eps, *, cap=None) -> np.ndarray:
    """Error of the Pareto-optimal eps-DP mechanism (Theorem 4.4): Construction 1 with Delta_G."""
    return construction1_error(mdd_dp(x_i, B, beta, cap=cap), eps)


def sp_error(x_i, B, beta, k, eps, *, cap=None) -> np.ndarray:
    """Error of the (eps, k)-SP mechanism (Theorem 4.6): Construction 1 with the lower bound L of Delta_GS."""
    return construction1_error(mdd_sp_lower(x_i, B, beta, k, cap=cap), eps)


def valid_error_bound(eps) -> np.ndarray:
    """1/(1 + e^{-eps/2}): an eps/2-DP input whose errors all stay below this bound is *valid*.

    The proof of Theorem 4.7 (Appendix A.8, Eq. 9) uses, for G-neighbours x, y and b = g(i,x),
    1 - P(M(x) != b) e^{-eps/2} <= e^eps (1 - P(M(y) != b)). For an eps/2-DP M,
    1 - P(M(y) != b) >= e^{-eps/2} (1 - P(M(x) != b)), so Eq. 9 holds whenever
    P(M(x) != b) <= 1/(1 + e^{-eps/2}) (derivation in docs/paper_a_math.md). The definition of
    "valid" itself is not in our copy of the paper; this pointwise condition is sufficient.
    """
    eps = check_eps(eps)
    return 1.0 / (1.0 + np.exp(-eps / 2.0))


def validity_violations(err_x, err_y, eps) -> np.ndarray:
    """Edges (x, y) of G with g(i,x) = g(i,y) where Eq. 9 fails in either direction (bool mask)."""
    eps = check_eps(eps)
    px = np.asarray(err_x, dtype=float)
    py = np.asarray(err_y, dtype=float)
    tol = 1e-12
    a = 1 - px * np.exp(-eps / 2) > np.exp(eps) * (1 - py) + tol
    b = 1 - py * np.exp(-eps / 2) > np.exp(eps) * (1 - px) + tol
    return a | b


def constant_error_range(eps) -> tuple[float, float]:
    """[1/(1+e^eps), 1/(1+e^-eps)]: a constant error p is eps-DP iff p lies in this interval."""
    e = float(check_eps(eps))
    return 1.0 / (1.0 + np.exp(e)), 1.0 / (1.0 + np.exp(-e))


def compiled_error(input_error, x_i, B, beta, k, eps, *, cap=None) -> np.ndarray:
    """Construction 2 (Theorem 4.7): error of the compiled (eps, k)-SP mechanism U_delta.

    ``input_error`` is P(M(x) != g(i,x)) of an eps/2-DP mechanism M (the caller guarantees DP,
    e.g. :func:`optimal_dp_error` at eps/2 or a constant in ``constant_error_range(eps/2)``);
    delta = L - Delta_G (:func:`privanomaly.sp.mdd.compiler_delta`). Returns
    input_error * exp(-eps * delta / 4). Raises ``ValueError`` if an input error exceeds
    :func:`valid_error_bound` (the validity condition used by the proof).
    """
    eps = check_eps(eps)
    p = np.asarray(input_error, dtype=np.float64)
    if np.any(p < 0) or np.any(p > 1):
        raise ValueError("input_error must be probabilities in [0, 1]")
    bound = valid_error_bound(eps)
    if np.any(p > bound * (1 + 1e-12)):
        worst = float(np.max(p))
        raise ValueError(
            f"input mechanism is not valid for the compiler at eps={eps}: error {worst:.6g} > "
            f"1/(1+e^(-eps/2)) = {float(np.max(bound)):.6g}"
        )
    delta = compiler_delta(x_i, B, beta, k, cap=cap)
    return p * np.exp(-eps * delta / 4.0)


def prob_one(error, truth) -> np.ndarray:
    """P(M(x) = 1) from the error P(M(x) != g) and the truth g in {0, 1}."""
    e = np.asarray(error, dtype=np.float64)
    t = np.asarray(truth)
    if not np.all((t == 0) | (t == 1)):
        raise ValueError("truth must be 0/1")
    return np.where(t == 1, 1.0 - e, e)


# ------------------------------------------------------------------------- Laplace baselines

LAPLACE_VARIANTS = ("count", "noisy_threshold")


def _lap_args(B, beta, eps, variant):
    if variant not in LAPLACE_VARIANTS:
        raise ValueError(f"variant must be one of {LAPLACE_VARIANTS}, got {variant!r}")
    check_beta_k(beta)
    e = float(check_eps(eps))
    return as_int_array(B, "B"), as_int_array(beta, "beta"), e


def laplace_probs(B, beta, eps, variant: str = "count") -> tuple[np.ndarray, np.ndarray]:
    """Exact (P(out = 0), P(out = 1)) of a Laplace-threshold baseline; both computed as tails.

    ``"count"``: output 1 iff B + Z <= beta, Z ~ DLap(eps) (two-sided geometric, scale 1/eps).
        The ball count has sensitivity 1 on G (one added/removed record changes B_x(i,r) by at
        most 1, for every i), so this is eps-DP w.r.t. add/remove neighbours (hence eps-SP).
        P(1) = P(Z >= B - beta).
    ``"noisy_threshold"``: output 1 iff B + Z1 <= beta + Z2, Z1, Z2 iid DLap(eps/2) (scale 2/eps).
        B + Z1 alone is eps/2-DP and Z2 is data independent, so the output is eps/2-DP (a fortiori
        eps-DP): the threshold noise costs accuracy and buys no privacy for one query.
        P(1) = P(Z1 - Z2 >= B - beta) (closed form in :func:`privanomaly.sp.dlap.dlap_diff_sf`).
    Both ignore presence of i (x_i): for an absent record they answer about an empty spot, and their
    error is measured against g = 0. The noise rate is the rational of :func:`~.dlap.rational_rate`.
    Capped counts min(B, cap) also have sensitivity 1, so the guarantees hold for capped input.
    """
    B, beta, e = _lap_args(B, beta, eps, variant)
    if variant == "count":
        a = rational_rate(e)
        return dlap_sf(beta - B + 1, a), dlap_sf(B - beta, a)
    a = rational_rate(e / 2.0)
    return dlap_diff_sf(beta - B + 1, a), dlap_diff_sf(B - beta, a)


def laplace_prob_one(B, beta, eps, variant: str = "count") -> np.ndarray:
    """Exact P(out = 1) of a Laplace-threshold baseline (see :func:`laplace_probs`)."""
    return laplace_probs(B, beta, eps, variant)[1]


def laplace_error(x_i, B, beta, eps, variant: str = "count") -> np.ndarray:
    """Exact error P(out != g(i, x)) of a Laplace baseline, g = (x_i >= 1 and B <= beta)."""
    p0, p1 = laplace_probs(B, beta, eps, variant)
    x_i = as_int_array(x_i, "x_i")
    g = (x_i >= 1) & (as_int_array(B, "B") <= as_int_array(beta, "beta"))
    return np.where(g, p0, p1)


def laplace_privacy(eps, variant: str = "count") -> float:
    """The DP level (add/remove neighbours) a variant run at ``eps`` guarantees: eps or eps/2."""
    e = float(check_eps(eps))
    if variant not in LAPLACE_VARIANTS:
        raise ValueError(f"variant must be one of {LAPLACE_VARIANTS}, got {variant!r}")
    return e if variant == "count" else e / 2.0


def laplace_sample(B, beta, eps, rng: np.random.Generator, n_trials: int, variant: str = "count") -> np.ndarray:
    """n_trials runs of a Laplace baseline on every record with exact integer noise: int8 (n_trials, n)."""
    B, beta, e = _lap_args(B, beta, eps, variant)
    B = np.atleast_1d(B)
    if B.ndim != 1:
        raise ValueError("B must be 1-D (one ball count per record)")
    shape = (int(n_trials), B.size)
    if variant == "count":
        z = sample_dlap(e, shape, rng)
        return (B + z <= beta).astype(np.int8)
    z1 = sample_dlap(e / 2.0, shape, rng)
    z2 = sample_dlap(e / 2.0, shape, rng)
    return (B + z1 <= beta + z2).astype(np.int8)
