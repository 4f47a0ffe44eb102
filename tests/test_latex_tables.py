"""Tables for a paper (privanomaly.report.latex): each CSV table's LaTeX copy holds the CSV's cells, cell for cell.

The ``.tex`` is read back here by its own small parser (rows end in ``\\\\``, cells are split at unescaped ``&``,
escapes undone) and compared with the CSV's text; where a TeX engine is installed, it is also compiled inside a
minimal document.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from privanomaly import io
from privanomaly.report import latex

_UNDO = {v: k for k, v in {**latex.SPECIAL, **latex.UNICODE}.items()}
_TOKEN = re.compile("|".join(re.escape(t) for t in sorted(_UNDO, key=len, reverse=True)))


def unescape(cell: str) -> str:
    return _TOKEN.sub(lambda m: _UNDO[m.group(0)], cell)


def read_tex(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a booktabs tabular written by privanomaly.report.latex, as text."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("% ") and lines[1].startswith(r"\begin{tabular}{")
    assert lines[2] == r"\toprule" and lines[4] == r"\midrule" and lines[-2:] == [r"\bottomrule", r"\end{tabular}"]

    def cells(line: str) -> list[str]:
        assert line.endswith(r" \\"), line
        return [unescape(c) for c in re.split(r"(?<!\\) & ", line[: -len(r" \\")])]

    return cells(lines[3]), [cells(line) for line in lines[5:-2]]


def csv_text(path: Path) -> tuple[list[str], list[list[str]]]:
    import csv

    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


@pytest.fixture
def table(tmp_path) -> tuple[Path, Path]:
    """A table written as the rules write theirs (io.write_table), with the awkward cells of real tables."""
    df = pd.DataFrame({
        "dataset": ["thyroid", "my_data", "a&b 100%"],
        "σ_smooth / N": [1 / 3, np.nan, 5.0e-12],
        "count": [41, 0, -3],
        "note": ["ε ≤ 700 — capped", "{x}^2 ~ $5 #1", "back\\slash"],
    })
    csv_path, tex_path = tmp_path / "t.csv", tmp_path / "t.tex"
    io.write_table(df, csv_path)
    latex.write_tex(csv_path, tex_path, tmp_path / "t.log")
    return csv_path, tex_path


def test_tex_holds_the_csvs_cells(table):
    csv_path, tex_path = table
    assert read_tex(tex_path) == csv_text(csv_path)
    body = tex_path.read_text(encoding="utf-8")
    assert "0.3333333333 &" in body and "5e-12 &" in body  # the CSV's digits, not re-rounded
    assert r"my\_data" in body and r"a\&b 100\%" in body and r"$\sigma$\_smooth / N" in body
    assert r"$\varepsilon$ $\leq$ 700 --- capped" in body and r"\textbackslash{}slash" in body


def test_numeric_columns_right_aligned(table):
    _, tex_path = table
    assert tex_path.read_text(encoding="utf-8").splitlines()[1] == r"\begin{tabular}{lrrl}"


def test_log_says_what_was_written(table, tmp_path):
    assert (tmp_path / "t.log").read_text(encoding="utf-8").startswith(f"{table[1]}: 3 rows x 4 columns")


def test_a_ragged_csv_is_refused_naming_the_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.csv:3: 1 cells, expected 2"):
        latex.write_tex(bad, tmp_path / "bad.tex")
    assert not (tmp_path / "bad.tex").exists()


def test_tex_paths_are_the_csv_tables_only():
    files = ["r/a/table1.csv", "r/a/table1.md", "r/fig.png", "r/sweeps/s/sweep.parquet", "r/sweeps/s/sweep.csv"]
    assert latex.tex_paths(files) == ["r/a/table1.tex", "r/sweeps/s/sweep.tex"]


@pytest.mark.skipif(not shutil.which("pdflatex"), reason="no TeX engine installed (pdflatex): cells checked only")
def test_tex_compiles_in_a_minimal_document(table, tmp_path):
    _, tex_path = table
    doc = tmp_path / "doc.tex"
    doc.write_text("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
                   f"\\input{{{tex_path.name}}}\n\\end{{document}}\n", encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:]
