"""A raw file whose bytes are damaged (cut short, one byte changed) is a DataError naming the file, whatever the
format and wherever the damage: never a parser's own exception naming nothing (an IndexError from a MATLAB header
cut short, NotImplementedError from a zip header byte, zipfile.BadZipFile from a cut .zip read by its name).

The files are tiny and written here, so every cut length and every single-byte change of them is tried. Without a
pinned sha256 (a user's local file, or an overlay that replaces `files:`) these are what the loaders meet.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from privanomaly.datasets import DataError, load_table

X = np.arange(12.0).reshape(6, 2)
Y = np.array([0, 0, 0, 0, 0, 1])
CSV = "a,b,label\n1,2,0\n3,4,0\n5,6,0\n7,8,1\n"


def _npz(tmp: Path) -> Path:
    p = tmp / "d.npz"
    np.savez(p, X=X, y=Y)
    return p


def _mat(tmp: Path) -> Path:
    import scipy.io

    p = tmp / "d.mat"
    scipy.io.savemat(p, {"X": X, "y": Y})
    return p


def _zip(tmp: Path) -> Path:
    p = tmp / "d.zip"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("d.csv", CSV)
    return p


# (format, writer, read options, label key)
FORMATS = {
    "npz": (_npz, {}, "y"),
    "mat": (_mat, {}, "y"),
    "zip_csv": (_zip, {"member": "d.csv"}, "label"),
}


def _outcome(path: Path, fmt: str, read: dict, label: str) -> str:
    """'ok', or 'DataError' when the message names the file; anything else fails the test with what it was."""
    try:
        load_table(path, fmt, read, label, where="datasets.mine.", fix="replace it")
    except DataError as exc:
        assert str(path) in str(exc), f"the message does not name the file: {exc}"
        return "DataError"
    return "ok"


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_cut_of_the_file_is_a_data_error_naming_it(tmp_path, fmt):
    write, read, label = FORMATS[fmt]
    data = write(tmp_path).read_bytes()
    cut = tmp_path / f"cut.{fmt}"
    seen = set()
    for n in range(1, len(data)):
        cut.write_bytes(data[:n])
        seen.add(_outcome(cut, fmt, read, label))  # MATLAB cut at 20 bytes: IndexError('index out of range')
    assert seen == {"DataError"}


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["npz", "zip_csv"])
def test_every_changed_byte_of_a_zip_is_read_or_a_data_error_naming_it(tmp_path, fmt):
    write, read, label = FORMATS[fmt]
    data = write(tmp_path).read_bytes()
    bad = tmp_path / f"bad.{fmt}"
    seen = []
    for i in range(len(data)):
        b = bytearray(data)
        b[i] ^= 0xFF
        bad.write_bytes(bytes(b))
        seen.append(_outcome(bad, fmt, read, label))  # a header's compression method: NotImplementedError
    assert set(seen) <= {"ok", "DataError"} and seen.count("DataError") > len(data) // 2


def test_a_cut_zip_read_as_csv_by_its_name_is_a_data_error(tmp_path):
    # without read.member, a .zip that zipfile does not recognise went to pandas, which opened it as a zip by its
    # name and raised zipfile.BadZipFile
    data = _zip(tmp_path).read_bytes()
    cut = tmp_path / "cut.zip"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(DataError, match=r"cut\.zip: cannot be read as datasets\.mine\.format: csv .*BadZipFile.*replace it"):
        load_table(cut, "csv", {}, "label", where="datasets.mine.", fix="replace it")


def test_text_that_is_no_tar_but_named_so_is_a_data_error(tmp_path):
    p = tmp_path / "d.tar"
    p.write_text(CSV)  # pandas opens a .tar by its name: tarfile.ReadError
    with pytest.raises(DataError, match=r"d\.tar: cannot be read as format: csv"):
        load_table(p, "csv", {}, "label")


def test_an_intact_file_of_each_format_still_reads(tmp_path):
    for fmt, (write, read, label) in FORMATS.items():
        table = load_table(write(tmp_path), fmt, read, label)
        assert table.shape == (6, 3) if fmt != "zip_csv" else table.shape == (4, 3), fmt
