"""Synthetic datasets, drawn from a ``numpy.random.Generator`` (seeded by ``privanomaly.seeding``).

* :func:`gaussian_mixture` — paper A's synthetic data (Section 5): a mixture of isotropic Gaussians
  (identity covariance scaled by ``std``) whose means are drawn uniformly at random in a box, plus a uniform
  background of points labelled anomalous. The seeds of paper A give only the words "mixed gaussian
  distribution, identity matrix, ... uniformly random"; sizes and dimension are configuration.
* :func:`gaussian_outliers` — paper B's Synthetic 1 and 2 (Section 6.1): inliers from N(mu_in, diag(var_in)),
  outliers from N(mu_out, diag(var_out)).

Both return ``(X, y)`` with ``y = 1`` for anomalies/outliers; rows are shuffled so that labels are not sorted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def gaussian_mixture(
    rng: np.random.Generator,
    *,
    dim: int,
    n_components: int,
    n_normal: int,
    n_anomaly: int,
    mean_low: float,
    mean_high: float,
    std: float = 1.0,
    background_margin: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Paper A's synthetic data: normals from an equal-weight mixture of N(m_c, std^2 I), anomalies uniform.

    Component means m_c ~ U[mean_low, mean_high]^dim; each normal point picks its component uniformly.
    Anomalies are uniform on the box [mean_low - background_margin, mean_high + background_margin]^dim and
    labelled 1 wherever they fall (a few may land inside a cluster; paper A defines anomalies by (beta, r)
    over the data anyway, the label records only how the point was generated).
    """
    means = rng.uniform(mean_low, mean_high, size=(n_components, dim))
    comp = rng.integers(0, n_components, size=n_normal)
    normal = means[comp] + std * rng.standard_normal((n_normal, dim))
    lo, hi = mean_low - background_margin, mean_high + background_margin
    anomaly = rng.uniform(lo, hi, size=(n_anomaly, dim))
    return _shuffle(rng, normal, anomaly)


def gaussian_outliers(
    rng: np.random.Generator,
    *,
    dim: int,
    n_normal: int,
    n_anomaly: int,
    normal: Mapping[str, Sequence[float]],
    anomaly: Mapping[str, Sequence[float]],
) -> tuple[np.ndarray, np.ndarray]:
    """Paper B's Synthetic 1/2: inliers ~ N(normal.mean, diag(normal.var)), outliers ~ N(anomaly.mean, diag(anomaly.var)).

    Synthetic 1: dim 2, 45 inliers N(0, I), 5 outliers N((20, 20), diag(100, 100)).
    Synthetic 2: dim 10, 490 inliers N(0, I), 10 outliers N((20, 20, 0, ..., 0), diag(100, 100, 1, ..., 1)).
    """
    parts = []
    for spec, n in ((normal, n_normal), (anomaly, n_anomaly)):
        mean = np.asarray(spec["mean"], dtype=np.float64)
        var = np.asarray(spec["var"], dtype=np.float64)
        if mean.shape != (dim,) or var.shape != (dim,) or (var < 0).any():
            raise ValueError(f"mean/var must have length dim = {dim} and var >= 0; got {mean}, {var}")
        parts.append(mean + np.sqrt(var) * rng.standard_normal((n, dim)))
    return _shuffle(rng, *parts)


def _shuffle(rng: np.random.Generator, normal: np.ndarray, anomaly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    X = np.vstack([normal, anomaly])
    y = np.concatenate([np.zeros(len(normal), np.int8), np.ones(len(anomaly), np.int8)])
    order = rng.permutation(len(X))
    return X[order], y[order]


GENERATORS = {"gaussian_mixture": gaussian_mixture, "gaussian_outliers": gaussian_outliers}


def generate(rng: np.random.Generator, spec: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Run the generator named ``spec['name']`` with the other keys of ``spec`` as arguments."""
    params = {k: v for k, v in spec.items() if k != "name"}
    try:
        fn = GENERATORS[spec["name"]]
    except KeyError:
        raise ValueError(f"unknown generator {spec.get('name')!r}; known: {', '.join(GENERATORS)}") from None
    return fn(rng, **params)
