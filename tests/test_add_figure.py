"""A new figure (or table) is one catalogue entry + one registered function + one caption.

In a temporary copy of the workflow (tests/workflow_copy.py), the test adds exactly those three things — an
item with a ``plot:`` section appended to workflow/report/catalogue.yaml, a function registered in
privanomaly/paper_a/plots.py, a caption file — and nothing else (no rule, no script, no target list). Then:

- built: Snakemake, asked for the new PNG only, runs the generic plot rule under the item's rule name on the
  existing Figure 1 table, and writes a PNG and a PDF (the plot function's marker text is in the PDF);
- captioned: the rule's output carries report(caption=the new caption, category "Paper A", the subcategory);
- targeted and indexed: the new files are paper A targets (so `rule all` builds them), the report_index rule
  claims no target is uncovered, and index.md as that rule renders it has the new line (item, file, rule);
  the README table generated from the catalogue has its row.

A new table the same way, for paper B: an item with a ``table:`` section, a function registered in
privanomaly/paper_b/tables.py returning a DataFrame, a caption; the generic rule writes its CSV and Markdown.

Marked slow (runs Snakemake on four small jobs); about 40 s on 2 cores.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import workflow_copy as wc

from privanomaly.report import catalogue, index

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

RULE = "paper_a_fig_minerr"
PNG, PDF = "paper_a/figures/min_worst_error.png", "paper_a/figures/min_worst_error.pdf"

ENTRY = f"""
  - paper: A
    item: Figure 1 (b) alone
    title: minimum worst-case error 1/(1+e^ε) of a binary query under ε-DP
    rule: {RULE}
    files: [{PNG}, {PDF}]
    checks: []
    plot:
      function: paper_a.min_worst_error
      caption: paper_a_min_worst_error.rst
      subcategory: Figures 1-4
      inputs: {{minerr: paper_a/work/fig1/min_worst_error.csv}}
      params: {{eps_max: paper_a.fig1.eps_max}}
"""

FUNCTION = '''

@FIGURES.register("paper_a.min_worst_error")
def _min_worst_error(t, p):
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.plot(t["minerr"]["eps"], t["minerr"]["min_worst_error"])
    ax.set_xlim(0, p["eps_max"])
    return fig
'''

TABLE_RULE = "paper_b_gs_ratio"
CSV, MD = "paper_b/tables/gs_ratio.csv", "paper_b/tables/gs_ratio.md"
TABLE_ENTRY = f"""
  - paper: B
    item: Figure 1 (ratio of the bounds)
    title: ratio of the upper to the lower bound of GS of q_count against d
    rule: {TABLE_RULE}
    files: [{CSV}, {MD}]
    checks: []
    table:
      function: paper_b.gs_ratio
      caption: paper_b_gs_ratio.rst
      subcategory: Figures 1-2
      inputs: {{bounds: paper_b/tables/fig1_gs_bounds.csv}}
      params: {{k: paper_b.k}}
"""

TABLE_FUNCTION = '''

@FIGURES.register("paper_b.gs_ratio")
def _gs_ratio(inp, p):
    df = pd.read_csv(inp["bounds"])
    return pd.DataFrame({"d": df["d"], "ratio": df["gs_upper"] / df["gs_lower"], "k": p["k"]})
'''

TABLE_CAPTION = "Paper B, Figure 1: the ratio of the upper to the lower bound of GS of q_count, per dimension d.\n"

CAPTION = "Paper A, Figure 1 (b): the minimum worst-case error 1/(1+e^ε) of a binary query under ε-DP.\n"

_DUMP = r"""
import json, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.io import get_flag_value, is_flagged
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings

with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(
        resource_settings=ResourceSettings(cores=1),
        config_settings=ConfigSettings(configfiles=[Path(".test/config.yaml")], config=json.loads(sys.argv[1])),
        snakefile=Path("Snakefile").absolute(),
        workdir=Path(".").absolute(),
    )._workflow
    out = {"rules": {}}
    for name in sys.argv[2:]:
        rule = wf.get_rule(name)
        rep = get_flag_value(rule.output[0], "report") if is_flagged(rule.output[0], "report") else None
        out["rules"][name] = {
            "outputs": [str(o) for o in rule.output],
            "report": None if rep is None else {"caption": str(rep.caption), "category": rep.category,
                                               "subcategory": rep.subcategory}}
    index = wf.get_rule("report_index")
    out.update({
        "paper_a_targets": [str(t) for t in wf.globals["paper_a_targets"]()],
        "paper_b_targets": [str(t) for t in wf.globals["paper_b_targets"]()],
        "entries": index.params.entries, "uncovered": index.params.uncovered,
    })
    print("@@JSON@@" + json.dumps(out))
"""


def _add(copy: Path, entry: str, module: str, function: str, caption_file: str, caption: str) -> None:
    """The three edits of the recipe in docs/CONVENTIONS.md ("Add a figure"), and nothing else: a catalogue
    entry, a registered function appended to ``module``, a caption."""
    for path, text in ((copy / "workflow" / "report" / "catalogue.yaml", entry),
                       (copy / "src" / "privanomaly" / module, function)):
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    (copy / "workflow" / "report" / caption_file).write_text(caption, encoding="utf-8")


@pytest.fixture(scope="module")
def added(tmp_path_factory):
    copy = wc.copy_workflow(tmp_path_factory.mktemp("add-figure") / "wf")
    _add(copy, ENTRY, "paper_a/plots.py", FUNCTION, "paper_a_min_worst_error.rst", CAPTION)
    _add(copy, TABLE_ENTRY, "paper_b/tables.py", TABLE_FUNCTION, "paper_b_gs_ratio.rst", TABLE_CAPTION)
    proc = subprocess.run(
        [wc.SNAKEMAKE, f"{wc.RESULTS}/{PNG}", f"{wc.RESULTS}/{CSV}", "--cores", "2", "--configfile", ".test/config.yaml",
         "--config", f"data_mirror={wc.MIRROR}"],
        cwd=copy, env=wc.env_for(copy), capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    dump = subprocess.run(
        [sys.executable, "-c", _DUMP, json.dumps({"data_mirror": str(wc.MIRROR)}), RULE, TABLE_RULE],
        cwd=copy, env=wc.env_for(copy), capture_output=True, text=True, timeout=600,
    )
    assert dump.returncode == 0, dump.stderr[-3000:]
    return copy, proc.stdout + proc.stderr, json.loads(dump.stdout.split("@@JSON@@", 1)[1])


def test_new_figure_is_built_by_the_generic_rule_under_its_catalogue_name(added):
    copy, log, _ = added
    results = copy / wc.RESULTS
    png, pdf = (results / PNG).read_bytes(), (results / PDF).read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    assert pdf.startswith(b"%PDF")
    # the new function drew it: a 3 x 3 in figure at 150 dpi (bbox tight: about 450 px a side, and far from
    # Figure 1's 10 x 4.2 in from the same table)
    width, height = struct.unpack(">II", png[16:24])
    assert 300 < width < 560 and 300 < height < 560, (width, height)
    assert f"rule {RULE}:" in log or f"localrule {RULE}:" in log
    assert (results / "logs" / RULE / "all.log").is_file()


def test_new_figure_is_captioned_in_the_report(added):
    copy, _, dump = added
    assert dump["rules"][RULE]["outputs"] == [f"{wc.RESULTS}/{PNG}", f"{wc.RESULTS}/{PDF}"]
    rep = dump["rules"][RULE]["report"]
    assert rep is not None and rep["category"] == "Paper A" and rep["subcategory"] == "Figures 1-4"
    assert Path(rep["caption"]).name == "paper_a_min_worst_error.rst"
    assert (copy / "workflow" / "rules" / rep["caption"]).resolve().read_text(encoding="utf-8") == CAPTION


def test_new_figure_is_a_target_and_indexed(added):
    copy, _, dump = added
    assert f"{wc.RESULTS}/{PNG}" in dump["paper_a_targets"] and f"{wc.RESULTS}/{PDF}" in dump["paper_a_targets"]
    assert dump["uncovered"] == []
    mine = [e for e in dump["entries"] if e["rule"] == RULE]
    assert [e["files"] for e in mine] == [[PNG, PDF]]
    text = index.render(entries=dump["entries"], verdicts={}, sources={}, dataset_names={}, uncovered=[],
                        unavailable={}, your_datasets={})
    line = next(ln for ln in text.splitlines() if PNG in ln)
    assert "Figure 1 (b) alone" in line and RULE in line
    readme = catalogue.readme_table(catalogue.load(copy / "workflow" / "report" / "catalogue.yaml"))
    assert "| A | Figure 1 (b) alone |" in readme and f"`{RULE}`" in readme


def test_new_table_is_built_captioned_targeted_and_indexed(added):
    import pandas as pd

    copy, log, dump = added
    results = copy / wc.RESULTS
    table = pd.read_csv(results / CSV)
    bounds = pd.read_csv(results / "paper_b" / "tables" / "fig1_gs_bounds.csv")
    expected = (bounds["gs_upper"] / bounds["gs_lower"]).tolist()  # written with 10 significant digits
    assert table["ratio"].tolist() == pytest.approx(expected, rel=1e-9) and len(table) > 3
    assert set(table["k"]) == {3}  # paper_b.k of the .test config, passed as a param
    assert "| d " in (results / MD).read_text(encoding="utf-8")
    assert f"rule {TABLE_RULE}:" in log or f"localrule {TABLE_RULE}:" in log
    assert (results / "logs" / TABLE_RULE / "all.log").is_file()
    rule = dump["rules"][TABLE_RULE]
    assert rule["outputs"] == [f"{wc.RESULTS}/{CSV}", f"{wc.RESULTS}/{MD}"]
    assert rule["report"]["category"] == "Paper B" and rule["report"]["subcategory"] == "Figures 1-2"
    assert (copy / "workflow" / "rules" / rule["report"]["caption"]).resolve().read_text(encoding="utf-8") == (
        TABLE_CAPTION)
    assert f"{wc.RESULTS}/{CSV}" in dump["paper_b_targets"] and dump["uncovered"] == []
    assert [e["files"] for e in dump["entries"] if e["rule"] == TABLE_RULE] == [[CSV, MD]]
