"""Faults in raw text files (a user's CSV, UCI .data, the APS csv): every one is read as the intact file would
be, or is a DataError naming the file, the row and what was expected - never rows or columns lost silently.

Each file is written here byte for byte; the expected values come from the text itself, not from the loader.
"""

from __future__ import annotations

import gzip
import io
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from privanomaly.datasets import DataError, build, load_table

# status first: a row that loses its last field keeps its label, so only the field count can catch it
GOOD = "status,a,b\nok,0.1,1.0\nok,0.2,1.5\nfaulty,5.0,9.0\nok,0.3,1.2\n"
GOOD_X = [[0.1, 1.0], [0.2, 1.5], [5.0, 9.0], [0.3, 1.2]]
GOOD_Y = [0, 0, 1, 0]


def entry(path: Path, fmt: str = "csv", **over) -> dict:
    e = {
        "files": [{"path": str(path)}],
        "format": fmt,
        "label": {"column": "status", "anomaly_values": ["faulty"], "normal_values": ["ok"]},
        "preprocess": {"missing": "drop", "standardize": False},
    }
    e.update(over)
    return e


def write(tmp: Path, name: str, data: str | bytes) -> Path:
    p = tmp / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


def prepared(path: Path, **over) -> tuple[list, list, list]:
    table, _ = build("mydata", entry(path, **over), [str(path)], 1)
    X = table.drop(columns="label")
    return X.to_numpy().tolist(), table["label"].tolist(), list(X.columns)


# ------------------------------------------------------------------ rows with fewer fields than the header


@pytest.mark.parametrize("missing", ["drop", "impute_median", "error"])
def test_a_row_that_lost_a_field_is_an_error_naming_it(tmp_path, missing):
    """pandas pads a short row with missing values: dropped or imputed, a damaged row would pass as data."""
    path = write(tmp_path, "d.csv", GOOD.replace("ok,0.2,1.5", "ok,0.2"))
    with pytest.raises(DataError) as exc:
        prepared(path, preprocess={"missing": missing, "standardize": False})
    msg = str(exc.value)
    assert msg.startswith(f"{path}: line 3 has 2 field(s) where the header has 3: the file is truncated")


def test_a_file_cut_mid_row_is_an_error(tmp_path):
    path = write(tmp_path, "d.csv", GOOD[: GOOD.rindex(",")])  # the last row ends after "ok,0.3"
    with pytest.raises(DataError, match=re.escape(f"{path}: line 5 has 2 field(s) where the header has 3")):
        prepared(path, preprocess={"missing": "impute_median", "standardize": False})


def test_an_empty_value_with_its_separator_is_missing_not_short(tmp_path):
    path = write(tmp_path, "d.csv", GOOD.replace("ok,0.2,1.5", "ok,0.2,"))
    X, y, _ = prepared(path, preprocess={"missing": "impute_median", "standardize": False})
    assert X[1] == [0.2, 1.2] and y == GOOD_Y  # the median of 1.0, 9.0, 1.2


def test_uci_title_line_before_the_data_names_skiprows(tmp_path):
    """UCI adult.test starts with `|1x3 Cross validator`: a clear error, and skiprows reads the rest."""
    text = "|1x3 Cross validator\n0.1, 1.0, ok\n0.2, 1.5, ok\n5.0, 9.0, faulty.\n"
    path = write(tmp_path, "adult.test", text)
    read = {"names": ["a", "b", "status"]}
    with pytest.raises(DataError) as exc:
        prepared(path, fmt="uci_data", read=read)
    assert str(exc.value).startswith(f"{path}: line 1 has 1 field(s) where datasets.mydata.read.names gives 3")
    assert "datasets.mydata.read.skiprows" in str(exc.value)
    X, y, _ = prepared(path, fmt="uci_data", read={**read, "skiprows": 1},
                       label={"column": "status", "anomaly_values": ["faulty."], "normal_values": ["ok"]})
    assert X == [[0.1, 1.0], [0.2, 1.5], [5.0, 9.0]] and y == [0, 0, 1]


def test_aps_row_that_lost_a_field_is_an_error_naming_it(tmp_path):
    text = "preamble\n\nclass,aa_000,ab_000\nneg,1,na\npos,5,7\nneg,2\nneg,3,4\n"
    path = write(tmp_path, "aps.csv", text)
    with pytest.raises(DataError, match=re.escape(f"{path}: line 6 has 2 field(s) where the header has 3")):
        prepared(path, fmt="aps_csv", label={"column": "class", "anomaly_values": ["pos"], "normal_values": ["neg"]},
                 preprocess={"missing": "impute_median", "standardize": False})


def test_aps_ragged_row_is_a_data_error_naming_the_file(tmp_path):
    path = write(tmp_path, "aps.csv", "preamble\nclass,aa_000\nneg,1\npos,5,7\n")
    with pytest.raises(DataError, match=re.escape(f"{path}: malformed CSV")):
        load_table(path, "aps_csv", {}, "class")


# ------------------------------------------------------------------ rows with more fields than the header


def test_header_missing_a_name_is_an_error_not_a_lost_column(tmp_path):
    """pandas takes the surplus first field as row labels: column `status` would vanish and `a` hold b's values."""
    path = write(tmp_path, "d.csv", GOOD.replace("status,a,b", "a,b"))
    with pytest.raises(DataError) as exc:
        load_table(path, "csv", {}, "b", where="datasets.mydata.")
    assert str(exc.value).startswith(f"{path}: the rows have more fields than the header")
    assert "datasets.mydata.read.names" in str(exc.value)


def test_read_names_one_short_is_an_error_not_a_lost_column(tmp_path):
    path = write(tmp_path, "d.data", "39, 1.0, ok\n50, 1.5, ok\n38, 9.0, faulty\n")
    with pytest.raises(DataError, match=r"more fields than datasets\.mydata\.read\.names \(2 names\)"):
        prepared(path, fmt="uci_data", read={"names": ["b", "status"]})


@pytest.mark.parametrize("header_too", [False, True])
def test_a_separator_closing_every_line_is_read_as_the_intact_file(tmp_path, header_too):
    text = GOOD.replace("\n", ",\n")
    path = write(tmp_path, "d.csv", text if header_too else text.replace("status,a,b,", "status,a,b"))
    X, y, cols = prepared(path, preprocess={"missing": "error", "standardize": False})
    assert (X, y, cols) == (GOOD_X, GOOD_Y, ["a", "b"])


# ------------------------------------------------------------------ encodings, line ends, compression


@pytest.mark.parametrize(
    "name, data",
    [
        ("crlf.csv", GOOD.replace("\n", "\r\n").encode()),
        ("bom.csv", b"\xef\xbb\xbf" + GOOD.encode()),
        ("blank_lines.csv", (GOOD + "\n\n\n").encode()),
        ("gzipped.csv", gzip.compress(GOOD.encode(), mtime=0)),  # gzip'd, but not named .gz
        ("gzipped.csv.gz", gzip.compress(GOOD.encode(), mtime=0)),
        ("gzipped_bom_crlf.txt", gzip.compress(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode(), mtime=0)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_csv_variants_read_as_the_plain_file(tmp_path, name, data):
    X, y, cols = prepared(write(tmp_path, name, data))
    assert (X, y, cols) == (GOOD_X, GOOD_Y, ["a", "b"])


def test_truncated_gzip_is_a_data_error_naming_it(tmp_path):
    data = gzip.compress((GOOD * 200).encode(), mtime=0)
    path = write(tmp_path, "d.csv", data[: len(data) // 2])
    with pytest.raises(DataError, match=re.escape(f"{path}: a gzip file that cannot be decompressed (truncated")):
        prepared(path)


APS_TEXT = (
    "This file is part of APS Failure and Operational Data for Scania Trucks.\n\n"
    "Copyright (c) <2016> <Scania CV AB>\n\n" + "licence text\n" * 15 + "-" * 72 + "\n"
    "class,aa_000,ab_000,ac_000\nneg,76698,na,2130706438\npos,33058,na,0\nneg,41040,228,100\nneg,12,0,70\n"
)


@pytest.mark.parametrize(
    "name, data, preamble",
    [
        ("plain.csv", APS_TEXT.encode(), 20),
        ("crlf.csv", APS_TEXT.replace("\n", "\r\n").encode(), 20),
        ("gzipped.csv", gzip.compress(APS_TEXT.encode(), mtime=0), 20),
        ("no_preamble_bom.csv", b"\xef\xbb\xbf" + APS_TEXT[APS_TEXT.index("class,"):].encode(), 0),
        ("quoted_header.csv", APS_TEXT.replace("class,aa_000,ab_000,ac_000", '"class","aa_000","ab_000","ac_000"')
         .encode(), 20),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_aps_variants_read_as_the_plain_file(tmp_path, name, data, preamble):
    path = write(tmp_path, name, data)
    raw = load_table(path, "aps_csv", {}, "class")
    assert raw.attrs["preamble_lines"] == preamble
    assert list(raw.columns) == ["class", "aa_000", "ab_000", "ac_000"]
    assert raw["class"].tolist() == ["neg", "pos", "neg", "neg"]
    expected = np.array([[76698, np.nan, 2130706438], [33058, np.nan, 0], [41040, 228, 100], [12, 0, 70]])
    np.testing.assert_array_equal(raw[["aa_000", "ab_000", "ac_000"]].to_numpy(dtype=float), expected)


def test_zip_member_with_bom_reads_its_header(tmp_path):
    path = tmp_path / "d.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("d.csv", b"\xef\xbb\xbf" + GOOD.encode())
    X, y, cols = prepared(path, fmt="zip_csv", read={"member": "d.csv"})
    assert (X, y, cols) == (GOOD_X, GOOD_Y, ["a", "b"])


# ------------------------------------------------------------------ labels


def test_row_without_label_names_the_file_and_row(tmp_path):
    path = write(tmp_path, "d.csv", "a,b,status\n0.1,1.0,ok\n0.2,1.5,\n5.0,9.0,faulty\n")
    with pytest.raises(DataError) as exc:
        prepared(path)
    assert str(exc.value) == (
        f"datasets.mydata.label.column 'status': 1 row(s) have no label (the first: data row 2 of {path}, 1-based, "
        "header not counted); give every row its label, or remove the rows without one"
    )


def test_pandas_reads_the_fixture_as_we_say():
    """The fixtures above mean what the tests say: pandas itself pads the short row with a missing value."""
    df = pd.read_csv(io.StringIO(GOOD.replace("ok,0.2,1.5", "ok,0.2")))
    assert df["b"].isna().tolist() == [False, True, False, False]


def test_quoted_separators_newlines_and_blank_lines_are_not_short_rows(tmp_path):
    """The field count follows CSV quoting: `"x, y"` is one field, a quoted value may span lines."""
    text = 'status,a,note\nok,0.1,"x, y"\nok,0.2,\n   \nfaulty,5.0,"two\nlines"\nok,0.3,\n'
    path = write(tmp_path, "d.csv", text.encode("latin-1"))
    X, y, cols = prepared(path, read={"encoding": "latin-1"},
                          preprocess={"missing": "impute_median", "standardize": False, "drop_columns": ["note"]})
    assert (X, y, cols) == ([[0.1], [0.2], [5.0], [0.3]], GOOD_Y, ["a"])


# ------------------------------------------------------------------ columns without a name


def test_unnamed_column_is_an_error_unless_dropped(tmp_path):
    """pandas' to_csv writes the row index under an empty header name: it is not a feature unless asked."""
    path = write(tmp_path, "d.csv", ",status,a,b\n0,ok,0.1,1.0\n1,ok,0.2,1.5\n2,faulty,5.0,9.0\n3,ok,0.3,1.2\n")
    with pytest.raises(DataError) as exc:
        prepared(path)
    assert str(exc.value).startswith(f"{path}: column(s) ['Unnamed: 0'] have no name in the header")
    assert "datasets.mydata.preprocess.drop_columns: ['Unnamed: 0']" in str(exc.value)
    X, y, cols = prepared(path, preprocess={"missing": "error", "standardize": False, "drop_columns": ["Unnamed: 0"]})
    assert (X, y, cols) == (GOOD_X, GOOD_Y, ["a", "b"])


# ------------------------------------------------------------------ array formats


ARR_X = np.array([[0.1, 1.0], [0.2, 1.5], [5.0, 9.0], [0.3, 1.2]])
ARR_Y = np.array([0, 0, 1, 0])


def array_entry(path: Path, fmt: str) -> dict:
    return entry(path, fmt=fmt, label={"column": "y", "anomaly_values": [1], "normal_values": [0]},
                 preprocess={"standardize": False})


def test_npy_instead_of_npz_is_a_data_error(tmp_path):
    path = tmp_path / "d.npy"
    np.save(path, ARR_X)
    with pytest.raises(DataError, match=re.escape(f"{path}: is a single NumPy array (.npy, shape (4, 2)), not an .npz")):
        build("mydata", array_entry(path, "npz"), [str(path)], 1)


def test_complex_features_are_refused_not_cut_to_their_real_part(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, X=ARR_X + 1j, y=ARR_Y)
    with pytest.raises(DataError, match=re.escape(f"{path}: the feature array has complex dtype complex128")):
        build("mydata", array_entry(path, "npz"), [str(path)], 1)


def test_sparse_mat_is_read_as_its_dense_values(tmp_path):
    import scipy.io
    import scipy.sparse

    path = tmp_path / "d.mat"
    scipy.io.savemat(path, {"X": scipy.sparse.csc_matrix(ARR_X), "y": ARR_Y.reshape(-1, 1).astype(float)})
    table, _ = build("mydata", array_entry(path, "mat"), [str(path)], 1)
    assert table.drop(columns="label").to_numpy().tolist() == ARR_X.tolist()
    assert table["label"].tolist() == ARR_Y.tolist()


def test_parquet_column_saved_as_the_index_is_kept(tmp_path):
    path = tmp_path / "d.parquet"
    pd.DataFrame({"a": ARR_X[:, 0], "b": ARR_X[:, 1], "y": ARR_Y}).set_index("a").to_parquet(path)
    table, _ = build("mydata", array_entry(path, "parquet"), [str(path)], 1)
    assert list(table.columns) == ["a", "b", "label"]
    assert table.drop(columns="label").to_numpy().tolist() == ARR_X.tolist()


def test_parquet_unnamed_row_labels_are_not_a_column(tmp_path):
    path = tmp_path / "d.parquet"
    pd.DataFrame({"a": ARR_X[:, 0], "b": ARR_X[:, 1], "y": ARR_Y}, index=[10, 11, 12, 13]).to_parquet(path)
    table, _ = build("mydata", array_entry(path, "parquet"), [str(path)], 1)
    assert list(table.columns) == ["a", "b", "label"] and table.index.tolist() == [0, 1, 2, 3]


def test_damaged_zip_member_is_a_data_error_naming_the_zip(tmp_path):
    path = tmp_path / "aps.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("aps_failure_training_set.csv", APS_TEXT * 20)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit inside the stored member: its CRC-32 no longer matches
    path.write_bytes(bytes(data))
    with pytest.raises(DataError, match=re.escape(f"{path}: member 'aps_failure_training_set.csv' of the zip is damaged")):
        load_table(path, "aps_csv", {"member": "aps_failure_training_set.csv"}, "class")


# ------------------------------------------------------------------ the Python API reads CSVs the same way


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a,b,status\n0.1,1.0,0,1\n0.2,1.5,0,1\n5.0,9.0,1,1\n", "the rows have more fields than the header"),
        ("status,a,b\n0,0.1,1.0\n0,0.2\n1,5.0,9.0\n", "line 3 has 2 field(s) where the header has 3"),
    ],
)
def test_api_load_csv_refuses_rows_that_do_not_match_the_header(tmp_path, text, expected):
    from privanomaly import api

    path = write(tmp_path, "d.csv", text)
    with pytest.raises(ValueError, match=re.escape(f"{path}: {expected}")):
        api.load_csv(path, label="status", anomaly_values=[1], standardize=False)


def test_unexpected_missing_marker_names_its_cell(tmp_path):
    path = write(tmp_path, "d.csv", GOOD.replace("ok,0.3,1.2", "ok,NA,1.2"))
    with pytest.raises(DataError) as exc:
        prepared(path, preprocess={"missing": "error", "standardize": False})
    assert str(exc.value) == (
        f"datasets.mydata.preprocess.missing: 1 missing values (columns ['a']), the first in column 'a', data row 4 "
        f"of {path} (1-based, header not counted); set preprocess.missing to 'drop' or 'impute_median'"
    )


@pytest.mark.parametrize("words", [("yes", "no"), ("on", "off"), ("Yes", "No"), ("true", "false")])
def test_label_words_yaml_reads_as_booleans_still_match_the_text(tmp_path, words):
    """`anomaly_values: [yes]` arrives from YAML as True: it still means the text `yes` of the file."""
    import yaml

    anomaly, normal = words
    path = write(tmp_path, "d.csv", GOOD.replace("faulty", anomaly).replace("ok", normal))
    label = yaml.safe_load(f"{{column: status, anomaly_values: [{anomaly}], normal_values: [{normal}]}}")
    assert label["anomaly_values"] == [True] and label["normal_values"] == [False]
    X, y, _ = prepared(path, label=label)
    assert (X, y) == (GOOD_X, GOOD_Y)


# ------------------------------------------------------------------ an all-constant column


@pytest.mark.parametrize("value", ["0.3", "7.77", "1e300"])
def test_constant_column_is_standardised_to_zero_and_recorded(tmp_path, value):
    """Its float std is not always 0 (n copies of 0.3 do not average to 0.3): equal values make it constant."""
    rows = "".join(f"{'faulty' if i == 2 else 'ok'},{value},{i * 0.5}\n" for i in range(3773))
    path = write(tmp_path, "d.csv", "status,c,b\n" + rows)
    table, prov = build("mydata", entry(path, preprocess={"standardize": True}), [str(path)], 1)
    assert (table["c"] == 0.0).all()
    step = next(s for s in prov["steps"] if s["step"] == "standardize")
    assert step["constant_columns_set_to_0"] == ["c"]
    b = np.arange(3773) * 0.5
    np.testing.assert_allclose(table["b"], (b - b.mean()) / b.std(), rtol=0, atol=1e-12)


def test_pca_with_more_components_than_rows_names_the_key(tmp_path):
    path = write(tmp_path, "d.csv", "status,a,b,c\nok,1,2,3\nfaulty,4,5,7\n")
    with pytest.raises(DataError, match=re.escape("datasets.mydata.preprocess.pca: 3 components asked, data has 2 rows")):
        prepared(path, preprocess={"standardize": True, "pca": 3})


@pytest.mark.parametrize("sep", [r"\s+", " ", "\t"])
def test_short_row_in_a_whitespace_or_tab_separated_file(tmp_path, sep):
    """UCI files separated by runs of blanks (`read.sep: '\\s+'`) or tabs: a lost field is caught there too."""
    gap = "\t" if sep == "\t" else "  "
    text = f"0.1{gap}1.0{gap}ok\n0.2{gap}ok\n5.0{gap}9.0{gap}faulty\n"
    path = write(tmp_path, "d.data", text)
    with pytest.raises(DataError, match=re.escape(f"{path}: line 2 has 2 field(s) where the first row has 3")):
        prepared(path, fmt="uci_data", read={"sep": sep}, label={"column": 2, "anomaly_values": ["faulty"]},
                 preprocess={"missing": "impute_median", "standardize": False})
    X, y, _ = prepared(write(tmp_path, "ok.data", text.replace(f"0.2{gap}ok", f"0.2{gap}1.5{gap}ok")), fmt="uci_data",
                       read={"sep": sep}, label={"column": 2, "anomaly_values": ["faulty"]})
    assert (X, y) == ([[0.1, 1.0], [0.2, 1.5], [5.0, 9.0]], [0, 0, 1])


@pytest.mark.parametrize("sep, text", [("::", "0.1::1.0::ok\n0.2::1.5::ok\n5.0::9.0::faulty\n"),
                                        (r"\s*;\s*", "0.1 ; 1.0;ok\n0.2;1.5 ;ok\n5.0; 9.0;faulty\n")])
def test_multi_character_separator_is_read(tmp_path, sep, text):
    """pandas splits these with its python engine only (the C engine's options made it a bare ValueError)."""
    X, y, _ = prepared(write(tmp_path, "d.data", text), fmt="uci_data", read={"sep": sep},
                       label={"column": 2, "anomaly_values": ["faulty"], "normal_values": ["ok"]})
    assert (X, y) == ([[0.1, 1.0], [0.2, 1.5], [5.0, 9.0]], [0, 0, 1])


def test_boolean_label_array_matches_1_and_0(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, X=ARR_X, y=ARR_Y.astype(bool))
    table, _ = build("mydata", array_entry(path, "npz"), [str(path)], 1)
    assert table["label"].tolist() == ARR_Y.tolist()


def test_parquet_datetime_column_is_not_a_feature_unless_converted(tmp_path):
    """pd.to_numeric turns timestamps into nanoseconds: a date column would have become a feature of ~1e18."""
    path = tmp_path / "d.parquet"
    frame = pd.DataFrame({"t": pd.date_range("2020-01-01", periods=4), "a": ARR_X[:, 0], "y": ARR_Y})
    frame.to_parquet(path)
    with pytest.raises(DataError, match=re.escape(f"{path}: column 't', data row 1 (1-based, header not counted)")):
        build("mydata", array_entry(path, "parquet"), [str(path)], 1)
    e = array_entry(path, "parquet")
    e["preprocess"]["drop_columns"] = ["t"]
    table, _ = build("mydata", e, [str(path)], 1)
    assert table["a"].tolist() == ARR_X[:, 0].tolist()


def test_mat_v73_is_a_clear_error_naming_the_file_and_key(tmp_path):
    """A v7.3 .mat is HDF5 behind MATLAB's 128-byte header (version 0x0200): named, with how to convert it."""
    import struct

    head = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Mon Jan  1 00:00:00 2024 HDF5 schema 1.00 ."
    head = head.ljust(116, b" ") + b"\0" * 8 + struct.pack("<H", 0x0200) + b"IM"
    path = write(tmp_path, "d.mat", head.ljust(512, b"\0") + b"\x89HDF\r\n\x1a\n" + b"\0" * 64)
    with pytest.raises(DataError) as exc:
        build("mydata", array_entry(path, "mat"), [str(path)], 1)
    assert str(exc.value).startswith(f"{path}: a MATLAB v7.3 (HDF5) file, which datasets.mydata.format: mat cannot read")
    assert "datasets.mydata.format: npz" in str(exc.value)


def test_excel_workbook_given_as_csv_says_so(tmp_path):
    path = tmp_path / "d.csv"
    with zipfile.ZipFile(path, "w") as zf:  # the parts every .xlsx has
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", "<workbook/>")
        zf.writestr("xl/worksheets/sheet1.xml", "<worksheet/>")
    with pytest.raises(DataError, match=re.escape(f"{path}: is an Excel workbook (.xlsx), not text")):
        prepared(path)


@pytest.mark.parametrize("fmt", ["csv", "aps_csv", "npz"])
def test_html_page_in_place_of_the_file_says_so(tmp_path, fmt):
    """A login/error page or a repository's viewer page saved as the data file."""
    path = write(tmp_path, "d.csv", "\n\n<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Sign in</title></head>\n")
    with pytest.raises(DataError, match=re.escape(f"{path}: is an HTML page, not the data file")):
        prepared(path, fmt=fmt)


# ------------------------------------------------------------------ a header line that is a data row
def test_a_file_without_header_read_as_csv_is_an_error_not_a_lost_first_row(tmp_path):
    # format csv takes the first line as the header: the first record was dropped silently (3 of 4 rows read)
    p = write(tmp_path, "d.csv", "0.1,1.0,0\n0.2,1.5,0\n5.0,9.0,1\n0.3,1.2,0\n")
    spec = {"label": {"column": 2, "anomaly_values": [1], "normal_values": [0]}}
    with pytest.raises(DataError, match=r"d\.csv: the header line \(0\.1, 1\.0, 0\) is all numbers: it looks like the "
                                         r"first data row .* set datasets\.mydata\.read\.header: false"):
        prepared(p, **spec)
    X, y, cols = prepared(p, read={"header": False}, **spec)  # the fix the message gives: every row is kept
    assert X == [[0.1, 1.0], [0.2, 1.5], [5.0, 9.0], [0.3, 1.2]] and y == [0, 0, 1, 0] and cols == ["x0", "x1"]


def test_pandas_default_column_names_are_a_header(tmp_path):
    # pd.DataFrame(array).to_csv(index=False) names the columns 0, 1, 2: a real header, read as such
    p = write(tmp_path, "d.csv", "0,1,2\n0.1,1.0,0\n0.2,1.5,0\n5.0,9.0,1\n0.3,1.2,0\n")
    X, y, cols = prepared(p, label={"column": "2", "anomaly_values": [1], "normal_values": [0]})
    assert X == GOOD_X and y == GOOD_Y and cols == ["0", "1"]


# ------------------------------------------------------------------ parser options pandas refuses with a bare error
@pytest.mark.parametrize("read, key, words", [
    ({"sep": ""}, "read.sep", "'' is not a field separator"),  # ValueError: only single character unicode strings
    ({"comment": "##"}, "read.comment", "'##' must be exactly one character"),  # Only length-1 comment characters
    ({"names": ["status", "a", "a"]}, "read.names", "duplicate name(s) ['a']"),  # Duplicate names are not allowed.
])
def test_parser_option_pandas_refuses_names_its_key(tmp_path, read, key, words):
    p = write(tmp_path, "d.csv", GOOD)
    with pytest.raises(DataError) as exc:
        prepared(p, read=read)
    assert f"datasets.mydata.{key}: " in str(exc.value) and words in str(exc.value) and "d.csv" in str(exc.value)


@pytest.mark.parametrize("key", ["keep_columns", "drop_columns"])
def test_a_column_listed_twice_is_an_error_naming_the_key(tmp_path, key):
    # keep_columns [a, a, b] made column a two features (or crashed: 'DataFrame' object has no attribute 'dtype')
    p = write(tmp_path, "d.csv", "status,a,b,c\nok,0.1,1.0,3\nok,0.2,1.5,4\nfaulty,5.0,9.0,5\nok,0.3,1.2,6\n")
    names = ["a", "a", "b"] if key == "keep_columns" else ["c", "c"]
    with pytest.raises(DataError, match=rf"datasets\.mydata\.preprocess\.{key}: column\(s\) \['{names[0]}'\] listed "
                                        r"more than once"):
        prepared(p, preprocess={"standardize": True, "pca": 2, key: names})


def test_bytes_that_are_no_npz_are_not_offered_as_a_pickle(tmp_path):
    # np.load read them as a pickle and the message passed on its advice to load the file "unsafely" with
    # allow_pickle - for a file that is merely damaged
    p = write(tmp_path, "d.npz", bytes(range(256)) * 8)
    spec = {"label": {"column": "y", "anomaly_values": [1]}}
    with pytest.raises(DataError) as exc:
        prepared(p, fmt="npz", **spec)
    msg = str(exc.value)
    assert "d.npz: not an .npz archive (neither a zip archive of arrays nor a NumPy file" in msg, msg
    assert "pickle" not in msg, msg


def test_skiprows_past_the_end_says_so_not_that_the_file_is_empty(tmp_path):
    p = write(tmp_path, "d.csv", GOOD)
    with pytest.raises(DataError, match=r"d\.csv: no line is left after skipping datasets\.mydata\.read\.skiprows = 50 "
                                        r"lines"):
        prepared(p, read={"skiprows": 50})


@pytest.mark.parametrize("sep, shown", [(";", "';'"), ("\t", '"\\t"'), ("|", "'|'")])
@pytest.mark.parametrize("fmt", ["csv", "uci_data", "uci_data with names"])
def test_a_file_with_another_separator_names_read_sep(tmp_path, sep, shown, fmt):
    # it said only that the label column was not there (or that line 1 had 1 field), naming the key, not the cause
    text = GOOD if fmt == "csv" else GOOD.split("\n", 1)[1]
    p = write(tmp_path, "d.csv", text.replace(",", sep))
    over = {} if fmt == "csv" else {"fmt": "uci_data", "label": {"column": 0, "anomaly_values": ["faulty"]}}
    if fmt == "uci_data with names":
        over["read"] = {"names": ["status", "a", "b"]}
    with pytest.raises(DataError) as exc:
        prepared(p, **over)
    assert f"are its fields separated by {shown}? then set datasets.mydata.read.sep: {shown}" in str(exc.value), exc.value
    X, y, _ = prepared(p, **{**over, "read": {**over.get("read", {}), "sep": sep}})  # the fix it gives
    assert X == GOOD_X and y == GOOD_Y


@pytest.mark.parametrize("word", ["NA", "None", "null", "N/A", "nan"])
@pytest.mark.parametrize("fmt", ["csv", "uci_data"])
def test_a_label_word_pandas_takes_for_missing_is_a_label(tmp_path, word, fmt):
    # pandas reads NA, None, null, N/A, nan as missing: such a row had "no label" and the file could not be used
    # (read.na_values only adds markers); the label is the file's word, named in the config
    rows = [f"{word},0.1,1.0", f"{word},0.2,1.5", "Attack,5.0,9.0", f"{word},0.3,1.2"]
    p = write(tmp_path, "d.csv", ("status,a,b\n" if fmt == "csv" else "") + "\n".join(rows) + "\n")
    label = {"column": "status" if fmt == "csv" else 0, "anomaly_values": ["Attack"], "normal_values": [word]}
    X, y, _ = prepared(p, fmt=fmt, label=label)
    assert X == GOOD_X and y == GOOD_Y


def test_an_empty_label_cell_or_a_listed_marker_still_has_no_label(tmp_path):
    p = write(tmp_path, "d.csv", "status,a,b\nok,0.1,1.0\n,0.2,1.5\nfaulty,5.0,9.0\n?,0.3,1.2\n")
    with pytest.raises(DataError, match=r"label\.column 'status': 2 row\(s\) have no label \(the first: data row 2"):
        prepared(p, read={"na_values": ["?"]})


def test_a_numeric_label_with_a_word_matches_numbers_by_value(tmp_path):
    # a label column of numbers and one word is text: 1.0 still matches anomaly_values [1]
    p = write(tmp_path, "d.csv", "status,a,b\n0,0.1,1.0\n0.0,0.2,1.5\n1.0,5.0,9.0\nNA,0.3,1.2\n")
    X, y, _ = prepared(p, label={"column": "status", "anomaly_values": [1], "normal_values": [0, "NA"]})
    assert X == GOOD_X and y == GOOD_Y
