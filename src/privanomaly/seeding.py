"""Deterministic randomness: every stochastic step gets its own generator from the config seed and its keys.

The stream of a step depends only on (config seed, the step's own keys such as rule name and wildcards),
never on execution order, so ``--cores 1`` and ``--cores 8`` give identical tables.
"""

from __future__ import annotations

import hashlib

import numpy as np


def _key_entropy(key: object) -> int:
    """64 bits of sha256(repr(key)); numpy scalars count as the equal Python scalar (np.float64(0.5) ≡ 0.5)."""
    if isinstance(key, np.generic):
        key = key.item()
    digest = hashlib.sha256(repr(key).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "little")


def seed_sequence(seed: int, *keys: object) -> np.random.SeedSequence:
    """A SeedSequence derived from ``seed`` and the hashed ``keys`` (e.g. ``"paper_a", "thyroid", 0.5``)."""
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.SeedSequence([int(seed), *(_key_entropy(k) for k in keys)])


def rng(seed: int, *keys: object) -> np.random.Generator:
    """A fresh ``numpy.random.Generator`` for the step identified by ``keys``."""
    return np.random.default_rng(seed_sequence(seed, *keys))
