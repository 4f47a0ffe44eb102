"""Tables for a paper: each CSV table of a run also as a LaTeX ``tabular`` in the booktabs style.

The ``.tex`` holds the CSV's cells as text, cell for cell - the same digits, never re-rounded - so a number in
the paper is the number in the CSV (``tests/test_latex_tables.py`` checks it cell by cell). Characters special
to LaTeX are escaped; the Greek letters and signs the tables use are written as math (``σ`` -> ``$\\sigma$``),
so the file compiles with pdfLaTeX as well as with XeLaTeX/LuaLaTeX. It needs ``\\usepackage{booktabs}``;
include it with ``\\input{table1.tex}`` inside a ``table`` environment (caption and label are the author's).
Columns whose every non-empty cell is a number are right-aligned, the others left-aligned.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from privanomaly import io

# LaTeX's special characters (one pass, so the backslash of a replacement is never escaped again)
SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
           "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
# the non-ASCII characters of the tables' headers and notes, as pdfLaTeX understands them
UNICODE = {"σ": r"$\sigma$", "ε": r"$\varepsilon$", "β": r"$\beta$", "δ": r"$\delta$", "α": r"$\alpha$",
           "Δ": r"$\Delta$", "≤": r"$\leq$", "≥": r"$\geq$", "×": r"$\times$", "±": r"$\pm$", "≈": r"$\approx$",
           "∞": r"$\infty$", "—": "---", "–": "--", "→": r"$\rightarrow$", "√": r"$\sqrt{}$", "·": r"$\cdot$",
           "é": r"\'e", "ü": r"\"u", "…": r"\dots{}", "’": "'", "“": "``", "”": "''"}


def escape(text: str) -> str:
    """``text`` as LaTeX: specials escaped, known symbols as math, a line break as a space."""
    text = " ".join(text.split("\n"))
    return "".join(SPECIAL.get(c) or UNICODE.get(c) or c for c in text)


def is_number(text: str) -> bool:
    """Whether a CSV cell is a number (``nan`` and ``inf`` included: they are numbers in the CSV too)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def column_spec(rows: Sequence[Sequence[str]], width: int) -> str:
    """``r`` for a column whose every non-empty cell is a number, else ``l``."""
    def numeric(j: int) -> bool:
        cells = [r[j] for r in rows if j < len(r) and r[j] != ""]
        return bool(cells) and all(is_number(c) for c in cells)

    return "".join("r" if numeric(j) else "l" for j in range(width))


def to_latex(header: Sequence[str], rows: Sequence[Sequence[str]], source: str = "") -> str:
    """A booktabs ``tabular`` of ``header`` and ``rows`` (the CSV's text), one table row per line."""
    def line(cells: Iterable[str]) -> str:
        return " & ".join(escape(c) for c in cells) + r" \\"

    note = f"% {source}: " if source else "% "
    return "\n".join([
        note + "the CSV's cells as text (privanomaly.report.latex); needs \\usepackage{booktabs}",
        rf"\begin{{tabular}}{{{column_spec(rows, len(header))}}}",
        r"\toprule",
        line(header),
        r"\midrule",
        *(line(r) for r in rows),
        r"\bottomrule",
        r"\end{tabular}",
        "",
    ])


def read_csv_text(path: str | os.PathLike) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a CSV table as the text the file holds (no number parsed, nothing rounded)."""
    with open(path, newline="", encoding="utf-8") as fh:
        lines = list(csv.reader(fh))
    if not lines:
        raise ValueError(f"{path}: empty CSV, expected a header line")
    header, rows = lines[0], lines[1:]
    for i, row in enumerate(rows, 2):
        if len(row) != len(header):
            raise ValueError(f"{path}:{i}: {len(row)} cells, expected {len(header)} (the header's)")
    return header, rows


def write_tex(csv_path: str | os.PathLike, tex_path: str | os.PathLike, log: str | os.PathLike | None = None) -> None:
    """Write the LaTeX copy of the CSV table ``csv_path`` to ``tex_path`` (atomically); one line to ``log``."""
    header, rows = read_csv_text(csv_path)
    io.write_text(tex_path, to_latex(header, rows, Path(csv_path).name))
    if log is not None:
        io.write_text(log, f"{tex_path}: {len(rows)} rows x {len(header)} columns from {csv_path}\n")


def tex_paths(files: Iterable[str]) -> list[str]:
    """The ``.tex`` copy of each ``.csv`` among ``files`` (the run's final files), in order."""
    return [f[: -len(".csv")] + ".tex" for f in map(str, files) if f.endswith(".csv")]
