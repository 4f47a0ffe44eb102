"""The HTML report's home page at 1,400 px: Snakemake's content pane centres what it holds, so the front page
(workflow/report/workflow.rst) beside the full rule graph - wider and taller than the window - overflowed upwards
and to the left: its title was cut off and its text lay under the sidebar. The page carries a style that starts
the pane at the top left and wraps the rule graph under the text. Checked on the page as Snakemake renders it
(docutils) and against the installed Snakemake's template, whose classes the style names; a screenshot with
headless Chromium showed the fix (the title and text in full beside the sidebar at 1,400 and 700 px)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace as NS

import jinja2
import snakemake.report.html_reporter as reporter
from docutils.core import publish_parts

from scope_checker import merged_config

ROOT = Path(__file__).resolve().parents[1]
CONTENT_JS = Path(reporter.__file__).parent / "template" / "components" / "content.js"


def _style() -> str:
    text = (ROOT / "workflow" / "report" / "workflow.rst").read_text(encoding="utf-8")
    page = jinja2.Environment().from_string(text).render(snakemake=NS(config=merged_config(ROOT)))
    body = publish_parts(page, writer="html")["body"]  # as snakemake.report renders the description
    styles = re.findall(r"<style>(.*?)</style>", body, re.S)
    assert len(styles) == 1, body[:500]
    return styles[0]


def _rules(css: str) -> dict[str, str]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return {sel.strip(): body.strip() for sel, body in re.findall(r"([^{}]+)\{([^}]*)\}", css)}


def test_the_home_page_starts_at_the_top_left_and_wraps_the_rule_graph():
    rules = _rules(_style())
    pane = "#app div.grow.flex.items-center.justify-center.overflow-auto"
    home = "#app div.grow.flex.gap-3.p-3.items-start"
    assert set(rules) == {pane, home}
    assert "align-items: flex-start" in rules[pane] and "justify-content: flex-start" in rules[pane]
    assert rules[home] == "flex-wrap: wrap;"


def test_the_style_names_the_classes_of_snakemakes_template():
    # a Snakemake whose template renames these classes would leave the style without effect: fail here instead
    js = CONTENT_JS.read_text(encoding="utf-8")
    assert '"grow flex items-center justify-center h-screen overflow-auto"' in js  # the content pane
    assert '"grow flex gap-3 p-3 items-start"' in js  # the home page: the description beside the rule graph
    assert "dangerouslySetInnerHTML: { __html: workflow_desc }" in js  # the description, with its style, inside it
