"""Mechanisms of a paper-A sweep, looked up by name: the one place sweeps turn a name into errors.

Every entry carries what the sweep's output reports next to its numbers: the paper reference, the
neighbour relation its guarantee is stated on, and its claim (ε, δ) at the ε it is run with. Errors are the
exact closed forms of :mod:`privanomaly.sp.mechanisms` as functions of (x_i, B, β, k, ε, cap); an absent
query point is x_i = 0 (g = 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from privanomaly import sp

ErrorFn = Callable[..., np.ndarray]


@dataclass(frozen=True)
class SweepMechanism:
    name: str
    reference: str
    neighbours: str  # the neighbour relation of the claim
    claim_eps_factor: float  # claimed ε = factor x the ε the mechanism is run with
    error: ErrorFn  # (x_i, B, beta, k, eps, cap) -> P(M(x) != g(i, x))
    uses_k: bool

    def claim(self, eps: float) -> tuple[float, float]:
        """(ε, δ) the mechanism guarantees when run at ``eps`` (δ = 0: pure guarantees only here)."""
        return self.claim_eps_factor * float(eps), 0.0


def _lap(variant: str) -> ErrorFn:
    return lambda x_i, B, beta, k, eps, cap: sp.laplace_error(x_i, B, beta, eps, variant)


_MECHANISMS = {
    m.name: m
    for m in (
        SweepMechanism(
            "SP", "paper A, Construction 1 with L (Lemma 4.5, Theorem 4.6)", "k-sensitive graph G_S (add/remove)",
            1.0, lambda x_i, B, beta, k, eps, cap: sp.sp_error(x_i, B, beta, k, eps, cap=cap), True,
        ),
        SweepMechanism(
            "DP", "paper A, Construction 1 with Delta_G (Theorem 4.4, Pareto-optimal)", "add/remove one record (G)",
            1.0, lambda x_i, B, beta, k, eps, cap: sp.optimal_dp_error(x_i, B, beta, eps, cap=cap), False,
        ),
        SweepMechanism(
            "LaplaceCount", "paper A, Sec. 5 baseline: B + DLap(1/eps) <= beta", "add/remove one record (G)",
            1.0, _lap("count"), False,
        ),
        SweepMechanism(
            "LaplaceNoisyThreshold", "paper A, Sec. 5 baseline: B + DLap(2/eps) <= beta + DLap(2/eps)",
            "add/remove one record (G)", 0.5, _lap("noisy_threshold"), False,
        ),
    )
}


def names() -> list[str]:
    return list(_MECHANISMS)


def lookup(name: str) -> SweepMechanism:
    """The mechanism called ``name``; an unknown name raises listing the known ones."""
    if name not in _MECHANISMS:
        raise ValueError(f"unknown mechanism {name!r}; known: {', '.join(_MECHANISMS)}")
    return _MECHANISMS[name]
