"""Permute-and-flip selection as registered mechanisms, checked exactly by the privacy audit.

The end-to-end releases of :mod:`.end_to_end` with permute-and-flip (:mod:`.permute_flip`) as their selection
method - the same utility, Δu, claim structure and small worlds, so the two selection methods are audited on
the same edges:

* ``pf_select_r`` (paper B): r from a public grid on the eq. (53) correct count, ε-DP on substitution with
  Δu = min(N, 2 GS^UB) (as :class:`.end_to_end.ExpSelectR`: labelled records on a line, every substitution,
  Pr[r | D] <= e^ε Pr[r | D'] decided exactly). These worlds' utilities move together (one substitution
  changes few statuses), so the claim's factor 2 is never needed there; the method's own claim - for *any*
  utilities moving by at most Δu - is checked on utility worlds too: every integer utility vector of n
  candidates in {0..top}^n, every pair within Δu in each coordinate (:func:`utility_rows`).
* ``end_to_end_sp_pf`` (paper A): (β, r) by permute-and-flip, then SP, on the G_S(k) edges of every candidate
  (as :class:`.end_to_end.EndToEndSP`).

The negative control ``pf_select_r_half_sensitivity`` runs the method with Δu halved (θ doubled) under the claim
of Δu and must be caught (it is, in the utility worlds: one candidate up by Δu while another goes down).
"""

from __future__ import annotations

import itertools

import numpy as np

from privanomaly.mechanisms import exact, registry

from . import permute_flip
from .end_to_end import EndToEndSP, ExpSelectR

__all__ = ["EndToEndSPPF", "PFSelectR", "negative_controls", "utility_rows"]


class PFSelectR(ExpSelectR):
    """Paper B: r from a public grid by permute-and-flip on the eq. (53) correct count."""

    label = "r chosen by permute-and-flip (eq. (53) correct count)"
    reference = "permute-and-flip over r (McKenna-Sheldon 2020), before Theorem 1 or 2"
    selection = permute_flip
    sensitivity_factor = 1  # 2: the negative control runs the method with Δu halved (its law's θ doubled)

    def selection_law(self, utility, eps_sel, du: int) -> exact.ExactDist:
        return permute_flip.law_at(utility, permute_flip.theta(eps_sel, du) * self.sensitivity_factor)

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


class EndToEndSPPF(EndToEndSP):
    """Paper A end to end: (β, r) by permute-and-flip, then Construction 1 (module docstring)."""

    label = "SP with (β, r) chosen by permute-and-flip"
    reference = ("permute-and-flip over (β, r) + Construction 1, basic composition, on the G_S(k) edges of every "
                 "candidate (β, r)")
    selection = permute_flip


registry.register("pf_select_r")(PFSelectR)
registry.register("end_to_end_sp_pf")(EndToEndSPPF)


def negative_controls() -> dict[str, PFSelectR]:
    """Permute-and-flip run with Δu halved under the claim of the true Δu: must fail."""
    m = PFSelectR()
    m.sensitivity_factor = 2
    m.label = f"{PFSelectR.label}, run with Δu halved (broken)"
    m.reference = "negative control (permute-and-flip at Δu / 2 under the claim of Δu)"
    return {"pf_select_r_half_sensitivity": m}
