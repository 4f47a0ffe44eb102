"""Every mechanism of both papers as an object carrying its claim, exact law and exact sampler, in one registry.

``register(name)`` / ``get(name)`` / ``names(family)``: config, Tables 2-3, sweeps and the audit harness
(:mod:`privanomaly.audit`) refer to mechanisms by registry name. Paper A: :mod:`.paper_a`; paper B:
:mod:`.paper_b` and :mod:`.paper_b_printed`; :func:`get` and :func:`names` import them on first use
(:func:`_load_builtins`), so ``import privanomaly.mechanisms`` stays cheap.
"""

from __future__ import annotations

import hashlib
import inspect
import pkgutil
import sys
from pathlib import Path

from .base import NEIGHBOUR_RELATIONS, AIQMechanism, Claim, Mechanism
from .exact import ExactDist, QRat, edge_holds, edge_log_ratio, log_value, sign_at
from . import registry as _registry
from .registry import register, unregister

__all__ = [
    "NEIGHBOUR_RELATIONS",
    "AIQMechanism",
    "Claim",
    "Mechanism",
    "ExactDist",
    "QRat",
    "edge_holds",
    "edge_log_ratio",
    "log_value",
    "sign_at",
    "all_mechanisms",
    "fingerprint",
    "smallest_noise_share",
    "not_loaded_hint",
    "unloaded_modules",
    "get",
    "names",
    "register",
    "unregister",
]


def _load_builtins() -> None:
    """Import the modules of the built-in mechanisms (their import registers them; a new module is one more
    name here)."""
    from . import paper_a, paper_b, paper_b_printed  # noqa: F401


def get(name: str) -> Mechanism:
    """The mechanism registered as ``name`` (clear error listing the known names)."""
    _load_builtins()
    try:
        return _registry.get(name)
    except KeyError as err:
        raise KeyError(f"{err.args[0]}{not_loaded_hint()}") from None


def unloaded_modules() -> list[Path]:
    """Modules in this package's directory that :func:`_load_builtins` does not import: whatever they
    register is not in the registry (a new module must be named there)."""
    _load_builtins()
    return [Path(m.module_finder.path) / f"{m.name}.py" for m in pkgutil.iter_modules(__path__)
            if f"{__name__}.{m.name}" not in sys.modules]


def not_loaded_hint() -> str:
    """For "not registered" errors: the modules of this package that are never imported, and what to do."""
    missing = unloaded_modules()
    if not missing:
        return ""
    return (f"; not imported, so nothing in it is registered: {', '.join(map(str, missing))} - name the module "
            f"in the import line of privanomaly.mechanisms._load_builtins (src/privanomaly/mechanisms/__init__.py)")


def names(family: str | None = None) -> list[str]:
    """Registered names in registration order, optionally only one family ("aiq" = paper A, ...)."""
    _load_builtins()
    return _registry.names(family)


def all_mechanisms(family: str | None = None) -> list[Mechanism]:
    """Every registered mechanism (of ``family``), in registration order."""
    return [get(n) for n in names(family)]


def smallest_noise_share(names) -> float:
    """The smallest ``noise_share`` of the mechanisms ``names`` (1 for none): the slowest rate, as a share of ε, at
    which one of their errors falls per unit of distance - what a count cap for all of them is computed at
    (:func:`privanomaly.sp.recommended_cap`)."""
    return min((get(n).noise_share for n in names), default=1.0)


def fingerprint(family: str | None = None) -> dict[str, str]:
    """{registry name: sha256 (16 hex) of its class's name and the source of every module defining it or a base}.

    The privacy audit's rule takes this as a parameter, so a mechanism added to (or removed from) the registry,
    or an edit of a module that defines one, reruns the audit - its only input is this code.
    """
    out = {}
    for name in names(family):
        cls = type(get(name))
        h = hashlib.sha256(f"{cls.__module__}.{cls.__qualname__}".encode())
        for mod in sorted({c.__module__ for c in cls.__mro__} - {"builtins", "abc"}):
            try:
                h.update(b"\0" + inspect.getsource(sys.modules[mod]).encode())
            except (KeyError, OSError, TypeError):  # no source (a class built at run time): its name only
                h.update(b"\0" + mod.encode())
        out[name] = h.hexdigest()[:16]
    return out
