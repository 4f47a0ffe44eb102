"""privanomaly.io: every output is written to a temporary sibling and renamed, so a failure never leaves a
partial file (and never destroys a good old one); tables and JSON are byte-stable."""

from __future__ import annotations

import os
import stat

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from privanomaly import io  # noqa: E402


class Boom(RuntimeError):
    pass


def _siblings(d):
    return sorted(p.name for p in d.iterdir())


def test_exception_inside_atomic_path_leaves_no_target_and_no_temp(tmp_path):
    target = tmp_path / "sub" / "table.csv"
    with pytest.raises(Boom):
        with io.atomic_path(target) as tmp:
            tmp.write_text("half a tab")
            assert tmp.parent == target.parent and tmp.name.startswith(".table.csv.")
            raise Boom("killed mid-write")
    assert not target.exists()
    assert _siblings(target.parent) == []


def test_exception_keeps_the_old_file_intact(tmp_path):
    target = tmp_path / "t.json"
    io.write_json(target, {"a": 1})
    before = target.read_bytes()
    with pytest.raises(Boom):
        with io.atomic_path(target) as tmp:
            tmp.write_text("{broken")
            raise Boom
    assert target.read_bytes() == before
    assert _siblings(tmp_path) == ["t.json"]


def test_keyboard_interrupt_also_cleans_up(tmp_path):
    target = tmp_path / "x.txt"
    with pytest.raises(KeyboardInterrupt):
        with io.atomic_path(target) as tmp:
            tmp.write_text("x")
            raise KeyboardInterrupt
    assert _siblings(tmp_path) == []


def test_success_renames_and_uses_normal_permissions(tmp_path):
    target = tmp_path / "ok.txt"
    io.write_text(target, "hello\n")
    assert target.read_text() == "hello\n"
    assert _siblings(tmp_path) == ["ok.txt"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_writer_that_removes_the_temp_file_is_an_error(tmp_path):
    target = tmp_path / "gone.txt"
    with pytest.raises(FileNotFoundError, match="gone.txt"):
        with io.atomic_path(target) as tmp:
            tmp.unlink()
    assert _siblings(tmp_path) == []


def test_unsupported_table_suffix_names_file_and_leaves_nothing(tmp_path):
    with pytest.raises(ValueError, match=r"t\.xlsx.*expected \.csv, \.parquet or \.md"):
        io.write_table(pd.DataFrame({"a": [1]}), tmp_path / "t.xlsx")
    assert _siblings(tmp_path) == []


def test_failing_dataframe_write_leaves_nothing(tmp_path):
    class Bad:
        def __str__(self):
            raise Boom("cannot render")

    df = pd.DataFrame({"a": [Bad()]})
    with pytest.raises(Boom):
        io.write_table(df, tmp_path / "t.md")
    assert _siblings(tmp_path) == []


def test_tables_and_json_are_byte_stable(tmp_path):
    df = pd.DataFrame({"eps": [0.1, 0.30000000000000004, 1.0], "err": [1 / 3, 2e-17, np.float64(0.5)], "n": [1, 2, 3]})
    io.write_table(df, tmp_path / "a.csv")
    io.write_table(df.copy(), tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.csv").read_text() == "eps,err,n\n0.1,0.3333333333,1\n0.3,2e-17,2\n1,0.5,3\n"
    io.write_json(tmp_path / "a.json", {"b": np.int64(2), "a": np.float64(0.5), "c": np.arange(2)})
    assert (tmp_path / "a.json").read_text() == '{\n  "a": 0.5,\n  "b": 2,\n  "c": [\n    0,\n    1\n  ]\n}\n'
    io.write_table(df, tmp_path / "a.md")
    assert (tmp_path / "a.md").read_text().splitlines()[:2] == ["| eps | err | n |", "| --- | --- | --- |"]
    io.write_table(df, tmp_path / "a.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a.parquet"), df)


def test_json_rejects_unknown_types_without_output(tmp_path):
    with pytest.raises(TypeError, match="not JSON serialisable: object"):
        io.write_json(tmp_path / "o.json", {"x": object()})
    assert _siblings(tmp_path) == []


def test_save_figure_writes_both_formats_byte_identically(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    io.save_figure(fig, tmp_path / "f.png", tmp_path / "f.pdf")
    first = {p: (tmp_path / p).read_bytes() for p in ("f.png", "f.pdf")}
    io.save_figure(fig, tmp_path / "f.png", tmp_path / "f.pdf")
    plt.close(fig)
    assert first["f.png"].startswith(b"\x89PNG") and first["f.pdf"].startswith(b"%PDF")
    assert all((tmp_path / p).read_bytes() == b for p, b in first.items())
    assert _siblings(tmp_path) == ["f.pdf", "f.png"]
