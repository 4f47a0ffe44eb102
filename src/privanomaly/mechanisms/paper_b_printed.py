"""Paper B's exponential mechanism *as printed* (eq. 11), in Algorithm 3: the "printed exponent" reading of
the paper, registered with the guarantee it actually has.

=================  =============================================  ============  =========================
registry name      paper B                                        neighbours    claim at parameter eps
=================  =============================================  ============  =========================
exp_top_h_printed  Algorithm 3 with eq. (11)'s weights exp(ε u)   substitution  2 ε Δu-DP (Theorem 3)
=================  =============================================  ============  =========================

Algorithm 3 draws h subspaces, one at a time among those not yet chosen, each draw with parameter eps/h.
As printed, a draw picks S with probability ``exp((eps/h) u_S) / sum_T exp((eps/h) u_T)``. Paper B's own
Theorem 3 makes that draw ``2 (eps/h) Δu``-DP (the normaliser moves too: the standard McSherry-Talwar
argument), so the h draws compose to ``2 eps Δu``; with ``u = q_count / GS^UB`` (eq. 51) Δu <= 1
(Theorem 7), i.e. **2 eps-DP, not the eps-DP Algorithm 3 states** (resolution R4 of
``docs/paper_b_resolutions.md``; ``exp_top_h``, which our figures use, has weights ``exp(eps u / (2 Δu))``).

The printed weights are the standard ones at Δu' = 1/2: ``exp(eps u / (2 * 1/2)) = exp(eps u)``. So the exact
law and the sampler are those of :mod:`privanomaly.outliers.exponential` called with ``sensitivity=1/2`` - one
implementation of Algorithm 3 for both, and the same exhaustive audit (:meth:`TopH.audit_rows`) against the
claim each states.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from privanomaly import outliers as ol  # its modules (scipy) load on first use of a name

from .base import Claim, check_rng, check_trials
from .paper_b import TopH
from .registry import register

__all__ = ["TopHPrinted", "PRINTED_WEIGHT_SENSITIVITY"]

PRINTED_WEIGHT_SENSITIVITY = 0.5
"""The Δu at which the standard weights exp(eps u / (2 Δu)) equal the printed exp(eps u)."""


@register("exp_top_h_printed")
class TopHPrinted(TopH):
    """Algorithm 3 (top-h subspaces, eps/h per draw) with the printed weights ``exp((eps/h) u)``.

    ``eps`` is the eps of the printed formula; the weights do not depend on Δu (as printed), the claim
    ``2 eps Δu`` does (``sensitivity`` = Δu, 1 for eq. 51 by Theorem 7).
    """

    label = "exponential top-h, printed exponent exp(ε u)"
    reference = "Algorithm 3 with eq. (11) as printed; Theorem 3 (2εΔu per draw) and sequential composition"

    def claim(self, *, eps, sensitivity=1.0, **_) -> Claim:
        """``2 eps Δu``-DP for the whole top-h selection, whatever h (each draw: 2 (eps/h) Δu)."""
        eps, sensitivity = float(eps), float(sensitivity)
        if not (eps > 0 and np.isfinite(eps)) or not sensitivity > 0:
            raise ValueError(f"claim needs eps > 0 and Δu > 0, got eps={eps!r}, Δu={sensitivity!r}")
        spent = 2 * ol.exponential.draw_rate(eps) * Fraction(sensitivity)  # at the rational rate the sampler uses
        return Claim(float(spent), 0.0, self.neighbours, epsilon_exact=spent,
                     note="Theorem 3: weights exp(ε u) are 2εΔu-DP per draw, h draws at ε/h compose; Δu <= 1 for "
                          "eq. 51 (Theorem 7)")

    def selection_probs(self, utility, *, eps) -> np.ndarray:
        """One draw (h = 1): ``exp(eps u) / sum exp(eps u)`` (log-sum-exp)."""
        return ol.exponential.exp_mech_probs(utility, eps, sensitivity=PRINTED_WEIGHT_SENSITIVITY)

    def exact_distribution(self, utility, *, h: int, eps: float) -> dict[tuple[int, ...], float]:
        """Exact probability of every ordered output (enumeration: small worlds)."""
        return ol.exponential.top_h_sequence_probs(utility, h, eps, sensitivity=PRINTED_WEIGHT_SENSITIVITY)

    def inclusion_probs(self, utility, *, h: int, eps: float) -> np.ndarray:
        """Exact ``Pr[S among the h chosen]`` per candidate."""
        return ol.exponential.top_h_inclusion_probs(utility, h, eps, sensitivity=PRINTED_WEIGHT_SENSITIVITY)

    def sample(self, utility, *, h, eps, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        """``n_trials`` runs: bool array (n_trials, n_candidates) with h True per row (exact sampler)."""
        return ol.exponential.top_h_trials(utility, h, eps, check_rng(rng), check_trials(n_trials),
                                        sensitivity=PRINTED_WEIGHT_SENSITIVITY)
