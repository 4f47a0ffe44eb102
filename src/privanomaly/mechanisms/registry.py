"""The one registry of mechanisms: config, tables, sweeps and the audit refer to mechanisms by name.

    @register("my_mechanism")
    class MyMechanism(AIQMechanism): ...

registers an instance (a class is instantiated without arguments; a zero-argument factory is called; an
instance is registered as is) and returns the decorated object unchanged. This module is only the store: the
built-in mechanisms (:mod:`.paper_a`, :mod:`.paper_b`, :mod:`.paper_b_printed`) are imported by the package
(:func:`privanomaly.mechanisms.get` / :func:`privanomaly.mechanisms.names` load them on first use).
"""

from __future__ import annotations

from typing import Callable, TypeVar

from .base import Mechanism

__all__ = ["register", "unregister", "get", "names"]

_REGISTRY: dict[str, Mechanism] = {}
T = TypeVar("T")


def register(name: str, *, replace: bool = False) -> Callable[[T], T]:
    """Decorator: register a Mechanism subclass, zero-argument factory or instance under ``name``."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"mechanism name must be an identifier-like string, got {name!r}")

    def deco(obj: T) -> T:
        inst = obj() if callable(obj) and not isinstance(obj, Mechanism) else obj
        if not isinstance(inst, Mechanism):
            raise TypeError(f"register({name!r}): expected a Mechanism, got {type(inst).__name__}")
        if name in _REGISTRY and not replace and type(_REGISTRY[name]) is not type(inst):
            raise ValueError(f"mechanism {name!r} is already registered ({_REGISTRY[name].describe()})")
        inst.name = name
        if not inst.label:
            inst.label = name
        _REGISTRY[name] = inst
        return obj

    return deco


def unregister(name: str) -> None:
    """Remove a mechanism (tests that register a toy mechanism clean up with this)."""
    _REGISTRY.pop(name, None)


def get(name: str) -> Mechanism:
    """The mechanism registered as ``name`` (clear error listing the known names)."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown mechanism {name!r}; registered: {sorted(_REGISTRY)}") from None


def names(family: str | None = None) -> list[str]:
    """Registered names in registration order, optionally only one family ("aiq" = paper A, ...)."""
    return [n for n, m in _REGISTRY.items() if family is None or m.family == family]
