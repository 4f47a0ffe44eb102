"""Synthetic generators: reproducible from the seed, the configured sizes, the stated distributions."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import yaml

from privanomaly.datasets import build, check_schema, gaussian_mixture, gaussian_outliers, generate
from privanomaly.seeding import rng

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())
DATASETS = CONFIG["datasets"]


@pytest.mark.parametrize("name", ["synthetic_a", "synthetic_a_2d", "synthetic_b1", "synthetic_b2"])
def test_configured_generator_is_reproducible_from_seed(name):
    e = DATASETS[name]
    a, pa = build(name, e, [], 123)
    b, pb = build(name, e, [], 123)
    c, _ = build(name, e, [], 124)
    check_schema(a)
    assert a.equals(b) and pa == pb
    assert not a.drop(columns="label").equals(c.drop(columns="label"))
    assert pa["source"]["seed_keys"] == [123, "synthetic", name]


def test_paper_b_synthetic_sizes_and_no_standardisation():
    s1, p1 = build("synthetic_b1", DATASETS["synthetic_b1"], [], CONFIG["seed"])
    s2, p2 = build("synthetic_b2", DATASETS["synthetic_b2"], [], CONFIG["seed"])
    assert (p1["rows"], p1["dims"], p1["n_anomalies"]) == (50, 2, 5)  # paper B Table 1
    assert (p2["rows"], p2["dims"], p2["n_anomalies"]) == (500, 10, 10)  # paper B Table 2
    # raw generator output, not z-scored: identical to calling the generator with the same stream
    X, y = generate(rng(CONFIG["seed"], "synthetic", "synthetic_b1"), DATASETS["synthetic_b1"]["generator"])
    np.testing.assert_array_equal(s1.drop(columns="label").to_numpy(), X)
    np.testing.assert_array_equal(s1["label"].to_numpy(), y)
    # outliers sit around (20, 20) in the first two coordinates only (Synthetic 2)
    out = s2[s2.label == 1].drop(columns="label").to_numpy()
    assert (np.abs(out[:, 2:]) < 6).all()


def test_gaussian_outliers_distribution():
    g = rng(0, "test")
    X, y = gaussian_outliers(
        g,
        dim=3,
        n_normal=20000,
        n_anomaly=20000,
        normal={"mean": [0, 0, 0], "var": [1, 1, 1]},
        anomaly={"mean": [20, 20, 0], "var": [100, 100, 1]},
    )
    assert X.shape == (40000, 3) and int(y.sum()) == 20000
    inl, outl = X[y == 0], X[y == 1]
    np.testing.assert_allclose(inl.mean(0), [0, 0, 0], atol=0.05)
    np.testing.assert_allclose(inl.var(0), [1, 1, 1], rtol=0.05)
    np.testing.assert_allclose(outl.mean(0), [20, 20, 0], atol=0.5)
    np.testing.assert_allclose(outl.var(0), [100, 100, 1], rtol=0.05)
    assert (np.diff(y) < 0).any() and (np.diff(y) > 0).any()  # shuffled, not sorted by label


def test_gaussian_mixture_layout():
    g = rng(0, "test")
    X, y = gaussian_mixture(
        g, dim=4, n_components=3, n_normal=3000, n_anomaly=500, mean_low=-10, mean_high=10, std=0.5, background_margin=5
    )
    assert X.shape == (3500, 4) and int(y.sum()) == 500
    anomalies = X[y == 1]
    assert anomalies.min() >= -15 and anomalies.max() <= 15  # uniform box [low - margin, high + margin]
    # normals cluster: every normal point is within a few std of one of at most 3 centres
    from sklearn.cluster import KMeans

    km = KMeans(3, n_init=10, random_state=0).fit(X[y == 0])
    assert np.sqrt(((X[y == 0] - km.cluster_centers_[km.labels_]) ** 2).sum(1)).max() < 0.5 * 6


def test_gaussian_outliers_rejects_wrong_vector_length():
    with pytest.raises(ValueError, match="length dim = 2"):
        gaussian_outliers(
            rng(0),
            dim=2,
            n_normal=2,
            n_anomaly=1,
            normal={"mean": [0], "var": [1]},
            anomaly={"mean": [0, 0], "var": [1, 1]},
        )


def test_entry_check_names_generator_key():
    from privanomaly.datasets import DataError, check_dataset_entry

    e = copy.deepcopy(DATASETS["synthetic_b2"])
    e["generator"]["anomaly"]["mean"] = [20, 20]
    with pytest.raises(
        DataError, match=r"datasets\.synthetic_b2\.generator\.anomaly\.mean: length 2 differs from dim = 10"
    ):
        check_dataset_entry("synthetic_b2", e)
    for name, entry in DATASETS.items():
        check_dataset_entry(name, entry)  # the shipped config passes


def test_a_generator_box_past_float64_is_an_error_naming_the_key():
    # mean_low/mean_high of +-1e308 passed the config check and failed the prepare job with numpy's
    # "OverflowError: high - low range exceeds valid bounds", naming nothing
    from privanomaly.datasets import DataError, build
    from privanomaly.datasets.validation import check_dataset_entry

    gen = {"name": "gaussian_mixture", "dim": 2, "n_components": 2, "n_normal": 20, "n_anomaly": 2,
           "mean_low": -1e308, "mean_high": 1e308}
    with pytest.raises(DataError, match=r"datasets\.big\.generator: the box .* is wider than float64 can hold"):
        check_dataset_entry("big", {"generator": gen})
    with pytest.raises(DataError, match=r"datasets\.big\.generator: its numbers are too large for float64"):
        build("big", {"generator": gen}, [], 1)
    check_dataset_entry("big", {"generator": {**gen, "mean_low": -1e300, "mean_high": 1e300}})
