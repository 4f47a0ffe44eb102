"""Every mechanism of both papers as an object carrying its claim, exact law and exact sampler, in one registry.

``register(name)`` / ``get(name)`` / ``names(family)``: config, Tables 2-3, sweeps and the audit harness
(:mod:`privanomaly.audit`) refer to mechanisms by registry name. Paper A: :mod:`.paper_a`; paper B's
mechanisms register themselves from :mod:`.paper_b` (see :data:`.registry.BUILTIN_MODULES`).
"""

from .base import NEIGHBOUR_RELATIONS, AIQMechanism, Claim, Mechanism
from .exact import ExactDist, QRat, edge_holds, edge_log_ratio, log_value, sign_at
from .registry import BUILTIN_MODULES, all_mechanisms, get, names, register, unregister

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
    "BUILTIN_MODULES",
    "all_mechanisms",
    "get",
    "names",
    "register",
    "unregister",
]
