"""Small pieces: no function of the library or of the job scripts is longer than 60 lines (def to last line,
docstring included), so each says one thing, and a module over 400 lines is one docs/CONVENTIONS.md names with
the one concept it holds ("Small pieces"). A long one is split by meaning."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 60
MODULE_LINES = 400


def long_functions(roots: list[Path], base: Path = ROOT, limit: int = MAX_LINES) -> list[str]:
    """``path:line name (n lines)`` of every function or method under ``roots`` longer than ``limit`` lines (paths
    relative to ``base``)."""
    out = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    n = node.end_lineno - node.lineno + 1
                    if n > limit:
                        out.append(f"{path.relative_to(base)}:{node.lineno} {node.name} ({n} lines)")
    return out


def test_no_function_is_longer_than_60_lines():
    assert long_functions([ROOT / "src" / "privanomaly", ROOT / "scripts"]) == []


def test_the_check_finds_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}\n", encoding="utf-8")
    assert long_functions([tmp_path], tmp_path) == ["m.py:5 long (61 lines)"]


def test_every_module_over_400_lines_is_named_with_its_one_concept():
    text = (ROOT / "docs" / "CONVENTIONS.md").read_text(encoding="utf-8")
    named = text[text.index("- Small pieces:"):].split("\n- ", 1)[0]
    lib = ROOT / "src" / "privanomaly"
    long = [p.relative_to(lib).as_posix() for p in sorted(lib.rglob("*.py"))
            if len(p.read_text(encoding="utf-8").splitlines()) > MODULE_LINES]
    assert [m for m in long if f"`{m}`:" not in named] == []
