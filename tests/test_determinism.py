"""Determinism: seeded streams depend only on (seed, keys); no code uses global or unseeded randomness;
the workflow gives byte-identical CSV tables across runs and across --cores 1 / --cores 2 (slow tests).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from privanomaly import seeding

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ privanomaly.seeding
def draw(seed, *keys, n=5):
    return seeding.rng(seed, *keys).integers(0, 2**62, n).tolist()


def test_stream_depends_only_on_seed_and_keys():
    a = draw(20191111, "paper_a", "thyroid", 0.5)
    # other generators created (and consumed) in between do not matter: no shared state
    for k in range(10):
        seeding.rng(20191111, "paper_a", "thyroid", k).random(1000)
    np.random.seed(123)  # nor does the legacy global state
    assert draw(20191111, "paper_a", "thyroid", 0.5) == a
    # every key and the seed change the stream; key order matters
    others = [
        draw(20191112, "paper_a", "thyroid", 0.5),
        draw(20191111, "paper_b", "thyroid", 0.5),
        draw(20191111, "paper_a", "mammography", 0.5),
        draw(20191111, "paper_a", "thyroid", 0.25),
        draw(20191111, "thyroid", "paper_a", 0.5),
        draw(20191111, "paper_a", "thyroid"),
        draw(20191111, "paper_a", "thyroid", "0.5"),  # a string wildcard is a different key than a float
    ]
    assert all(o != a for o in others)
    assert len({tuple(o) for o in others}) == len(others)


def test_numpy_scalars_are_the_same_key_as_python_scalars():
    assert draw(7, "r", np.float64(0.5), np.int64(3)) == draw(7, "r", 0.5, 3)
    assert draw(np.int64(7), "r") == draw(7, "r")


def test_stream_is_pinned():
    """The derivation (sha256 of repr(key) → SeedSequence) is frozen: changing it changes every result."""
    assert seeding.rng(20191111, "paper_a", "thyroid", 0.5).integers(0, 2**32, 4).tolist() == [
        1640975393,
        1665716035,
        132845344,
        1828106737,
    ]


@pytest.mark.subprocess
def test_stream_does_not_depend_on_the_process_or_hash_seed():
    code = "from privanomaly import seeding; print(seeding.rng(5, 'k', 1.5).integers(0, 2**62, 3).tolist())"
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(h)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for h in (0, 1, 4242)
    }
    assert outs == {str(draw(5, "k", 1.5, n=3))}


@pytest.mark.parametrize("bad", [-1, 1.5, "7", None])
def test_bad_seed_is_rejected(bad):
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        seeding.rng(bad, "x")


# ------------------------------------------------------------------ static check: no unseeded randomness
_LEGACY_OK = {"Generator", "SeedSequence", "default_rng", "PCG64", "PCG64DXSM", "Philox", "SFC64", "BitGenerator"}


def _randomness_violations(path: Path) -> list[str]:
    """Calls of numpy's global RandomState API (np.random.normal(...), np.random.seed, RandomState) or
    default_rng() / SeedSequence() without a seed, or the stdlib ``random`` module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            mod = node.module if isinstance(node, ast.ImportFrom) else None
            names = [a.name for a in node.names]
            if mod == "random" or "random" in names and mod is None:
                bad.append(f"{path.name}:{node.lineno}: imports the stdlib random module")
            if mod == "numpy.random":
                bad += [f"{path.name}:{node.lineno}: from numpy.random import {n}" for n in names if n not in _LEGACY_OK]
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        dotted = []
        while isinstance(f, ast.Attribute):
            dotted.append(f.attr)
            f = f.value
        if isinstance(f, ast.Name):
            dotted.append(f.id)
        dotted = ".".join(reversed(dotted))
        if dotted.startswith(("np.random.", "numpy.random.")):
            fn = dotted.rsplit(".", 1)[1]
            if fn not in _LEGACY_OK:
                bad.append(f"{path.name}:{node.lineno}: {dotted}(...) uses numpy's global random state")
            elif fn in ("default_rng", "SeedSequence") and not node.args and not node.keywords:
                bad.append(f"{path.name}:{node.lineno}: {dotted}() without a seed")
        elif dotted in ("default_rng", "SeedSequence") and not node.args and not node.keywords:
            bad.append(f"{path.name}:{node.lineno}: {dotted}() without a seed")
    return bad


@pytest.mark.slow
def test_no_global_or_unseeded_randomness_in_library_and_scripts():
    files = sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "scripts").rglob("*.py"), *(ROOT / "workflow").rglob("*.py")])
    assert files, "no sources found"
    bad = [v for p in files for v in _randomness_violations(p)]
    assert bad == [], "randomness must come from privanomaly.seeding.rng(...):\n" + "\n".join(bad)


def test_the_static_check_catches_violations(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "import numpy as np\nimport random\nfrom numpy.random import normal\n"
        "np.random.seed(1)\nx = np.random.normal(size=3)\ng = np.random.default_rng()\n"
        "ok = np.random.default_rng(np.random.SeedSequence(3))\n"
    )
    bad = _randomness_violations(src)
    assert [b.split(":")[1] for b in bad] == ["2", "3", "4", "5", "6"]


# ------------------------------------------------------------------ the workflow (slow)
@pytest.mark.mirror
@pytest.mark.slow
def test_two_runs_give_byte_identical_tables(reference_run, second_run_cores1):
    """Run 1 (--cores 2) and run 2 (--cores 1, separate copy) give identical CSV tables: neither the
    number of cores nor the execution order nor the run itself changes any number. Run 1 is the whole .test
    DAG's run (fixture ``dag_run``), read for the files the jobs of the targets write (``snakemake --summary``
    of the targets: the comparison covers exactly the tables run 2 must make, no fewer). Run 2 is the
    interrupted run of tests/workflow_copy.py (also checked by tests/test_interrupted_run.py): SIGKILLed mid-way
    and resumed, but every one of its tables was computed by a --cores 1 process in its own copy, nothing is
    taken from run 1."""
    ref = reference_run.csv_bytes()
    other = second_run_cores1.final
    assert ref, "the reference run produced no CSV table"
    assert sorted(other) == sorted(ref)
    differing = [p for p in ref if ref[p] != other[p]]
    assert differing == [], f"tables differ between --cores 2 and --cores 1: {differing}"


@pytest.mark.mirror
@pytest.mark.slow
def test_every_output_is_identical_across_path_cores_hash_seed_time_zone_and_locale(reference_run, second_run_cores1):
    """Every output, not only the tables - Markdown, JSON, PNG and PDF figures - is byte-identical between the
    reference run (the whole .test DAG's copy, --cores 2, PYTHONHASHSEED=0, TZ=UTC, LC_ALL=C; the files the
    targets' jobs write) and the second run (another copy,
    --cores 1, PYTHONHASHSEED=12345, TZ=Asia/Tokyo, a UTF-8 locale; tests/workflow_copy.ENVIRONMENTS): no
    absolute path, timestamp, set order or locale-dependent number in any file. Only the run records and
    paper B's wall-clock timing (workflow_copy.RUN_SPECIFIC) may differ."""
    import workflow_copy as wf

    ref = reference_run.outputs()
    other = second_run_cores1.outputs
    assert {p.rsplit(".", 1)[-1] for p in ref} >= {"csv", "md", "parquet", "png", "pdf", "json"}
    assert sorted(other) == sorted(ref)
    differing = [p for p in ref if ref[p] != other[p]]
    assert differing == [], f"outputs differ between the two environments: {differing}"


@pytest.fixture(scope="module")
def reference_run(dag_run):
    import workflow_copy as wf

    return wf.reference_run(dag_run)


@pytest.fixture(scope="module")
def second_run_cores1(reference_run):
    import workflow_copy as wf

    return wf.interrupted_run(reference_run)
