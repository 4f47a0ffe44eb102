"""Preprocessing steps (missing, columns, standardise, PCA, stratified subsample) and the output schema."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from privanomaly import io
from privanomaly.datasets import DataError, build, check_schema, preprocess
from privanomaly.datasets.prepare import stratified_subsample
from privanomaly.datasets.summary import summary_table
from privanomaly.seeding import rng

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())


def frame(n=40, seed=0, text=False):
    g = np.random.default_rng(seed)
    df = pd.DataFrame({"a": g.normal(5, 3, n), "b": g.normal(-1, 0.1, n), "c": np.full(n, 7.0)})
    if text:
        df["s"] = ["t"] * n
    y = np.zeros(n, np.int8)
    y[::8] = 1
    return df, y


def test_steps_run_in_the_fixed_order_and_are_recorded():
    df, y = frame(text=True)
    df.loc[3, "a"] = np.nan
    out, steps = preprocess(
        df,
        y,
        {"missing": "drop", "drop_columns": ["b", "s"], "pca": 1, "subsample": {"n_normal": 10, "n_anomaly": 2}},
        1,
        "t",
    )
    assert [s["step"] for s in steps] == ["missing", "select_columns", "standardize", "pca", "subsample"]
    assert steps[0]["rows_dropped"] == 1
    assert steps[1]["dropped"] == ["b", "s"] and steps[1]["columns"] == ["a", "c"]
    assert steps[2]["constant_columns_set_to_0"] == ["c"]
    assert list(out.columns) == ["pc0", "label"]
    assert len(out) == 12 and int(out.label.sum()) == 2
    assert 3 not in steps[4]["source_rows"]  # the dropped row can never be drawn


def test_standardize_mean_zero_unit_variance_constant_column_zero():
    df, y = frame()
    out, _ = preprocess(df, y, {}, 1, "t")
    X = out[["a", "b"]].to_numpy()
    np.testing.assert_allclose(X.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(X.std(0), 1, atol=1e-12)
    assert (out["c"] == 0).all()
    check_schema(out)


def test_standardize_false_keeps_values():
    df, y = frame()
    out, steps = preprocess(df, y, {"standardize": False}, 1, "t")
    np.testing.assert_array_equal(out["a"].to_numpy(), df["a"].to_numpy())
    assert "standardize" not in [s["step"] for s in steps]


def test_missing_modes():
    df, y = frame(10)
    df.loc[[1, 4], "a"] = np.nan
    with pytest.raises(DataError, match=r"datasets\.t\.preprocess\.missing: 2 missing values"):
        preprocess(df, y, {}, 1, "t")
    out, steps = preprocess(df, y, {"missing": "impute_median", "standardize": False}, 1, "t")
    med = np.nanmedian(df["a"].to_numpy())
    assert out.loc[1, "a"] == med and out.loc[4, "a"] == med
    assert steps[0]["cells_imputed"] == 2 and steps[0]["columns_imputed"] == 1
    out, steps = preprocess(df, y, {"missing": "drop"}, 1, "t")
    assert len(out) == 8 and steps[0]["rows_dropped"] == 2


def test_impute_never_drops_an_entirely_missing_column_unless_asked():
    df, y = frame(10)
    df["empty"] = np.nan
    with pytest.raises(DataError, match=r"column\(s\) \['empty'\] are missing in every row.*datasets\.t\.preprocess\.drop_columns"):
        preprocess(df, y, {"missing": "impute_median"}, 1, "t")
    out, steps = preprocess(df, y, {"missing": "impute_median", "drop_columns": ["empty"]}, 1, "t")
    assert "empty" not in out.columns and steps[1]["dropped"] == ["empty"] and steps[0]["columns_imputed"] == 0


def test_pca_matches_sklearn_and_checks_dimension():
    from sklearn.decomposition import PCA

    g = np.random.default_rng(3)
    X = g.normal(size=(200, 5)) @ g.normal(size=(5, 5))
    df = pd.DataFrame(X, columns=list("abcde"))
    y = np.zeros(200, np.int8)
    y[:4] = 1
    out, steps = preprocess(df, y, {"pca": 2}, 1, "t")
    Z = (X - X.mean(0)) / X.std(0)
    np.testing.assert_allclose(out[["pc0", "pc1"]].to_numpy(), PCA(2, svd_solver="full").fit_transform(Z), atol=1e-10)
    assert sum(steps[-1]["explained_variance_ratio"]) <= 1
    with pytest.raises(DataError, match=r"preprocess\.pca: 9 components asked, data has 5 columns"):
        preprocess(df, y, {"pca": 9}, 1, "t")


def test_column_selection_errors_name_the_key():
    df, y = frame(text=True)
    with pytest.raises(DataError, match=r"datasets\.t\.preprocess\.drop_columns: no column\(s\) \['zzz'\]"):
        preprocess(df, y, {"drop_columns": ["zzz"]}, 1, "t")
    with pytest.raises(DataError, match=r"column 's', data row 1 .*'t' is not a number.*drop_columns: \[s\]"):
        preprocess(df, y, {}, 1, "t")
    with pytest.raises(DataError, match="no feature column left after keep_columns/drop_columns"):
        preprocess(df[["s"]], y, {"drop_columns": ["s"]}, 1, "t")
    with pytest.raises(DataError, match="named 'label'"):
        preprocess(df.rename(columns={"a": "label"}), y, {}, 1, "t")
    out, _ = preprocess(df, y, {"keep_columns": ["b", "a"]}, 1, "t")
    assert list(out.columns) == ["b", "a", "label"]


def test_stratified_subsample_exact_counts_no_replacement_reproducible():
    y = np.array([0] * 900 + [1] * 100, np.int8)
    np.random.default_rng(5).shuffle(y)
    idx = stratified_subsample(y, 45, 5, rng(1, "subsample", "x"))
    assert len(idx) == 50 and len(set(idx.tolist())) == 50 and (np.diff(idx) > 0).all()
    assert int((y[idx] == 0).sum()) == 45 and int(y[idx].sum()) == 5
    np.testing.assert_array_equal(idx, stratified_subsample(y, 45, 5, rng(1, "subsample", "x")))
    assert not np.array_equal(idx, stratified_subsample(y, 45, 5, rng(2, "subsample", "x")))
    full = stratified_subsample(y, 900, 100, rng(1, "subsample", "x"))  # everything = identity
    np.testing.assert_array_equal(full, np.arange(1000))
    with pytest.raises(DataError, match=r"subsample\.n_anomaly: 101 requested, only 100 available"):
        stratified_subsample(y, 10, 101, rng(1, "subsample", "x"))


def test_subsample_seed_comes_from_config_seed_and_dataset_name():
    df, y = frame(80)
    sub = {"subsample": {"n_normal": 5, "n_anomaly": 2}}
    a, sa = preprocess(df, y, sub, 11, "one")
    b, sb = preprocess(df, y, sub, 11, "one")
    c, sc = preprocess(df, y, sub, 11, "two")
    pd.testing.assert_frame_equal(a, b)
    assert sa[-1]["source_rows"] == sb[-1]["source_rows"] != sc[-1]["source_rows"]
    assert sa[-1]["seed_keys"] == [11, "subsample", "one"]


def test_parquet_schema_roundtrip(tmp_path):
    df, y = frame()
    out, _ = preprocess(df, y, {}, 1, "t")
    path = tmp_path / "t.parquet"
    io.write_table(out, path)
    back = pd.read_parquet(path)
    assert back.dtypes.to_dict() == {"a": np.float64, "b": np.float64, "c": np.float64, "label": np.int8}
    check_schema(back)


def test_check_schema_rejects_bad_tables():
    good = pd.DataFrame({"x0": [0.0, 1.0], "label": np.array([0, 1], np.int8)})
    check_schema(good)
    with pytest.raises(DataError, match="label"):
        check_schema(good.assign(label=[0, 2]).astype({"label": np.int8}))
    with pytest.raises(DataError, match="float64"):
        check_schema(good.astype({"x0": np.float32}))
    with pytest.raises(DataError, match="no 'label'"):
        check_schema(good.drop(columns="label"))


@pytest.mark.mirror
def test_thyroid_build_provenance_and_summary_row():
    e = CONFIG["datasets"]["thyroid"]
    df, prov = build("thyroid", e, [str(MIRROR / e["files"][0]["path"])], CONFIG["seed"])
    check_schema(df)
    assert list(df.columns) == [f"x{i}" for i in range(6)] + ["label"]
    assert (prov["rows"], prov["dims"], prov["n_anomalies"]) == (3772, 6, 93)
    assert prov["source"]["sha256"] == e["files"][0]["sha256"]
    assert prov["source"]["url"] == e["files"][0]["url"]
    row = summary_table([prov]).iloc[0]
    assert (row["dataset"], row["rows"], row["dims"], row["n_anomalies"]) == ("thyroid", 3772, 6, 93)
    assert row["sha256"] == e["files"][0]["sha256"] and row["steps"] == "standardize"


@pytest.mark.mirror
def test_a_table_that_draws_no_random_numbers_is_built_without_a_seed():
    """Rule prepare passes the seed only to entries that draw from it (a generator or a subsample)."""
    from privanomaly.datasets.validation import draws_randomness

    e = CONFIG["datasets"]["thyroid"]
    assert not draws_randomness(e) and draws_randomness(CONFIG["datasets"]["synthetic_a"])
    assert draws_randomness(CONFIG["datasets"]["adult_b1"])  # its subsample
    path = [str(MIRROR / e["files"][0]["path"])]
    df, prov = build("thyroid", e, path, None)
    assert df.equals(build("thyroid", e, path, CONFIG["seed"])[0]) and prov["seed"] is None
    with pytest.raises(ValueError, match="datasets.synthetic_a: a generator or a subsample draws random numbers"):
        build("synthetic_a", CONFIG["datasets"]["synthetic_a"], [], None)
    sub = {**e, "preprocess": {**e["preprocess"], "subsample": {"n_normal": 10, "n_anomaly": 2}}}
    with pytest.raises(ValueError, match="a seed is needed"):
        build("thyroid", sub, path, None)


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(st.integers(0, 1), min_size=1, max_size=200),
    frac_normal=st.floats(0, 1),
    frac_anomaly=st.floats(0, 1),
    seed=st.integers(0, 2**32),
)
def test_stratified_subsample_property(labels, frac_normal, frac_anomaly, seed):
    y = np.asarray(labels, np.int8)
    n0, n1 = int((y == 0).sum() * frac_normal), int((y == 1).sum() * frac_anomaly)
    idx = stratified_subsample(y, n0, n1, rng(seed, "subsample", "h"))
    assert len(idx) == n0 + n1 and (np.diff(idx) > 0).all()
    assert int((y[idx] == 0).sum()) == n0 and int((y[idx] == 1).sum()) == n1
