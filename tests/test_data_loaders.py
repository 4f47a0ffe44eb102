"""Loaders on the mirrored files (numbers from ../shared/datasets/MANIFEST.md) and on tiny generated files of
the exact format of the two datasets that are not mirrored (Kaggle credit card, UCI APS)."""

from __future__ import annotations

import copy
import hashlib
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.io
import yaml

from privanomaly.datasets import DataError, build, check_schema, load_table, split_label

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())
DATASETS = CONFIG["datasets"]

needs_mirror = pytest.mark.mirror


def entry_for(name: str) -> dict:
    return copy.deepcopy(DATASETS[name])


def load_configured(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Parse the mirrored raw file of ``name`` exactly as its config entry says; return (features, labels)."""
    e = DATASETS[name]
    table = load_table(MIRROR / e["files"][0]["path"], e["format"], e.get("read"), e["label"]["column"])
    return split_label(table, e["label"])


# ---------------------------------------------------------------- mirrored files, MANIFEST numbers


@needs_mirror
@pytest.mark.parametrize(
    "name, rows, dims, anomalies",
    [
        ("thyroid", 3772, 6, 93),  # MANIFEST 1a
        ("mammography", 11183, 6, 260),  # MANIFEST 1b
        ("ionosphere", 351, 34, 126),  # MANIFEST 2a: class b = 126
    ],
)
def test_mirrored_loader_matches_manifest(name, rows, dims, anomalies):
    X, y = load_configured(name)
    assert X.shape == (rows, dims)
    assert int(y.sum()) == anomalies
    assert y.dtype == np.int8 and set(np.unique(y)) == {0, 1}


@needs_mirror
def test_ionosphere_uci_columns_are_x0_to_x33_and_attribute_2_is_constant():
    X, _ = load_configured("ionosphere")
    assert list(X.columns) == [f"x{i}" for i in range(34)]
    assert (X["x1"] == 0).all()  # the constant attribute that paper B keeps (d = 34)


@needs_mirror
def test_ionosphere_adbench_npz_is_the_same_data_rescaled():
    """MANIFEST 2b: the ADBench npz = UCI columns 3..34 mapped from [-1, 1] to [0, 1], same 126 outliers."""
    t = load_table(MIRROR / "ionosphere/18_Ionosphere.npz", "npz", None, "y")
    Xn, yn = split_label(t, {"column": "y", "anomaly_values": [1]})
    Xu, yu = load_configured("ionosphere")
    assert Xn.shape == (351, 32) and int(yn.sum()) == 126
    np.testing.assert_array_equal(yn, yu)
    np.testing.assert_allclose(Xn.to_numpy(), (Xu.to_numpy()[:, 2:] + 1) / 2, atol=1e-12)


@needs_mirror
def test_adult_raw_rows_labels_and_missing():
    X, y = load_configured("adult")
    assert len(X) == 32561  # MANIFEST 2c
    assert int(y.sum()) == 24720  # `<=50K` = negative = outlier
    assert int((y == 0).sum()) == 7841  # `>50K` = positive = inlier
    has_missing = X.isna().any(axis=1)
    assert int(has_missing.sum()) == 2399  # '?' in workclass / occupation / native-country
    assert set(X.columns[X.isna().any()]) == {"workclass", "occupation", "native-country"}
    assert list(X.select_dtypes("number").columns) == [
        "age",
        "fnlwgt",
        "education-num",
        "capital-gain",
        "capital-loss",
        "hours-per-week",
    ]


@needs_mirror
def test_adult_prepared_has_five_numeric_attributes_and_no_missing_rows():
    name = "adult"
    e = entry_for(name)
    df, prov = build(name, e, [str(MIRROR / e["files"][0]["path"])], CONFIG["seed"])
    check_schema(df)
    assert prov["rows"] == 30162 and prov["raw_rows"] == 32561
    assert prov["dims"] == 5  # paper B says d = 7; see the config comment
    assert list(df.columns) == ["age", "education-num", "capital-gain", "capital-loss", "hours-per-week", "label"]
    assert prov["n_anomalies"] == 22654
    np.testing.assert_allclose(df.drop(columns="label").mean(), 0, atol=1e-12)
    np.testing.assert_allclose(df.drop(columns="label").std(ddof=0), 1, atol=1e-12)


@needs_mirror
def test_paper_b_subsets_have_table_sizes():
    seed = CONFIG["seed"]
    expected = {"adult_b1": (45, 5, 5), "adult_b2": (369, 10, 5), "ionosphere_b": (225, 10, 34)}
    for name, (n_in, n_out, d) in expected.items():
        e = entry_for(name)
        df, prov = build(name, e, [str(MIRROR / e["files"][0]["path"])], seed)
        check_schema(df)
        assert (int((df.label == 0).sum()), int(df.label.sum()), prov["dims"]) == (n_in, n_out, d), name
        rows = prov["steps"][-1]["source_rows"]
        assert len(rows) == n_in + n_out and rows == sorted(rows) and len(set(rows)) == len(rows)


# ---------------------------------------------------------------- .mat (ODDS canonical format)


def test_mat_loader_reads_odds_layout(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 6))
    y = np.zeros((20, 1))  # ODDS stores y as a column vector
    y[[3, 7]] = 1
    path = tmp_path / "thyroid.mat"
    scipy.io.savemat(path, {"X": X, "y": y})
    t = load_table(path, "mat", None, "y")
    Xl, yl = split_label(t, {"column": "y", "anomaly_values": [1]})
    np.testing.assert_array_equal(Xl.to_numpy(), X)
    assert list(Xl.columns) == [f"x{i}" for i in range(6)]
    assert yl.tolist() == [1 if i in (3, 7) else 0 for i in range(20)]


def test_mat_loader_missing_key_names_it(tmp_path):
    path = tmp_path / "bad.mat"
    scipy.io.savemat(path, {"data": np.zeros((3, 2))})
    with pytest.raises(DataError, match="'X'"):
        load_table(path, "mat", None, "y")


# ---------------------------------------------------------------- Kaggle creditcard.csv format


def write_creditcard_csv(path: Path, n: int = 60, frauds: tuple[int, ...] = (5, 17, 40)) -> np.ndarray:
    """A file in the exact layout of Kaggle's creditcard.csv: quoted header, quoted "0"/"1" class."""
    rng = np.random.default_rng(1)
    X = np.column_stack([np.arange(n, dtype=float), rng.normal(size=(n, 28)), rng.uniform(0, 500, n).round(2)])
    header = ",".join(f'"{c}"' for c in ["Time", *[f"V{i}" for i in range(1, 29)], "Amount", "Class"])
    lines = [header]
    for i, row in enumerate(X):
        lines.append(",".join(repr(float(v)) for v in row) + f',"{1 if i in frauds else 0}"')
    path.write_text("\n".join(lines) + "\n")
    return X


def with_local_hash(entry: dict, path: Path) -> dict:
    entry = copy.deepcopy(entry)
    entry["files"][0]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return entry


def test_creditcard_format_parses_quoted_header_and_class(tmp_path):
    path = tmp_path / "creditcard.csv"
    X = write_creditcard_csv(path)
    e = DATASETS["creditcard"]
    t = load_table(path, e["format"], e.get("read"), e["label"]["column"])
    feats, y = split_label(t, e["label"])
    assert list(feats.columns) == ["Time", *[f"V{i}" for i in range(1, 29)], "Amount"]
    np.testing.assert_array_equal(feats.to_numpy(), X)
    assert np.flatnonzero(y).tolist() == [5, 17, 40]


def test_creditcard_configured_pipeline_on_tiny_file(tmp_path):
    path = tmp_path / "creditcard.csv"
    write_creditcard_csv(path)
    e = with_local_hash(entry_for("creditcard"), path)
    df, prov = build("creditcard", e, [str(path)], 7)
    check_schema(df)
    assert prov["raw_columns"] == 30 and prov["rows"] == 60 and prov["n_anomalies"] == 3
    assert prov["dims"] == e["preprocess"]["pca"] == 6
    assert list(df.columns) == [f"pc{i}" for i in range(6)] + ["label"]
    assert [s["step"] for s in prov["steps"]] == ["missing", "select_columns", "standardize", "pca"]


def test_creditcard_wrong_checksum_is_refused(tmp_path):
    path = tmp_path / "creditcard.csv"
    write_creditcard_csv(path)
    with pytest.raises(
        DataError, match=r"datasets\.creditcard\.files\[0\] .*sha256 mismatch.*delete .*creditcard\.csv so that it is fetched again"
    ):
        build("creditcard", entry_for("creditcard"), [str(path)], 7)  # the real file's hash


# ---------------------------------------------------------------- UCI APS format (zip, preamble, na)

APS_PREAMBLE = [
    "This file is part of APS Failure and Operational Data for Scania Trucks.",
    "",
    "Copyright (c) <2016> <Scania CV AB>",
    "",
    "This program (APS Failure and Operational Data for Scania Trucks) is ",
    "free software: you can redistribute it and/or modify",
    "it under the terms of the GNU General Public License as published by",
    "the Free Software Foundation, either version 3 of the License, or",
    "(at your option) any later version.",
    "",
    "This program is distributed in the hope that it will be useful,",
    "but WITHOUT ANY WARRANTY; without even the implied warranty of",
    "MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the",
    "GNU General Public License for more details.",
    "",
    "You should have received a copy of the GNU General Public License",
    "along with this program.  If not, see <http://www.gnu.org/licenses/>.",
    "------------------------------------------------------------------------",
    "",
    "",
]


def aps_text(n_rows: int = 30, n_feat: int = 8, pos: tuple[int, ...] = (2, 11, 25)) -> tuple[str, np.ndarray]:
    """APS csv text: 20-line licence preamble, header `class,aa_000,...`, `na` for missing values."""
    assert len(APS_PREAMBLE) == 20
    rng = np.random.default_rng(2)
    vals = rng.integers(0, 1000, size=(n_rows, n_feat)).astype(float)
    vals[rng.random(vals.shape) < 0.2] = np.nan
    vals[:, 0] = np.nan  # first attribute mostly missing ...
    vals[0, 0] = 10.0  # ... but not entirely
    names = ["aa_000", *[f"a{c}_00{i}" for c, i in zip("bcdefghij", range(n_feat - 1))]]
    lines = [*APS_PREAMBLE, ",".join(["class", *names])]
    for i, row in enumerate(vals):
        cells = ["na" if np.isnan(v) else str(int(v)) for v in row]
        lines.append(",".join(["pos" if i in pos else "neg", *cells]))
    return "\n".join(lines) + "\n", vals


def test_aps_csv_skips_preamble_and_reads_na(tmp_path):
    text, vals = aps_text()
    path = tmp_path / "aps_failure_training_set.csv"
    path.write_text(text)
    t = load_table(path, "aps_csv", None, "class")
    assert t.attrs["preamble_lines"] == 20
    feats, y = split_label(t, {"column": "class", "anomaly_values": ["pos"], "normal_values": ["neg"]})
    assert feats.shape == vals.shape and feats.columns[0] == "aa_000"
    np.testing.assert_array_equal(feats.isna().to_numpy(), np.isnan(vals))
    np.testing.assert_array_equal(feats.to_numpy(), vals)
    assert np.flatnonzero(y).tolist() == [2, 11, 25]


def test_aps_configured_pipeline_from_uci_zip(tmp_path):
    text, vals = aps_text()
    test_text, _ = aps_text(n_rows=12, pos=(1,))
    path = tmp_path / "aps+failure+at+scania+trucks.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("aps_failure_training_set.csv", text)
        zf.writestr("aps_failure_test_set.csv", test_text)
        zf.writestr("aps_failure_description.txt", "description")
    e = with_local_hash(entry_for("aps"), path)
    df, prov = build("aps", e, [str(path)], 7)
    check_schema(df)
    assert prov["rows"] == 30 and prov["n_anomalies"] == 3  # the training member, not the test set
    assert prov["source"]["preamble_lines"] == 20
    missing = prov["steps"][0]
    assert missing["mode"] == "impute_median" and missing["cells_imputed"] == int(np.isnan(vals).sum())
    assert prov["dims"] == 6  # PCA
    # medians were imputed before standardisation: recompute by hand
    filled = np.where(np.isnan(vals), np.nanmedian(vals, axis=0), vals)
    z = (filled - filled.mean(0)) / np.where(filled.std(0) == 0, 1, filled.std(0))
    from sklearn.decomposition import PCA

    np.testing.assert_allclose(
        df.drop(columns="label").to_numpy(), PCA(6, svd_solver="full").fit_transform(z), atol=1e-10
    )


def test_aps_member_found_in_a_subfolder_of_the_zip(tmp_path):
    text, _ = aps_text()
    path = tmp_path / "aps.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("aps+failure+at+scania+trucks/aps_failure_training_set.csv", text)
    t = load_table(path, "aps_csv", {"member": "aps_failure_training_set.csv"}, "class")
    assert len(t) == 30


def test_aps_without_header_line_is_a_clear_error(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("\n".join(APS_PREAMBLE) + "\nfoo,bar\n1,2\n")
    with pytest.raises(DataError, match="no header line starting with 'class,'"):
        load_table(path, "aps_csv", None, "class")


def test_zip_member_missing_lists_members(tmp_path):
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("one.csv", "a,b\n1,2\n")
    with pytest.raises(DataError, match="member 'two.csv' not found.*one.csv"):
        load_table(path, "zip_csv", {"member": "two.csv"}, "b")


# ---------------------------------------------------------------- a new dataset = one config entry


def test_local_csv_entry_needs_no_code(tmp_path):
    path = tmp_path / "mine.csv"
    pd.DataFrame(
        {
            "a": [1.0, 2, 3, 4, 5, 6],
            "b": [0.5, 0.1, 0.2, 0.9, 0.3, 0.4],
            "who": list("uvwxyz"),
            "flag": ["n", "n", "y", "n", "n", "y"],
        }
    ).to_csv(path, index=False)
    entry = {
        "files": [{"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}],
        "format": "csv",
        "label": {"column": "flag", "anomaly_values": ["y"]},
        "preprocess": {"standardize": False, "drop_columns": ["who"], "subsample": {"n_normal": 2, "n_anomaly": 1}},
    }
    df, prov = build("mine", entry, [str(path)], 3)
    check_schema(df)
    assert list(df.columns) == ["a", "b", "label"]  # the text column `who` dropped, as the config asks
    assert prov["steps"][1]["dropped"] == ["who"]
    assert int(df.label.sum()) == 1 and len(df) == 3


def test_local_parquet_entry(tmp_path):
    path = tmp_path / "mine.parquet"
    pd.DataFrame({"f": [0.0, 1, 2, 3], "is_out": [0, 0, 1, 0]}).to_parquet(path)
    entry = {"files": [{"path": str(path)}], "format": "parquet", "label": {"column": "is_out", "anomaly_values": [1]}}
    df, prov = build("mine", entry, [str(path)], 3)
    check_schema(df)
    assert prov["n_anomalies"] == 1 and prov["dims"] == 1


# ---------------------------------------------------------------- label errors


def test_label_value_typo_is_caught():
    df = pd.DataFrame({"x": [1.0, 2.0], "income": ["<=50K", ">50K"]})
    with pytest.raises(DataError, match="match no row"):
        split_label(df, {"column": "income", "anomaly_values": ["<=50k"]})
    with pytest.raises(DataError, match="neither anomaly_values nor normal_values"):
        split_label(df, {"column": "income", "anomaly_values": ["<=50K"], "normal_values": [">50k"]})


def test_missing_label_column_names_it():
    df = pd.DataFrame({"x": [1.0, 2.0]})
    with pytest.raises(DataError, match="label.column: no column 'Class'"):
        split_label(df, {"column": "Class", "anomaly_values": [1]}, where="datasets.creditcard.")
