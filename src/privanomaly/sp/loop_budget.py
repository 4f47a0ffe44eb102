"""Budgets for the loops of the exact samplers: a loop that runs far past what its law allows stops with an error.

Every exact sampler here (:mod:`.dlap`, :mod:`privanomaly.outliers.exact_random`, Karney's normal of
:mod:`privanomaly.outliers.exact_normal`, Algorithm 3's proposals in :mod:`privanomaly.outliers.exponential`)
repeats a round until each pending draw is accepted (or its run stops). Under the law the sampler claims, a
pending draw survives round ``j`` with probability at most ``c_j``, independently of the other draws, so after
``R`` rounds one of ``n`` draws is still pending with probability at most ``n c_1 ... c_R`` (union bound). The
budget of a loop is the smallest ``R`` that makes this at most :data:`FALSE_STALL` = 2^-60: a correct sampler
exceeds it with probability below 2^-60 per loop run (about 9e-19; the full audit runs about 26,000 loops, so it
fails falsely with probability below 3e-14; its correct samplers used at most half of a budget), while a
sampler whose acceptance is broken (never accepts, or
with a vanishing probability) stops after the budget - a few dozen to a few hundred rounds - with
:class:`SamplerStalled`, naming the loop, how many draws were still pending and the law it expected, instead
of running forever. Counting rounds costs nothing measurable next to a round's draws.

Digit-by-digit decisions on uniforms (two base-2^62 digits tie with probability 2^-62; a bin edge falls in a
digit's sub-interval with probability at most 2^-61) get the fixed budget :data:`TIE_DIGITS` of further digits:
running past it has probability at most 2^(-61 TIE_DIGITS) = 2^-244 per decision.
"""

from __future__ import annotations

import functools
import math

__all__ = ["FALSE_STALL", "TIE_DIGITS", "SamplerStalled", "geometric_budget", "factorial_budget", "Rounds",
           "check_tie_digits"]

FALSE_STALL = 2.0**-60
"""Largest probability that a correct sampler exceeds a loop's budget in one run of the loop."""
_LOG_FALSE = math.log(FALSE_STALL)

TIE_DIGITS = 4
"""Most further base-2^62 digits a digit-by-digit decision may need (probability at most 2^-61 each)."""


class SamplerStalled(RuntimeError):
    """An exact sampler's loop ran past its budget: its draws do not follow the law it claims (see the module
    doc). The message names the loop, the pending draws and the law's acceptance probability."""


def geometric_budget(n: int, cont: float) -> int:
    """Smallest R >= 1 with ``n cont^R <= FALSE_STALL``: rounds of a loop in which each of ``n`` pending draws
    survives a round with probability at most ``cont`` (0 <= cont < 1)."""
    if not 0.0 <= cont < 1.0:
        raise ValueError(f"geometric_budget: the continuation probability must be in [0, 1), got {cont!r}")
    if cont == 0.0:
        return 1
    return max(1, math.ceil((math.log(max(int(n), 1)) - _LOG_FALSE) / -math.log(cont)))


def factorial_budget(n: int) -> int:
    """Smallest R >= 1 with ``2^b / R! <= FALSE_STALL``, 2^b the power of two >= n: rounds of a loop whose
    draws survive round j with probability at most 1/j (CKS Algorithm 1: Bernoulli(gamma / K) with gamma <= 1;
    a descending run of uniforms, Karney's Algorithm B)."""
    return _factorial_budget(max(int(n) - 1, 0).bit_length())


@functools.lru_cache(maxsize=None)
def _factorial_budget(bits: int) -> int:
    R, log_left = 1, bits * math.log(2.0)
    while log_left - math.lgamma(R + 1) > _LOG_FALSE:
        R += 1
    return R


class Rounds:
    """The round counter of one run of a sampler's loop: ``tick(pending)`` once per round, raising
    :class:`SamplerStalled` once ``budget`` rounds ran and draws are still pending."""

    __slots__ = ("what", "law", "budget", "done")

    def __init__(self, what: str, budget: int, law: str):
        self.what, self.law, self.budget, self.done = what, law, int(budget), 0

    def tick(self, pending: int = 1, step: int = 1) -> None:
        """Count ``step`` rounds (or proposals) just run, after which ``pending`` draws are still pending."""
        self.done += int(step)
        if pending and self.done >= self.budget:
            raise SamplerStalled(
                f"{self.what}: {int(pending)} draw(s) still pending after {self.done} rounds, past the budget of "
                f"{self.budget}; {self.law}, so a correct sampler gets this far with probability below 2^-60 - "
                "its acceptance step does not follow its law")


def check_tie_digits(what: str, digits: int) -> None:
    """Raise :class:`SamplerStalled` when a digit-by-digit decision needs more than :data:`TIE_DIGITS` further
    digits (each further digit is needed with probability at most 2^-61 for uniform digits)."""
    if digits > TIE_DIGITS:
        raise SamplerStalled(f"{what}: still undecided after {digits} further base-2^62 digits, each needed with "
                             f"probability at most 2^-61 when the digits are uniform: the digits drawn are not")
