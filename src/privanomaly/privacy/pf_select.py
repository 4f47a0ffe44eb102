"""Permute-and-flip selection of r as a registered mechanism, checked exactly by the privacy audit.

``pf_select_r`` (paper B): r chosen from a public grid by permute-and-flip (:mod:`.permute_flip`) on the
eq. (53) correct count, ε-DP on substitution with Δu = min(N, 2 GS^UB) - the same utility, Δu and small
worlds as ``exp_select_r`` (:class:`.end_to_end.ExpSelectR`: labelled records on a line, every substitution,
Pr[r | D] <= e^ε Pr[r | D'] decided exactly on permute-and-flip's law), so the two selection methods are audited
on the same edges. These worlds' utilities move together (one substitution changes few statuses), so the
claim's factor 2 is never needed there; the method's own claim - for *any* utilities moving by at most Δu -
is checked on utility worlds too: every integer utility vector of n candidates in {0..top}^n, every pair
within Δu in each coordinate (:func:`utility_rows`). The negative control ``pf_select_r_half_sensitivity``
runs the method with Δu halved (θ doubled) under the claim of Δu and must be caught (it is, in the utility
worlds: one candidate up by Δu while another goes down).
"""

from __future__ import annotations

import itertools

import numpy as np

from privanomaly.mechanisms import exact, registry
from privanomaly.mechanisms.base import Claim
from privanomaly.outliers.global_sensitivity import gs_upper

from . import permute_flip
from .end_to_end import ExpSelectR

__all__ = ["PFSelectR", "negative_controls"]


class PFSelectR(ExpSelectR):
    """Paper B: r from a public grid by permute-and-flip on the eq. (53) correct count."""

    label = "r chosen by permute-and-flip (eq. (53) correct count)"
    reference = "permute-and-flip over r (McKenna-Sheldon 2020), before Theorem 1 or 2"
    sensitivity_factor = 1  # 2: the negative control runs the method with Δu halved (its law's θ doubled)

    def selection_law(self, utility, eps_sel, du: int) -> exact.ExactDist:
        return permute_flip.law_at(utility, permute_flip.theta(eps_sel, du) * self.sensitivity_factor)

    def claim(self, *, eps, delta=0.0, k=1, N=4, **_) -> Claim:
        du = min(int(N), 2 * gs_upper(None, 1, int(k)))
        return permute_flip.claim(eps, du, self.neighbours, "eq. (53) correct count").scoped(
            ("ε, k, N (bounded DP)", "r grid (config)", f"Δu = {du}"))

    def audit_rows(self, fast: bool = True, eps: float = 0.5, **_) -> list[dict]:
        """The eq. (53) worlds of ``exp_select_r`` and the utility worlds (module docstring)."""
        return [*super().audit_rows(fast=fast, eps=eps), *utility_rows(self, fast, eps)]


def utility_rows(m: PFSelectR, fast: bool, eps: float) -> list[dict]:
    """Every utility vector of ``n`` candidates in {0..top}^n and every pair within Δu coordinatewise: the law
    ``m.selection_law`` must satisfy the claim's e^ε on each (exactly, :func:`exact.edge_holds`)."""
    n, top = (3, 3) if fast else (4, 3)
    vectors = list(itertools.product(range(top + 1), repeat=n))
    rows = []
    for du in (1, 2):
        law = {v: m.selection_law(np.array(v), float(eps), du) for v in vectors}
        rate = permute_flip.claim(eps, du, m.neighbours).epsilon_exact
        pairs, ok, worst = 0, True, 0.0
        for a, b in itertools.combinations(vectors, 2):
            if max(abs(x - y) for x, y in zip(a, b)) > du:
                continue
            pairs += 1
            if not exact.edge_holds(law[a], law[b], rate):
                ok = False
            worst = max(worst, exact.edge_log_ratio(law[a], law[b]) / float(rate))
        rows.append({"mechanism": m.name, "claim": permute_flip.claim(eps, du, m.neighbours).describe(),
                     "world": f"utilities{n}_0to{top}_du{du}", "datasets": len(vectors), "pairs": pairs,
                     "worst_ratio": worst, "worst_delta": 0.0 if ok else 1.0, "utility_jump": du, "passed": ok})
    return rows


registry.register("pf_select_r")(PFSelectR)


def negative_controls() -> dict[str, PFSelectR]:
    """Permute-and-flip run with Δu halved under the claim of the true Δu: must fail."""
    m = PFSelectR()
    m.sensitivity_factor = 2
    m.label = f"{PFSelectR.label}, run with Δu halved (broken)"
    m.reference = "negative control (permute-and-flip at Δu / 2 under the claim of Δu)"
    return {"pf_select_r_half_sensitivity": m}
