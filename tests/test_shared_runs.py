"""Every run made once per pytest process (a ``functools.cache`` function of the tests' helper modules, e.g.
``workflow_copy.reference_run``) is read by test files that form one unit of work under pytest-xdist
(``tests/conftest.py``: ``SHARED_RUNS``), so ``make test``'s two processes never make the same run twice."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from conftest import SHARED_RUNS, work_unit

TESTS = Path(__file__).resolve().parent


def cached_functions() -> dict[str, str]:
    """{function name: helper module} of the functions decorated ``functools.cache`` in tests/*.py helpers."""
    out = {}
    for path in sorted(TESTS.glob("*.py")):
        if path.name.startswith(("test_", "conftest")):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and any(
                ast.unparse(d) in ("functools.cache", "cache", "functools.lru_cache()") for d in node.decorator_list
            ):
                out[node.name] = path.stem
    return out


def readers() -> dict[str, set[str]]:
    """{cached function: the test files that call it}."""
    found: dict[str, set[str]] = defaultdict(set)
    names = cached_functions()
    for path in sorted(TESTS.glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        for name in names:
            if re.search(rf"\b{name}\(", text):
                found[name].add(path.name)
    return found


def test_the_cached_runs_are_found():
    names = cached_functions()
    assert {"reference_run", "interrupted_run", "paper_a_run"} <= set(names), names
    found = readers()
    assert {"test_determinism.py", "test_interrupted_run.py"} <= found["reference_run"]
    assert found["paper_a_run"] == {"test_add_dataset.py", "test_report_follows_run.py"}


def test_the_readers_of_each_cached_run_are_one_unit_of_work():
    for name, files in readers().items():
        units = {work_unit(f"tests/{f}::t") for f in files}
        assert len(units) == 1, f"{name} is read by {sorted(files)}: list them under one name in SHARED_RUNS"
    assert set(SHARED_RUNS) <= {p.name for p in TESTS.glob("test_*.py")}  # no stale entry
