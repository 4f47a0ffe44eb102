"""A public split disjoint from the released records, and the preprocessing refitted on it.

The end-to-end private mode treats a seeded uniform share of the records as public (as if it came from a
public source: its records, labels included, are never released and never counted in the private part).
Every data-dependent choice may then be made on it - r by eq. (53), (β, r) by F1, the candidate grid, the
z-scoring - and the private part's release keeps its mechanism's claim, now with public parameters.

The split is a uniform random subset of the given size (``rng.permutation``): no stratification, so which
record is public does not depend on anyone's label. Its size and seed are config (``privacy.public_split``).

Standardisation is refitted on the public split from the prepared (already z-scored) table: z-scoring is
invariant under a prior per-column affine map with positive scale, so re-z-scoring the prepared features
with the public split's mean and standard deviation gives exactly the public split's z-scoring of the raw
features (a column constant on the public split is set to 0, as in ``prepare``). PCA and median imputation
cannot be refitted from the prepared table (the raw columns are gone): they stay data-dependent and the
scope says so (:func:`privanomaly.privacy.scope.preprocessing`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from privanomaly.datasets.prepare import constant_columns

from . import scope

__all__ = ["Split", "split", "refit_standardisation"]


@dataclass(frozen=True)
class Split:
    """Sorted row positions of the public and the private part (disjoint, together every row)."""

    public: np.ndarray
    private: np.ndarray


def split(n: int, fraction: float, rng: np.random.Generator, min_public: int = 1, min_private: int = 2) -> Split:
    """A uniform split of ``n`` rows: round(fraction n) public rows (config ``privacy.public_split.fraction``)."""
    if not 0 < fraction < 1:
        raise ValueError(f"privacy.public_split.fraction: expected a number in (0, 1), got {fraction!r}")
    n_pub = int(round(fraction * n))
    if n_pub < min_public or n - n_pub < min_private:
        raise ValueError(f"privacy.public_split.fraction = {fraction}: {n_pub} public and {n - n_pub} private rows "
                         f"of {n}; need >= {min_public} public and >= {min_private} private")
    perm = rng.permutation(n)
    return Split(np.sort(perm[:n_pub]), np.sort(perm[n_pub:]))


def refit_standardisation(Z: np.ndarray, public: np.ndarray, prov: Mapping) -> tuple[np.ndarray, dict]:
    """The features re-z-scored on the public rows (module docstring) and the provenance as it now reads.

    Only when the provenance has a standardisation step and no PCA (PCA'd columns re-z-scored are not the raw
    columns' z-scores): otherwise the features are returned as they are, and the scope keeps them data-dependent.
    The returned provenance marks that step ``fitted_on = public split``; other fitted steps are unchanged."""
    Z = np.asarray(Z, dtype=float)
    steps = [dict(s) for s in prov.get("steps", []) if isinstance(s, Mapping)]
    if not any(s.get("step") == "standardize" for s in steps) or any(s.get("step") == "pca" for s in steps):
        return Z.copy(), dict(prov, steps=steps)  # nothing to refit, or PCA'd columns: not the raw z-scores
    P = Z[np.asarray(public)]
    mean, std = P.mean(axis=0), P.std(axis=0)
    const = constant_columns(P) | (std == 0)
    out = (Z - mean) / np.where(const, 1.0, std)
    out[:, const] = 0.0
    for s in steps:
        if s.get("step") == "standardize":
            s["fitted_on"] = scope.FITTED_ON_PUBLIC
            s["constant_on_public_split"] = np.flatnonzero(const).tolist()
    return out, dict(prov, steps=steps)
