"""Import CPU of every script at job start: each script's import statements in a fresh interpreter.

``python benchmarks/bench_imports.py [SRC] [OUT.json]``: for every ``scripts/*.py``, the CPU seconds (user +
sys, the smallest of 3 runs) of a fresh ``python -c`` running exactly the script's import statements, with
``SRC`` (default: this checkout's ``src``) first on ``PYTHONPATH``. This is the library's share of a job's
start; Snakemake's own per-job cost (its script preamble, ~0.07 s, and the main process's bookkeeping) is
not in it. Results go to OUT.json (default: print only); benchmarks/bench_imports.md compares two runs.
"""

from __future__ import annotations

import ast
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def import_code(script: Path) -> str:
    """The script's import statements (anywhere in it), one per line."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    return "\n".join(ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                     and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")) or "pass"


def cpu_seconds(code: str, src: str, repeats: int = 3) -> float:
    """Smallest CPU time (user + sys) of ``python -c code`` over ``repeats`` runs."""
    env = dict(os.environ, PYTHONPATH=src)
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main(argv: list[str]) -> None:
    src = argv[1] if len(argv) > 1 else str(ROOT / "src")
    out = {"<python>": cpu_seconds("pass", src)}
    for script in sorted((ROOT / "scripts").glob("*.py")):
        out[script.stem] = cpu_seconds(import_code(script), src)
        print(f"{script.stem}: {out[script.stem]:.2f} s", flush=True)
    if len(argv) > 2:
        Path(argv[2]).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv)
