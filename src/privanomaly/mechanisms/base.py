"""Mechanisms as objects: each carries its privacy claim next to its exact distribution and sampler.

OpenDP's discipline: the privacy map lives beside the sampler. A :class:`Mechanism` has a registry name,
a display label, the paper and the result it implements (spelled as in the paper: "Construction 1",
"Theorem 4.4", "Theorem 1", ...), the neighbour relation it is private for, and :meth:`Mechanism.claim`,
the (epsilon, delta) it guarantees as a function of its parameters — always the rate actually used.

:class:`AIQMechanism` is the family of paper A: mechanisms answering the anomaly identification query
(i, g) of a record from its multiplicity x_i (0 = the point is absent) and its ball count B = B_x(i, r),
vectorised over records. Paper B's mechanisms (Gaussian, exponential) subclass :class:`Mechanism` with
their own exact distribution and sampler; the audit harness dispatches on :attr:`Mechanism.family`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from privanomaly.sp.mdd import is_anomaly

__all__ = ["NEIGHBOUR_RELATIONS", "Claim", "Mechanism", "AIQMechanism"]

NEIGHBOUR_RELATIONS = {
    "add_remove": "G: add or remove one record (paper A, Sec. 2; unbounded DP)",
    "sensitive_k": "G_S(k): add or remove one k-sensitive record (paper A, Def. 3.2; (eps, k)-SP)",
    "substitution": "replace one record by another (paper B; bounded DP)",
}


@dataclass(frozen=True)
class Claim:
    """What a mechanism guarantees at given parameters.

    ``epsilon`` is the privacy loss actually spent (e.g. the rational noise rate, never above the epsilon
    asked for); ``epsilon_exact`` the same as a Fraction when it is rational. ``proven`` is True only where
    every premise of the cited result holds; ``note`` says what the claim rests on.

    The claim's scope: ``public_inputs`` are the inputs it treats as public (fixed before the data are seen:
    ε, k, a configured r, ...); ``data_dependent`` the choices made *outside* the mechanism from the very
    data it releases (r tuned against the labels, a quantile r, standardisation fitted on the data). A DP
    guarantee holds for public parameters only, so :attr:`proven_end_to_end` is True only when the claim is
    proven *and* nothing data-dependent is left outside the accounting.
    """

    epsilon: float
    delta: float
    neighbours: str
    epsilon_exact: Fraction | None = None
    proven: bool = True
    note: str = ""
    public_inputs: tuple[str, ...] = ()
    data_dependent: tuple[str, ...] = ()

    def __post_init__(self):
        for key in ("public_inputs", "data_dependent"):
            value = getattr(self, key)
            if isinstance(value, str) or not all(isinstance(v, str) and v for v in value):
                raise ValueError(f"Claim.{key} must be a sequence of non-empty strings, got {value!r}")
            object.__setattr__(self, key, tuple(value))
        if self.neighbours not in NEIGHBOUR_RELATIONS:
            raise ValueError(f"unknown neighbour relation {self.neighbours!r} (one of {sorted(NEIGHBOUR_RELATIONS)})")
        if not (self.epsilon >= 0 and 0 <= self.delta < 1):
            raise ValueError(f"claim needs epsilon >= 0 and 0 <= delta < 1, got ({self.epsilon}, {self.delta})")

    @property
    def proven_end_to_end(self) -> bool:
        """True only when every premise holds and no input was chosen from the released data."""
        return bool(self.proven) and not self.data_dependent

    def scoped(self, public_inputs=(), data_dependent=()) -> "Claim":
        """The same claim with its scope stated (see the class docstring)."""
        return replace(self, public_inputs=tuple(public_inputs), data_dependent=tuple(data_dependent))

    def describe(self) -> str:
        what = f"({self.epsilon:.6g}, {self.delta:.3g})" if self.delta else f"{self.epsilon:.6g}"
        kind = "SP" if self.neighbours == "sensitive_k" else "DP"
        text = f"{what}-{kind} on {self.neighbours}" + ("" if self.proven else " (premises not all met: unproven)")
        if self.data_dependent:
            text += "; for public parameters only, and these were read off the data: " + "; ".join(self.data_dependent)
        return text


class Mechanism(ABC):
    """Base type of every registered mechanism (see module docstring). ``name`` is set by the registry."""

    name: str = ""
    label: str = ""
    paper: str = ""
    reference: str = ""
    neighbours: str = "add_remove"
    family: str = ""

    @abstractmethod
    def claim(self, **params) -> Claim:
        """The (epsilon, delta, neighbour relation) guaranteed at these parameters."""

    def describe(self) -> str:
        return f"{self.label} — paper {self.paper}, {self.reference}"


class AIQMechanism(Mechanism):
    """Paper A: a randomised answer M(x) in {0, 1} to the query g(i, x) (Def. 2.2), from (x_i, B).

    Subclasses implement :meth:`probs` (exact float P(0), P(1), both computed as tails so neither loses
    precision), :meth:`exact_distribution` (the same law as :class:`~.exact.QRat` in exp(-rate): the object
    the audit proves things about), :meth:`sample` (exact, integer arithmetic only) and :meth:`claim`.
    Parameters are keywords: ``beta`` (>= 1), ``k`` (>= 1, ignored by DP mechanisms), ``eps`` (> 0) and
    ``cap`` (None or the count cap >= beta + 1 the ball counts were computed with).
    """

    family = "aiq"
    noise_share: float = 1.0
    """The slowest rate, as a share of ``eps``, at which the mechanism's error falls per unit of its distance
    (like e^(-share eps Δ)): 1/2 for the noisy-threshold baseline (DLap(eps/2)), 1/4 for the compiler (its gain
    e^(-eps δ/4) on δ = L - Δ_G). Ball counts capped for share * eps keep every reported error within 2^-60 of
    the uncapped one (:func:`privanomaly.sp.recommended_cap`; checked for every registered mechanism)."""

    @abstractmethod
    def probs(self, x_i, B, *, beta, k, eps, cap=None) -> tuple[np.ndarray, np.ndarray]:
        """(P(M(x) = 0), P(M(x) = 1)) per record, float64."""

    @abstractmethod
    def exact_distribution(self, x_i: int, B: int, *, beta, k, eps, cap=None):
        """The exact law of M(x) for one record, as :class:`privanomaly.mechanisms.exact.ExactDist`."""

    @abstractmethod
    def sample(self, x_i, B, *, beta, k, eps, rng: np.random.Generator, n_trials: int, cap=None) -> np.ndarray:
        """``n_trials`` independent runs on every record: int8 array (n_trials, n_records)."""

    def prob_one(self, x_i, B, *, beta, k, eps, cap=None) -> np.ndarray:
        """P(M(x) = 1) per record."""
        return self.probs(x_i, B, beta=beta, k=k, eps=eps, cap=cap)[1]

    def error(self, x_i, B, *, beta, k, eps, cap=None) -> np.ndarray:
        """Exact error P(M(x) != g(i, x)) per record (g from x_i and B, Def. 2.2)."""
        p0, p1 = self.probs(x_i, B, beta=beta, k=k, eps=eps, cap=cap)
        g = np.asarray(is_anomaly(x_i, B, beta)).astype(bool)
        return np.where(g, p0, p1)


def check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator (privanomaly.seeding.rng)")
    return rng


def check_trials(n_trials) -> int:
    n = int(n_trials)
    if n < 1:
        raise ValueError(f"n_trials must be >= 1, got {n_trials!r}")
    return n
