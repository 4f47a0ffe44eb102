"""The library's import graph has layers and no cycles.

Every module under ``src/privanomaly`` is parsed with :mod:`ast`; each import — at module level or inside a
function, absolute or relative, and each string module name passed to ``importlib.import_module`` — is an
edge from the importing module to the imported one. A module belongs to its package (``privanomaly.sp.balls``
→ ``sp``; a top-level module such as ``privanomaly.io`` is its own package). :data:`LAYERS` orders the
packages from the bottom up; the tests fail on

* an edge from a package to a package of a higher layer (an upward import),
* a cycle between packages (also within one layer),
* a cycle between modules (an import of a package's ``__init__`` from its own submodules aside: Python runs
  the ``__init__`` first anyway),
* a module name that is not a literal (``importlib.import_module(name)``): a registry that loads modules by a
  computed name hides its edges — the higher layer imports the lower modules by name instead,
* a package not declared in :data:`LAYERS` (a new package is placed there, on purpose).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT_PACKAGE = "privanomaly"

LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundation", frozenset({"__init__", "io", "seeding", "registry", "config", "run"})),
    ("data", frozenset({"datasets"})),
    ("math", frozenset({"sp", "outliers"})),
    ("mechanisms", frozenset({"mechanisms"})),
    ("privacy", frozenset({"privacy"})),
    ("experiment", frozenset({"experiment"})),
    ("papers", frozenset({"paper_a", "paper_b"})),
    ("sweeps", frozenset({"sweeps", "price"})),
    ("audit", frozenset({"audit"})),
    ("report", frozenset({"report"})),
    ("entry points", frozenset({"api", "__main__", "preflight"})),
)
"""The library's layers, bottom first: a package may import its own layer (without a cycle) and the layers
below it, never one above. foundation: atomic I/O, seeding, logs, config checking, the run record and the
named registry, dotted config keys; data: datasets and the dataset plan; math: paper A (``sp``) and paper B (``outliers``,
including δ(ε) of the Gaussian); mechanisms (the registry of both papers' mechanisms); privacy (the scope of a
claim, the accountant, the per-record split, the public fit and private selection, the end-to-end mechanisms);
experiment (the shared experiment core); papers (``paper_a``, ``paper_b``); sweeps, the price of honest tuning
and its released path (over both papers); audit (auditors and negative controls, the released path's
included: it audits what the price job releases); report
(figures, tables and index over the papers' registries); entry points (the Python API, the CLI and the config check with the plan that make runs)."""

RANK = {pkg: i for i, (_, pkgs) in enumerate(LAYERS) for pkg in pkgs}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    base = SRC.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path) -> tuple[set[str], list[str]]:
    """(modules of the library imported by ``path``, anywhere in it; module names that are not literals)."""
    name = module_name(path)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    dynamic: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                targets.append(sub if is_module(sub) else mod)
        elif isinstance(node, ast.Call):
            fn = node.func
            fname = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if fname in ("import_module", "__import__"):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    targets = [arg.value]
                else:
                    dynamic.append(f"{path.relative_to(SRC)}:{node.lineno}")
        for t in targets:
            if t == ROOT_PACKAGE or t.startswith(ROOT_PACKAGE + "."):
                while not is_module(t):  # "privanomaly.x.name" of an attribute import: its module
                    t = t.rsplit(".", 1)[0]
                found.add(t)
    found.discard(name)
    return found, dynamic


def module_graph() -> tuple[dict[str, set[str]], list[str]]:
    graph: dict[str, set[str]] = {}
    dynamic: list[str] = []
    for path in sorted((SRC / ROOT_PACKAGE).rglob("*.py")):
        graph[module_name(path)], dyn = imports_of(path)
        dynamic += dyn
    return graph, dynamic


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


GRAPH, DYNAMIC = module_graph()


def package_graph() -> dict[str, set[str]]:
    pkgs: dict[str, set[str]] = defaultdict(set)
    for mod, targets in GRAPH.items():
        a = package_of(mod)
        pkgs[a] |= {package_of(t) for t in targets if package_of(t) != a}
    return pkgs


def test_the_graph_is_read():
    """The parser sees the edges it must see (a function-level import and a relative import among them)."""
    assert "privanomaly.outliers.gaussian" in GRAPH["privanomaly.audit.exact_loss"]
    assert "privanomaly.paper_a.plots" in GRAPH["privanomaly.report.figures"]  # inside registries()
    assert "privanomaly.mechanisms.paper_b" in GRAPH["privanomaly.mechanisms"]  # inside _load_builtins
    assert "privanomaly.audit.harness" in GRAPH["privanomaly.audit.paper_b"]  # from . import harness


def test_every_package_has_a_layer():
    undeclared = sorted({package_of(m) for m in GRAPH} - set(RANK))
    assert not undeclared, f"packages missing from LAYERS in {__file__}: {undeclared}"


def test_no_import_of_a_computed_module_name():
    assert not DYNAMIC, f"import_module with a non-literal name (import the modules by name instead): {DYNAMIC}"


def test_no_upward_import():
    upward = [f"{mod} -> {t}" for mod, targets in GRAPH.items() for t in sorted(targets)
              if RANK[package_of(t)] > RANK[package_of(mod)]]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_no_package_cycle():
    assert not cycles(package_graph())


def test_no_module_cycle():
    graph = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in GRAPH.items()}
    assert not cycles(graph)


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}, [["a", "b", "c"]]),
])
def test_cycles_are_found(graph, expected):
    assert cycles(graph) == expected
