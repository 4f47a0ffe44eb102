"""Every module, function and file the documentation names exists under that name.

The README, docs/*.md, DEVELOPERS.md, the config files' comments, the rule files and the Makefile name library
objects (``privanomaly.sweeps.partition``, ``privanomaly.report.catalogue.paper_files``), tests
(``tests/test_add_dataset.py``, ``tests/x.py::test_y``) and files of the checkout (``workflow/rules/sweeps.smk``,
``benchmarks/bench_sweeps.md``). A rename that the text does not follow sends a reader to nothing; these
checks hold the names (what the sentences say about them is checked by the tests of each behaviour).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [ROOT / "README.md", ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "config.yaml",
         ROOT / ".test" / "config.yaml", ROOT / ".scale" / "config.yaml", ROOT / "Makefile",
         *sorted((ROOT / "workflow" / "rules").glob("*.smk")), *sorted((ROOT / "profiles").glob("*/config.yaml"))]
DOTTED = re.compile(r"(?<![\w/.-])privanomaly(?:\.[A-Za-z_]\w*)+")
TEST_REF = re.compile(r"\btests/(\w+\.py)(?:::(\w+))?")
GENERATED = {"benchmarks/results.md"}  # written by `make bench`, not tracked
PATH_REF = re.compile(r"`((?:src|scripts|workflow|benchmarks|tools|profiles|envs|docs|tests)/[\w./-]+\.\w+)`")


def _resolve(name: str) -> bool:
    """Whether ``name`` is a module, or an attribute path below the longest importable module prefix."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_library_objects_exist(path):
    text = path.read_text(encoding="utf-8")
    names = sorted({m.group(0).rstrip(".") for m in DOTTED.finditer(text)} - {"privanomaly.yaml"})
    assert [n for n in names if not _resolve(n)] == []


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_tests_and_files_exist(path):
    text = path.read_text(encoding="utf-8")
    missing = []
    for file, func in TEST_REF.findall(text):
        test = ROOT / "tests" / file
        if not test.is_file() or (func and not re.search(rf"^def {func}\b", test.read_text(encoding="utf-8"), re.M)):
            missing.append(f"tests/{file}" + (f"::{func}" if func else ""))
    missing += [p for p in PATH_REF.findall(text)
                if "{" not in p and "<" not in p and p not in GENERATED and not (ROOT / p).exists()]
    assert missing == []


def test_the_checks_see_a_wrong_name():
    assert _resolve("privanomaly.sweeps.partition") and _resolve("privanomaly.report.catalogue.paper_files")
    assert not _resolve("privanomaly.sweeps.partitions") and not _resolve("privanomaly.report.catalogue.nope")
    assert TEST_REF.findall("see `tests/test_x.py::test_y`") == [("test_x.py", "test_y")]
