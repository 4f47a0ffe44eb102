"""The workflow as Snakemake loads it: every rule has log and benchmark, report items have captions grouped
by paper, and the catalogue (workflow/report/catalogue.yaml) covers exactly the pipelines' targets, each file
written by the rule the catalogue names.

The rule objects are read through the Snakemake API in a subprocess (``_DUMP``), once per configuration:
the full config.yaml and the .test overlay, both with the offline mirror (credit card and APS unavailable).
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from privanomaly.report import catalogue

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
CATALOGUE = ROOT / "workflow" / "report" / "catalogue.yaml"
pytestmark = [pytest.mark.subprocess, pytest.mark.mirror]

_DUMP = r"""
import json, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.io import get_flag_value, is_flagged
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings

configfiles = [Path(p) for p in json.loads(sys.argv[1])]
with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(
        resource_settings=ResourceSettings(cores=1),
        config_settings=ConfigSettings(configfiles=configfiles, config=json.loads(sys.argv[2])),
        snakefile=Path("Snakefile").absolute(),
        workdir=Path(".").absolute(),
    )._workflow
    g = wf.globals
    rules = []
    for r in wf.rules:
        outs = []
        for o in r.output:
            rep = get_flag_value(o, "report") if is_flagged(o, "report") else None
            outs.append({"path": str(o), "report": None if rep is None else {
                "caption": str(rep.caption) if rep.caption else None,
                "category": rep.category,  # a subcategory may be a function of the wildcards (Snakemake API)
                "subcategory": "<function>" if callable(rep.subcategory) else rep.subcategory}})
        res = {}
        for k, v in r.resources.items():
            v = getattr(v, "raw", v)  # snakemake.resources.Resource -> the declared value
            if not k.startswith("_") and isinstance(v, (int, float, str)):
                res[k] = v
        rules.append({"name": r.name, "log": [str(x) for x in r.log],
                      "benchmark": str(r.benchmark) if r.benchmark else None,
                      "resources": res, "outputs": outs})
    targets = {n: [str(t) for t in g[n]()] for n in
               ("data_targets", "paper_a_targets", "paper_b_targets", "audit_targets", "report_targets")}
    producers, captions = {}, {}
    for t in targets["paper_a_targets"] + targets["paper_b_targets"] + targets["audit_targets"]:
        producers[t] = [r.name for r in wf.rules if any(o.match(t) for o in r.output)]
        for r in wf.rules:
            for o in r.output:
                if o.match(t) and is_flagged(o, "report") and get_flag_value(o, "report").caption:
                    captions[t] = str(get_flag_value(o, "report").caption)
    print("@@JSON@@" + json.dumps({"rules": rules, "targets": targets, "producers": producers, "captions": captions,
                                   "results_dir": g["RESULTS"], "logs": g["LOGS"], "bench": g["BENCH"]}))
"""

CONFIGS = {"full": [], "test": [".test/config.yaml"]}


@functools.cache
def workflow_dump(which: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _DUMP, json.dumps(CONFIGS[which]), json.dumps({"data_mirror": str(MIRROR)})],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0 or "@@JSON@@" not in proc.stdout:
        raise AssertionError(f"loading the workflow failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.split("@@JSON@@", 1)[1])


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def dump(request) -> dict:
    return workflow_dump(request.param)


def test_every_rule_with_outputs_has_log_and_benchmark_in_its_own_directory(dump):
    rules = [r for r in dump["rules"] if r["outputs"]]
    assert len(rules) >= 40  # data (3) + paper A (24) + paper B (14) + report (3) at the time of writing
    for r in rules:
        assert r["log"], f"rule {r['name']} has no log:"
        assert r["benchmark"], f"rule {r['name']} has no benchmark:"
        for log in r["log"]:
            assert log.startswith(f"{dump['logs']}/{r['name']}/"), (r["name"], log)
        assert r["benchmark"].startswith(f"{dump['bench']}/{r['name']}/"), (r["name"], r["benchmark"])
        assert r["benchmark"].endswith(".tsv")
    # the rules without outputs are the pure target rules (all, paper_a_all, paper_b, ...)
    targets_only = sorted(r["name"] for r in dump["rules"] if not r["outputs"])
    assert "all" in targets_only and all(n == "all" or n.startswith(("paper_a", "paper_b", "sweeps", "sweep_", "scale", "standin")) for n in targets_only)


def test_list_rules_names_the_same_rules():
    """`snakemake --list-rules` (what a user runs) lists exactly the rules the API loads."""
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("snakemake")), "--list-rules", "--config", f"data_mirror={MIRROR}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    listed = {line.split()[0] for line in proc.stdout.splitlines() if line.strip()}
    assert listed == {r["name"] for r in workflow_dump("full")["rules"]}


def test_report_outputs_are_grouped_by_paper_with_existing_captions(dump):
    seen = {"Paper A": 0, "Paper B": 0}
    for r in dump["rules"]:
        for o in r["outputs"]:
            rep = o["report"]
            if rep is None:
                continue
            assert rep["caption"], f"{r['name']}: {o['path']} marked for the report without a caption"
            caption = Path(rep["caption"])
            assert caption.is_file(), f"{r['name']}: caption {caption} does not exist"
            assert len(caption.read_text(encoding="utf-8").split()) >= 15, f"{caption} is too short to say what is shown"
            if r["name"].startswith("paper_a_"):
                assert (rep["category"], bool(rep["subcategory"])) == ("Paper A", True), (r["name"], rep)
            elif r["name"].startswith("paper_b_"):
                assert (rep["category"], bool(rep["subcategory"])) == ("Paper B", True), (r["name"], rep)
            elif r["name"].startswith("sweep_"):  # one subcategory per sweep
                assert (rep["category"], rep["subcategory"]) == ("Sweeps", "{sweep}"), (r["name"], rep)
            else:
                assert rep["category"] in {"Overview", "Data", "Provenance", "Privacy audit"}, (r["name"], rep)
            if rep["category"] in seen:
                seen[rep["category"]] += 1
    assert seen["Paper A"] >= 15 and seen["Paper B"] >= 9, seen


def _item_numbers(item: str) -> list[tuple[str, str]]:
    """("Figure", "3") pairs named by a catalogue item label, e.g. 'Figures 5-7' -> Figure 5, 6, 7."""
    out = []
    for kind, a, b in re.findall(r"(Figure|Table)s? (\d+)(?:-(\d+))?", item):
        out += [(kind, str(n)) for n in range(int(a), int(b or a) + 1)]
    return out


def _caption_numbers(text: str) -> set[tuple[str, str]]:
    """Figure/table numbers a caption names: 'Figures 5-7', 'Figs. 3/4', 'Tables 1 and 2', 'Table 3'."""
    out = set()
    for m in re.finditer(r"\b(Fig|Table)\w*\.?\s*((?:\d+\s*(?:-|–|/|,|and)\s*)*\d+)", text):
        kind = "Figure" if m.group(1) == "Fig" else "Table"
        nums = [int(x) for x in re.findall(r"\d+", m.group(2))]
        if re.search(r"-|–", m.group(2)) and len(nums) == 2:
            nums = list(range(nums[0], nums[1] + 1))
        out |= {(kind, str(n)) for n in nums}
    return out


def test_every_report_item_has_a_mimetype_the_report_can_show(dump):
    """Snakemake embeds each report item under the mimetype of its suffix and falls back to text/plain: a binary
    file (Parquet) would be shown as text. Every item marked report(...) has a known mimetype."""
    import mimetypes

    marked = [o["path"] for r in dump["rules"] for o in r["outputs"] if o["report"]]
    assert marked
    unknown = [p for p in marked if mimetypes.guess_type(p)[0] is None]
    assert unknown == [], f"report items without a mimetype (shown as text/plain): {unknown}"


def test_captions_name_the_papers_figure_or_table(dump):
    """Each caption of a catalogued figure/table says which paper and which figure/table it reproduces."""
    items = catalogue.load(CATALOGUE)
    by_file = {t: Path(c).read_text(encoding="utf-8") for t, c in dump["captions"].items()}
    res = dump["results_dir"]
    targets = catalogue.relative_targets(
        dump["targets"]["paper_a_targets"] + dump["targets"]["paper_b_targets"] + dump["targets"]["audit_targets"], res
    )
    checked = 0
    for entry in catalogue.match_targets(items, targets).entries:
        captions = [by_file[f"{res}/{f}"] for f in entry.files if f"{res}/{f}" in by_file]
        if entry.item.item.endswith("(data)"):  # the tidy table behind a figure: in the report if marked
            if not captions:
                continue
        assert captions, f"{entry.item.paper} {entry.item.item}: none of {entry.files} is marked report(...)"
        text = " ".join(captions)
        assert f"Paper {entry.item.paper}" in text, (entry.files[0], text[:200])
        named = _caption_numbers(text)
        for kind, n in _item_numbers(entry.item.item):
            assert (kind, n) in named, f"{entry.files[0]}: caption does not name {kind} {n}"
            checked += 1
    assert checked >= 12


def test_catalogue_covers_exactly_the_paper_targets(dump):
    items = catalogue.load(CATALOGUE)
    targets = catalogue.relative_targets(
        dump["targets"]["paper_a_targets"] + dump["targets"]["paper_b_targets"] + dump["targets"]["audit_targets"],
        dump["results_dir"],
    )
    m = catalogue.match_targets(items, targets)
    assert m.uncovered == [], "targets missing from workflow/report/catalogue.yaml"
    assert m.ambiguous == {}
    assert m.incomplete == {}
    assert m.unused == []
    covered = sorted(f for e in m.entries for f in e.files)
    assert covered == sorted(set(targets))  # each target exactly once
    assert {e.item.paper for e in m.entries} == {"A", "B", "A+B"}


def test_catalogue_rule_is_the_rule_that_writes_each_file(dump):
    items = catalogue.load(CATALOGUE)
    res = dump["results_dir"]
    targets = catalogue.relative_targets(
        dump["targets"]["paper_a_targets"] + dump["targets"]["paper_b_targets"] + dump["targets"]["audit_targets"], res
    )
    for e in catalogue.match_targets(items, targets).entries:
        for f in e.files:
            assert dump["producers"][f"{res}/{f}"] == [e.item.rule], f


def test_report_targets_keep_provenance_and_add_index_and_gallery(dump):
    res = dump["results_dir"]
    t = dump["targets"]["report_targets"]
    assert f"{res}/provenance.json" in t and f"{res}/index.md" in t
    gallery = [x for x in t if x.endswith(".png")]
    assert 4 <= len(gallery) <= 6
    # every run writes its gallery inside its results, never to the tracked docs/gallery (make gallery does)
    assert all(x.startswith(f"{res}/gallery/") for x in gallery), gallery


def test_readme_table_is_the_catalogue():
    """The README's "What is reproduced" table is generated from the catalogue (and kept in sync)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = catalogue.readme_table(catalogue.load(CATALOGUE))
    assert catalogue.README_BEGIN + "\n" + table + catalogue.README_END in text, (
        "README table out of date: run `.venv/bin/python -m privanomaly.report.catalogue --readme README.md`"
    )


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\w*\n(.*?)```", text, flags=re.S)
    commands = [line.split("#")[0].strip() for line in blocks[0].splitlines() if line.strip()]
    assert commands[:2] == ["make reproduce", "make test"]


def test_readme_gallery_shows_the_configured_figures():
    """The README gallery shows exactly the configured figures, from docs/gallery (small committed PNGs)."""
    import yaml

    from privanomaly.report.gallery import PUBLISHED_DIR, gallery_name

    cfg = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))["report"]
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text[text.index("<!-- gallery:begin -->") : text.index("<!-- gallery:end -->")]
    shown = re.findall(r"\]\((docs/gallery/[^)]+\.png)\)", block)
    expected = [f"{PUBLISHED_DIR}/{gallery_name(f)}" for f in cfg["gallery"]]
    assert shown == expected
    assert 4 <= len(shown) <= 6
    for rel in shown:
        png = ROOT / rel
        assert png.is_file(), f"{rel}: run `make gallery` and commit it"
        assert png.stat().st_size < 200_000, f"{rel} is not small"


# Rules that dominate time or memory on the full data (credit card: 284,807 rows; Scenario 2: 1000 trials per
# cell): they declare their own SLURM resources (profiles/slurm gives the rest mem_mb=4000, runtime=5).
HEAVY_RULES = {
    "prepare",
    "paper_a_select",
    "paper_a_records",
    "paper_a_errors",
    "paper_a_detection",
    "paper_a_growth",
    "paper_b_tune_r",
    "paper_b_scenario1",
    "paper_b_scenario2",
    "paper_b_timing",
}


def test_heavy_rules_declare_memory_and_runtime():
    rules = {r["name"]: r for r in workflow_dump("full")["rules"]}
    assert HEAVY_RULES <= set(rules)
    for name in sorted(HEAVY_RULES):
        res = rules[name]["resources"]
        assert isinstance(res.get("mem_mb"), int) and res["mem_mb"] >= 1000, (name, res)
        assert isinstance(res.get("runtime"), int) and 5 <= res["runtime"] <= 24 * 60, (name, res)


def test_run_blocks_run_in_a_thread_of_snakemake_not_a_new_snakemake_each():
    """The workflow's `run:` rules (table_tex: milliseconds per table) run in Snakemake's own process only when
    the default profile sets force-use-threads: else the local executor starts `python -m snakemake` for each
    job, ~2 s of CPU parsing the workflow again (46 jobs on .test)."""
    import yaml

    run_rules = [f.name for f in sorted((ROOT / "workflow" / "rules").glob("*.smk"))
                 if re.search(r"^\s+run:\s*$", f.read_text(), re.M)]
    profile = yaml.safe_load((ROOT / "profiles" / "default" / "config.yaml").read_text())
    assert run_rules == ["report.smk"] and profile.get("force-use-threads") is True


def test_slurm_profile_plans():
    """`snakemake --profile profiles/slurm -n` plans the whole DAG (no cluster needed for a dry run)."""
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("snakemake")), "--profile", "profiles/slurm", "-n", "--forceall", "--config",
         f"data_mirror={MIRROR}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "This was a dry-run" in out and "report_index" in out
