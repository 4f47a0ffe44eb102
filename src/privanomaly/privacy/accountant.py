"""One accountant for the end-to-end private mode: basic (sequential) composition of (ε, δ).

Basic composition (Dwork & Roth, *The Algorithmic Foundations of Differential Privacy*, Theorem 3.16): if
M_1, ..., M_m are (ε_i, δ_i)-DP on the same neighbour relation, the mechanism releasing all their outputs
(each M_i may read the earlier outputs: adaptive composition, Dwork-Rothblum-Vadhan 2010) is
(Σ ε_i, Σ δ_i)-DP. Post-processing is free. Nothing tighter (advanced or zCDP composition) is used: with two or
three steps the basic bound is the honest one to state.

Every step is a :class:`privanomaly.mechanisms.Claim` (the rate actually spent, its relation and whether
its premises hold); the total is a Claim too, proven only if every step is, on the one relation all steps
share (a claim on a larger relation is accepted on its sub-relation, :data:`IMPLIED_BY`; other mixes are
refused). Exact ε are summed as Fractions when
every step has one. :meth:`Accountant.remaining` is the budget a further step may be asked for: the largest float
that keeps the exact sum within the total (``total - spent`` in floats can round up by an ulp, and a step then
spends a hair more than the total the row states).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from privanomaly.mechanisms.base import Claim

__all__ = ["Step", "Accountant", "IMPLIED_BY"]

# A claim on a relation holds on every sub-relation: paper A's G_S(k) (add or remove one k-sensitive record,
# Def. 3.2) is a subset of G (add or remove one record), so an ε-DP step on G is ε-SP on G_S(k).
IMPLIED_BY = {"sensitive_k": ("sensitive_k", "add_remove")}


@dataclass(frozen=True)
class Step:
    """One spend of the budget: what it is (paper terms) and the claim of the mechanism that spent it."""

    label: str
    claim: Claim


@dataclass
class Accountant:
    """Sequential composition on one neighbour relation (module docstring)."""

    neighbours: str
    steps: list[Step] = field(default_factory=list)

    def spend(self, label: str, claim: Claim) -> Claim:
        """Record ``claim`` as a step; its relation must be the accountant's. Returns the claim."""
        if claim.neighbours not in IMPLIED_BY.get(self.neighbours, (self.neighbours,)):
            raise ValueError(f"accountant on {self.neighbours!r} cannot compose {label!r}, a claim on "
                             f"{claim.neighbours!r} (basic composition holds on one neighbour relation)")
        self.steps.append(Step(label, claim))
        return claim

    @property
    def epsilon_spent_exact(self) -> Fraction:
        """Σ ε_i exactly: a step's ``epsilon_exact`` where it has one, else its float ε (a dyadic rational)."""
        return sum((s.claim.epsilon_exact if s.claim.epsilon_exact is not None else Fraction(s.claim.epsilon)
                    for s in self.steps), Fraction(0))

    def remaining(self, total: float) -> float:
        """The largest float ε_rest with Σ ε_i (exact, so far) + ε_rest <= ``total`` exactly: ask the next step for
        it, and - as every claim spends at most the ε it is asked for - the composed ε never exceeds ``total``."""
        rest = Fraction(float(total)) - self.epsilon_spent_exact
        if rest <= 0:
            raise ValueError(f"accountant: nothing of the total ε = {total!r} is left after spending "
                             f"{float(self.epsilon_spent_exact)!r}")
        out = float(rest)
        return math.nextafter(out, 0.0) if Fraction(out) > rest else out

    @property
    def delta(self) -> float:
        return float(sum(s.claim.delta for s in self.steps))

    def total(self, public_inputs=(), data_dependent=()) -> Claim:
        """The composed claim (Σ ε_i, Σ δ_i) with the release's scope; every step's scope is carried along."""
        if not self.steps:
            raise ValueError("accountant: nothing spent yet")
        spent = self.epsilon_spent_exact
        eps_exact = spent if all(s.claim.epsilon_exact is not None for s in self.steps) else None
        delta = self.delta
        if delta >= 1:
            raise ValueError(f"accountant: composed delta {delta} >= 1 proves nothing")
        pub = tuple(dict.fromkeys([*public_inputs, *(p for s in self.steps for p in s.claim.public_inputs)]))
        dep = tuple(dict.fromkeys([*data_dependent, *(d for s in self.steps for d in s.claim.data_dependent)]))
        note = "basic composition (Dwork & Roth, Thm 3.16) of " + "; ".join(
            f"{s.label}: {s.claim.describe()}" for s in self.steps)
        # the sum rounded once (a float sum of the steps' rounded ε can land an ulp above a total they fit in)
        return Claim(float(spent), delta, self.neighbours,
                     epsilon_exact=eps_exact, proven=all(s.claim.proven for s in self.steps), note=note,
                     public_inputs=pub, data_dependent=dep)
