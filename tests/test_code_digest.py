"""privanomaly.run.code_digest: the library modules a rule's script can run, read off import lines, and their digest
(rule param ``library``). Checked on a small package written here (every import form) and on the real scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from privanomaly.run import code_digest as codedigest

ROOT = Path(__file__).resolve().parents[1]

FILES = {
    "__init__.py": "",
    "io.py": "import os\n",
    "lazy.py": "def f():\n    from privanomaly import deep  # imported on first use\n    return deep\n",
    "deep.py": "X = 1\n",
    "unused.py": "from . import io\n",
    "sub/__init__.py": "from .leaf import g\n",
    "sub/leaf.py": "from ..io import os\nfrom privanomaly.multi import (\n    a,\n    b as c,\n)\n",
    "multi.py": "import privanomaly.lazy as lz, json\n",
}


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "privanomaly"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "script.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_import_form_is_followed(tmp_path, package):
    """Relative imports at one and two levels, a parenthesised list over lines, ``as``, ``import a.b as c, d``,
    an import inside a function, and the packages above each module (their __init__ runs on import)."""
    script = _script(tmp_path, "from privanomaly.sub import leaf\n")
    assert codedigest.script_modules(script, package) == {
        "privanomaly", "privanomaly.sub", "privanomaly.sub.leaf", "privanomaly.io", "privanomaly.multi",
        "privanomaly.lazy", "privanomaly.deep"}
    assert codedigest.script_modules(_script(tmp_path, "import privanomaly.io\n"), package) == {
        "privanomaly", "privanomaly.io"}


def test_the_digest_follows_the_modules_a_script_can_run_and_no_other(tmp_path, package):
    script = _script(tmp_path, "from privanomaly.sub import leaf\n")
    before = codedigest.script_digest.__wrapped__(script, package)
    (package / "unused.py").write_text("from . import io  # edited\n", encoding="utf-8")
    assert codedigest.script_digest.__wrapped__(script, package) == before
    codedigest._direct.cache_clear()
    (package / "deep.py").write_text("X = 2\n", encoding="utf-8")  # reached only through a lazy import
    assert codedigest.script_digest.__wrapped__(script, package) != before


def test_the_real_scripts_reach_their_math_and_not_the_other_papers():
    """The sweep chunks run paper A's ball counts and mechanisms; data preparation runs none of the papers."""
    chunk = codedigest.script_modules(ROOT / "scripts" / "sweep_chunk.py")
    assert {"privanomaly.sweeps.points", "privanomaly.mechanisms.paper_a", "privanomaly.sp"} <= chunk
    assert not any(m.startswith("privanomaly.paper_b.") for m in chunk)
    prepare = codedigest.script_modules(ROOT / "scripts" / "prepare.py")
    assert {"privanomaly.datasets.prepare", "privanomaly.datasets.loaders", "privanomaly.datasets.labels",
            "privanomaly.datasets.rawtext", "privanomaly.seeding"} <= prepare
    assert not any(m.startswith(("privanomaly.paper_", "privanomaly.sweeps", "privanomaly.sp")) for m in prepare)
    # the audit's own code and the end-to-end claims it checks, not only the mechanisms
    audit = codedigest.script_modules(ROOT / "scripts" / "privacy_audit.py")
    assert {"privanomaly.audit.harness", "privanomaly.privacy.end_to_end", "privanomaly.mechanisms.paper_b"} <= audit


def test_every_rule_with_a_script_takes_its_librarys_digest():
    """Each rule's params hold ``library=library_code("<its script>")`` (the catalogue's loop: render)."""
    import re

    for smk in sorted((ROOT / "workflow" / "rules").glob("*.smk")):
        text = smk.read_text(encoding="utf-8")
        for block in re.split(r"\n(?=\s*rule\b)", text):
            script = re.search(r'script:\s*"\.\./\.\./scripts/(\w+)\.py"', block)
            if script:
                assert f'library=library_code("{script.group(1)}")' in block, (smk.name, block[:80])


def test_a_run_block_takes_the_digest_of_the_module_it_calls(tmp_path, package):
    """module_digest (rule table_tex's run: block) covers the module, the packages above it and what it imports."""
    digest = codedigest.module_digest.__wrapped__
    before = digest("privanomaly.sub.leaf", package)
    script = _script(tmp_path, "from privanomaly.sub import leaf\n")
    assert before == codedigest.script_digest.__wrapped__(script, package)  # the same modules as such a script
    (package / "unused.py").write_text("from . import io  # edited\n", encoding="utf-8")
    assert digest("privanomaly.sub.leaf", package) == before
    (package / "sub" / "leaf.py").write_text(FILES["sub/leaf.py"] + "Y = 1\n", encoding="utf-8")
    codedigest._direct.cache_clear()
    assert digest("privanomaly.sub.leaf", package) != before
    text = (ROOT / "workflow" / "rules" / "report.smk").read_text(encoding="utf-8")
    assert 'library=module_digest("privanomaly.report.latex")' in text and "latex.write_tex(" in text
