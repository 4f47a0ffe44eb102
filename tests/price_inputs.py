"""The end-to-end rows' inputs for tests of the price tables: the same records at raw scale (rule prepare_raw)
and the per-record split's key, as :func:`privanomaly.price.tuning.price_table` passes them."""

from __future__ import annotations

import numpy as np

from privanomaly.price import released_path

RAW_STANDARDIZED = {"steps": [{"step": "standardize", "deferred": True}]}


def split_args(X, y, fraction: float, seed: int, prov: dict | None = None) -> dict:
    """``raw``, ``seed`` and ``fraction`` of the price functions: ``X`` taken as the raw-scale records, the
    z-scoring deferred to the public part unless ``prov`` says otherwise."""
    raw = released_path.RawRecords.from_table(np.asarray(X, float), np.asarray(y), prov or RAW_STANDARDIZED)
    return {"raw": raw, "seed": int(seed), "fraction": float(fraction)}


def membership_of(split: dict):
    """The per-record split the price functions draw from ``split_args``' records."""
    from privanomaly.privacy import membership

    raw = split["raw"]
    return membership.split(raw.X, raw.y, split["seed"], split["fraction"])


def substitute(X, y, i: int, seed: int, fraction: float, *, public: bool, start=(40.0, -40.0), label=None):
    """``(X, y)`` with record ``i`` replaced by a far record (``start`` moved by whole steps) with label ``label``
    (default: its own) that hashes ``public`` or private: a neighbour on the claimed relation when private."""
    from privanomaly.privacy import membership

    X, y = np.array(X, float), np.array(y)
    lab = y[i] if label is None else label
    for step in range(1000):
        row = np.array(start, float) + step
        if bool(membership.public_mask(row[None, :], np.array([lab]), seed, fraction)[0]) == public:
            X[i], y[i] = row, lab
            return X, y
    raise AssertionError("no record of the wanted membership in 1000 tries")
