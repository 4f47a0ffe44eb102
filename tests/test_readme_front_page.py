"""The README's front page fits a screen: the two commands first, what it does, what you get, then the three
recipes (dataset, mechanism, sweep) within 80 lines; the details live in docs/guide.md.
(``tests/test_readme_commands.py`` runs every command of it.)"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT_PAGE_LINES = 80


def test_front_page_fits_a_screen_and_leads_with_the_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    heads = [(i, line) for i, line in enumerate(lines, 1) if line.startswith("## ")]
    recipes = [(i, h) for i, h in heads if h.startswith("## Recipe")]
    assert [h.split(":")[0] for _, h in recipes] == ["## Recipe 1", "## Recipe 2", "## Recipe 3"]
    assert "dataset" in recipes[0][1] and "mechanism" in recipes[1][1] and "sweep" in recipes[2][1]
    assert recipes[0][0] <= FRONT_PAGE_LINES, f"the first recipe starts at line {recipes[0][0]}"
    assert lines[2] == "```bash" and lines[3].startswith("make reproduce") and lines[4].startswith("make test")
    assert heads[0][1] == "## What you get"


def test_details_moved_to_docs():
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    for heading in ("## Run it", "## Sweeps over ε, k, β and r", "## Run on a cluster", "## Run times"):
        assert heading in guide
    assert "docs/guide.md" in (ROOT / "README.md").read_text(encoding="utf-8")
