"""Which library code a rule's script can run, and one digest of it: the param ``library`` of every rule.

Snakemake reruns a job when its script file changes (its ``code`` trigger), not when a module of this library
that the script imports changes: a fixed bug in ``privanomaly`` would leave every table built before the fix in
place, and ``snakemake`` would report nothing to do. With the digest of the modules a script imports as a
param, an edit of one of them reruns exactly the jobs that can execute it (the ``params`` trigger) and no other.

The modules are read off the source text: every ``import`` / ``from ... import`` line at any depth (a function's
import on first use counts), relative ones resolved, followed transitively through the package. The set may
therefore hold a module a given job never reaches - never miss one it does. Package ``__init__`` modules count
(Python runs them on import). No Snakemake here; plain text, no import of the modules themselves.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

PACKAGE = "privanomaly"
_PACKAGE_DIR = Path(__file__).resolve().parents[1]

# `from X import a, b` (a parenthesised list may span lines) or `import a.b, c as d`, at the start of a line
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)|import[ \t]+([^\n#;]+))", re.M
)
_AS = re.compile(r"\s+as\s+")


@functools.cache
def modules(package_dir: Path = _PACKAGE_DIR) -> dict[str, Path]:
    """{dotted module name: file} of every module of the package at ``package_dir`` (``__init__`` files name
    their package)."""
    out = {}
    for path in sorted(package_dir.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = [PACKAGE, *path.relative_to(package_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imported_names(text: str, module: str, is_package: bool) -> set[str]:
    """Dotted names that the source ``text`` of ``module`` imports: each module ``X`` of ``from X import n`` and
    ``X.n`` (``n`` may be a submodule), each ``a.b`` of ``import a.b``; relative names made absolute."""
    text = text.replace("\\\n", " ")
    names: set[str] = set()
    for m in _IMPORT.finditer(text):
        if m.group(3):
            names.update(_AS.split(part.strip())[0] for part in m.group(3).split(","))
            continue
        base = m.group(1)
        if base.startswith("."):
            level = len(base) - len(base.lstrip("."))
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (level - 1)]
            base = ".".join(package + ([base.lstrip(".")] if base.lstrip(".") else []))
        names.add(base)
        for item in m.group(2).strip("()").split(","):
            item = _AS.split(item.strip())[0]
            if item and item != "*":
                names.add(f"{base}.{item}")
    return {n for n in names if n}


def _own(name: str, known: dict[str, Path]) -> set[str]:
    """The package's modules that importing ``name`` runs: ``name`` and every package above it."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & known.keys()


@functools.cache
def _direct(module: str, package_dir: Path) -> frozenset[str]:
    known = modules(package_dir)
    path = known[module]
    found = imported_names(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    return frozenset(m for n in found for m in _own(n, known))


def closure(roots: set[str], package_dir: Path = _PACKAGE_DIR) -> set[str]:
    """The package's modules reachable from the modules ``roots`` through their imports (``roots`` included)."""
    seen: set[str] = set()
    todo = [r for r in roots if r in modules(package_dir)]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(_direct(m, package_dir) - seen)
    return seen


def script_modules(script: str | Path, package_dir: Path = _PACKAGE_DIR) -> set[str]:
    """The package's modules the script file ``script`` can run (:func:`closure` of what it imports)."""
    known = modules(package_dir)
    found = imported_names(Path(script).read_text(encoding="utf-8"), "__main__", False)
    return closure({m for n in found for m in _own(n, known)}, package_dir)


@functools.cache
def script_digest(script: str | Path, package_dir: Path = _PACKAGE_DIR) -> str:
    """sha256 (16 hex) of the names and sources of :func:`script_modules`: rule param ``library``."""
    return _digest(script_modules(script, package_dir), package_dir)


@functools.cache
def module_digest(module: str, package_dir: Path = _PACKAGE_DIR) -> str:
    """:func:`script_digest` of a rule whose ``run:`` block calls the package's module ``module`` (dotted)."""
    return _digest(closure(_own(module, modules(package_dir)), package_dir), package_dir)


def _digest(names: set[str], package_dir: Path) -> str:
    h = hashlib.sha256()
    known = modules(package_dir)
    for name in sorted(names):
        h.update(name.encode() + b"\0" + known[name].read_bytes() + b"\0")
    return h.hexdigest()[:16]
