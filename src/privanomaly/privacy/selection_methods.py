"""The private selection methods a price table can use, by name: the one place that maps a name of config
``privacy.selection_methods`` to its implementation.

* ``exponential`` - the exponential mechanism (:mod:`.private_selection`; McSherry & Talwar 2007);
* ``permute_and_flip`` - permute-and-flip (:mod:`.permute_flip`; McKenna & Sheldon 2020), whose expected utility
  is never below the exponential mechanism's at the same ε and Δu.

Each module has the same functions: ``claim(eps, Δu, neighbours, utility_text)``, ``exact_law``, ``probs``
(its law in floats, what the price tables take expectations over) and ``select`` (its exact sampler).
"""

from __future__ import annotations

from types import ModuleType

from . import permute_flip, private_selection

__all__ = ["METHODS", "get", "check_names", "LABELS"]

METHODS: dict[str, ModuleType] = {"exponential": private_selection, "permute_and_flip": permute_flip}
LABELS = {"exponential": "exponential mechanism", "permute_and_flip": "permute-and-flip"}


def check_names(names, key: str = "privacy.selection_methods") -> tuple[str, ...]:
    """``names`` as a tuple, each a known method, none twice (a clear error naming ``key`` otherwise)."""
    if isinstance(names, str) or not names:
        raise ValueError(f"{key}: expected a non-empty list of selection methods ({', '.join(METHODS)}), got {names!r}")
    out = tuple(str(n) for n in names)
    unknown = [n for n in out if n not in METHODS]
    if unknown or len(set(out)) != len(out):
        what = f"unknown {', '.join(map(repr, unknown))}" if unknown else "a method listed twice"
        raise ValueError(f"{key}: {what}; known: {', '.join(METHODS)}")
    return out


def get(name: str) -> ModuleType:
    """The module of selection method ``name``."""
    return METHODS[check_names([name])[0]]
