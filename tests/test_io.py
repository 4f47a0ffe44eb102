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


@pytest.mark.slow
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


# ------------------------------------------------------------------ static check: outputs only via privanomaly.io
import ast  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
_WRITERS = {"to_csv", "to_parquet", "savefig", "to_excel", "to_feather", "to_pickle", "to_hdf", "write_text", "write_bytes"}
_DUMPERS = {"json.dump", "pickle.dump", "np.save", "np.savez", "np.savez_compressed", "np.savetxt", "numpy.save"}
# files allowed to write directly: the atomic helpers themselves, the log redirection, the raw-file fetcher
# and the stand-in raw-file writer (both write into the temporary path handed out by atomic_path), and a
# developer CLI that edits README.md
_ALLOWED = {"src/privanomaly/io.py", "src/privanomaly/run/log.py", "src/privanomaly/datasets/sources.py",
            "src/privanomaly/datasets/standins.py", "src/privanomaly/report/catalogue.py"}


def _direct_writes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute):
            recv = f.value.id if isinstance(f.value, ast.Name) else None
            dotted = f"{recv}.{f.attr}" if recv else f.attr
            if f.attr in _WRITERS and recv != "io":
                bad.append(f"{path.name}:{node.lineno}: .{f.attr}(...)")
            elif dotted in _DUMPERS:
                bad.append(f"{path.name}:{node.lineno}: {dotted}(...)")
        elif isinstance(f, ast.Name) and f.id == "open":
            mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wax"):
                bad.append(f"{path.name}:{node.lineno}: open(..., {mode.value!r})")
    return bad


def test_scripts_and_library_write_outputs_only_through_privanomaly_io():
    files = [p for p in [*(ROOT / "scripts").rglob("*.py"), *(ROOT / "src").rglob("*.py")]
             if p.relative_to(ROOT).as_posix() not in _ALLOWED]
    bad = [v for p in sorted(files) for v in _direct_writes(p)]
    assert bad == [], "write outputs with privanomaly.io (temp file + rename), not directly:\n" + "\n".join(bad)


def test_the_write_check_catches_direct_writes(tmp_path):
    p = tmp_path / "s.py"
    p.write_text(
        "import json\nfrom privanomaly import io\n"
        "df.to_csv('x.csv')\nfig.savefig('f.png')\nopen('o.txt', 'w')\njson.dump({}, fh)\n"
        "io.write_table(df, 'ok.csv')\nio.write_text('ok.md', 't')\nopen('in.txt')\n"
    )
    assert [b.split(":")[1] for b in _direct_writes(p)] == ["3", "4", "5", "6"]


def test_writing_onto_a_directory_names_it_before_writing(tmp_path):
    (tmp_path / "t.csv").mkdir()
    with pytest.raises(IsADirectoryError, match=r"t\.csv: is a directory, not a file"):
        with io.atomic_path(tmp_path / "t.csv") as tmp:
            tmp.write_text("never written")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]  # no temporary file left


def test_markdown_cell_with_a_line_break_stays_in_its_row():
    # a YAML literal block (`description: |`) in a dataset entry broke the summary's Markdown table
    md = io.to_markdown(pd.DataFrame({"name|x": ["a|b", "c\nd"], "n": [1, 2]}))
    assert md.splitlines() == ["| name\\|x | n |", "| --- | --- |", "| a\\|b | 1 |", "| c d | 2 |"]


def test_a_directory_that_takes_no_files_is_named_with_the_output(tmp_path, monkeypatch):
    # the message named only the temporary file, '.t.txt.<host>-<pid>.<random>.tmp.txt'
    import errno
    import re
    import tempfile

    def read_only(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(kwargs.get("dir")))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    target = tmp_path / "ro" / "t.txt"
    with pytest.raises(PermissionError, match=rf"cannot write {re.escape(str(target))}: its directory "
                                              rf"{re.escape(str(target.parent))} does not take new files \(Permission "
                                              r"denied\); make it writable or set results_dir"):
        io.write_text(target, "x")
    assert not target.exists()
