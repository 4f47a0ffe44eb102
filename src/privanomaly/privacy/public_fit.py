"""Preprocessing fitted on the raw public records alone: median imputation, z-scoring, PCA.

The end-to-end private mode reads the raw-scale table (rule ``prepare_raw``: :func:`privanomaly.datasets.build`
with ``fit = False``), whose fitted steps are recorded as deferred. :func:`fit` fits each of them on the
public records only (in :mod:`.membership`'s canonical order) - the medians, the mean and standard deviation
(ddof = 0; a column constant on the public part becomes 0, as in rule ``prepare``), the principal components
(sklearn PCA, full SVD) - and :meth:`PublicFit.transform` applies them to any rows. Nothing is ever fitted on
a table that saw the private records: the public features are a function of the public records alone, bit for
bit (:meth:`PublicFit.transform` is applied to the public rows on their own).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from privanomaly.datasets.prepare import constant_columns

from .scope import Scope

__all__ = ["Spec", "PublicFit", "spec_of", "fit"]


@dataclass(frozen=True)
class Spec:
    """Which fitted steps the raw table defers (read from its provenance by :func:`spec_of`)."""

    impute_median: bool = False
    standardize: bool = False
    pca: int | None = None


def spec_of(prov: Mapping) -> Spec:
    """The deferred steps of a raw-scale table's provenance; a step applied on all records is an error (that
    table is not raw: rule prepare's table reached the end-to-end path)."""
    steps = [s for s in prov.get("steps", []) if isinstance(s, Mapping)]
    fitted = [s["step"] for s in steps if s.get("step") in ("standardize", "pca") and not s.get("deferred")]
    fitted += ["median imputation" for s in steps if s.get("step") == "missing" and s.get("cells_imputed")]
    if fitted:
        raise ValueError(f"end-to-end path: the table has {', '.join(fitted)} fitted on all records; it needs the "
                         "raw-scale table of rule prepare_raw (results/privacy/raw/<dataset>.parquet)")
    deferred = {s["step"]: s for s in steps if s.get("deferred")}
    pca = deferred.get("pca")
    return Spec("missing" in deferred, "standardize" in deferred, int(pca["n_components"]) if pca else None)


@dataclass(frozen=True)
class PublicFit:
    """The statistics fitted on the public records (:func:`fit`)."""

    spec: Spec
    medians: np.ndarray | None
    mean: np.ndarray | None
    std: np.ndarray | None
    const: np.ndarray | None
    pca_mean: np.ndarray | None
    components: np.ndarray | None

    def transform(self, X: np.ndarray) -> np.ndarray:
        """The fitted steps applied to the rows of ``X`` (the public features: ``X`` the public rows alone, in the
        canonical order - the same input array, so the same bits, whatever the private records)."""
        Z = np.array(X, dtype=np.float64, copy=True)
        if self.medians is not None:
            Z = np.where(np.isnan(Z), self.medians, Z)
        if self.mean is not None:
            Z = (Z - self.mean) / np.where(self.const, 1.0, self.std)
            Z[:, self.const] = 0.0
        if self.components is not None:
            Z = (Z - self.pca_mean) @ self.components.T
        return Z

    def scope(self) -> Scope:
        """Every fitted step as a public input (fitted on the public records only)."""
        pub = ["median imputation fitted on the public part"] if self.medians is not None else []
        pub += ["standardisation fitted on the public part"] if self.mean is not None else []
        pub += [f"PCA ({len(self.components)} components) fitted on the public part"] if self.components is not None \
            else []
        return Scope(tuple(pub), ())


def fit(P: np.ndarray, spec: Spec) -> PublicFit:
    """Fit ``spec``'s steps on the raw public rows ``P`` (module docstring)."""
    P = np.asarray(P, dtype=np.float64)
    medians = mean = std = const = pca_mean = comps = None
    if spec.impute_median:
        gone = np.isnan(P).all(axis=0)
        if gone.any():
            raise ValueError(f"end-to-end path: column(s) {np.flatnonzero(gone).tolist()} are missing in every "
                             "public record; no median to impute (drop them with preprocess.drop_columns)")
        medians = np.nanmedian(P, axis=0)
        P = np.where(np.isnan(P), medians, P)
    if spec.standardize:
        mean, std = P.mean(axis=0), P.std(axis=0)
        const = constant_columns(P) | (std == 0)
        P = (P - mean) / np.where(const, 1.0, std)
        P[:, const] = 0.0
    if spec.pca:
        from sklearn.decomposition import PCA

        if spec.pca > min(P.shape):
            raise ValueError(f"end-to-end path: PCA of {spec.pca} components on {P.shape[0]} public records of "
                             f"{P.shape[1]} columns")
        model = PCA(n_components=spec.pca, svd_solver="full").fit(P)
        pca_mean, comps = model.mean_, model.components_
    return PublicFit(spec, medians, mean, std, const, pca_mean, comps)
