"""privanomaly.report: catalogue loading and matching, verdict parsing, results/index.md, gallery PNGs."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from privanomaly.experiment import Verdict  # noqa: E402
from privanomaly.experiment.verdict import AGAINST, UNSTATED  # noqa: E402
from privanomaly.paper_a import claims as paper_a_claims  # noqa: E402
from privanomaly.paper_b import comparison as paper_b_comparison  # noqa: E402
from privanomaly.paper_b import comparison_page  # noqa: E402
from privanomaly.report import catalogue, checks, gallery, index  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "workflow" / "report" / "catalogue.yaml"


# ---------------------------------------------------------------- catalogue
def test_pattern_regex_wildcards_are_identifiers():
    rx = catalogue.pattern_regex("paper_b/figures/scenario1_{dataset}_{method}.png")
    m = rx.match("paper_b/figures/scenario1_adult_b1_paper.png")
    # the regex is greedy on the first wildcard; both groups are identifiers, never paths
    assert m and m.group("dataset") + "_" + m.group("method") == "adult_b1_paper"
    assert rx.match("paper_b/figures/scenario1_x_y.pdf") is None
    assert rx.match("paper_b/figures/scenario1_a/b_c.png") is None
    assert catalogue.pattern_regex("a/{d}/{d}.csv").match("a/x/y.csv") is None  # repeated wildcard = same value


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "cat.yaml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("items: {}", "list under 'items'"),
        ("items:\n  - {paper: C, item: x, title: t, rule: r, files: [a.png]}", "items[0] ('x').paper: 'C' is not one of"),
        ("items:\n  - {paper: A, item: x, title: t, files: [a.png]}", "items[0] ('x'): 'rule' is a required property"),
        ("items:\n  - {paper: A, item: x, title: t, rule: r, files: []}", "items[0] ('x').files: [] should be non-empty"),
        ("items:\n  - {paper: A, item: x, title: t, rule: r, files: [a.png], colour: red}", "items[0] ('x').colour: unknown key"),
        ('items:\n  - {paper: A, item: x, title: t, rule: r, files: ["{d}.png", b.pdf]}', "same wildcards"),
    ],
)
def test_load_rejects_bad_entries_naming_the_key(tmp_path, text, message):
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        catalogue.load(_write(tmp_path, text))
    assert "cat.yaml" in str(err.value)


def test_match_targets_reports_uncovered_ambiguous_incomplete_and_unused(tmp_path):
    items = catalogue.load(
        _write(
            tmp_path,
            """items:
  - {paper: A, item: Figure 1, title: t, rule: r1, files: [f/one.png, f/one.pdf]}
  - {paper: B, item: Figures 3-4, title: t, rule: r2, files: ["f/s_{dataset}.png", "t/s_{dataset}.csv"]}
  - {paper: B, item: Table 9, title: t, rule: r3, files: [t/nine.csv]}
  - {paper: B, item: Table 2, title: t, rule: r4, files: [f/one.png]}
""",
        )
    )
    targets = ["f/one.png", "f/one.pdf", "f/s_x.png", "t/s_x.csv", "f/s_y.png", "extra.md"]
    m = catalogue.match_targets(items, targets)
    assert [(e.item.rule, e.files) for e in m.entries] == [
        ("r1", ["f/one.png", "f/one.pdf"]),
        ("r2", ["f/s_x.png", "t/s_x.csv"]),
        ("r2", ["f/s_y.png", "t/s_y.csv"]),
        ("r4", ["f/one.png"]),
    ]
    assert m.entries[1].wildcards == {"dataset": "x"}
    assert m.uncovered == ["extra.md"]
    assert m.incomplete == {"f/s_y.png": ["t/s_y.csv"]}
    assert m.unused == ["B Table 9: t/nine.csv"]
    assert m.ambiguous == {"f/one.png": ["A Figure 1: f/one.png", "B Table 2: f/one.png"]}


def test_relative_targets():
    assert catalogue.relative_targets(["results/a/b.csv", "docs/x.png"], "results/") == ["a/b.csv", "docs/x.png"]


def test_readme_table_rows_follow_the_catalogue():
    items = catalogue.load(CATALOGUE)
    table = catalogue.readme_table(items).splitlines()
    assert len(table) == 2 + len(items)
    assert table[2] == (
        "| A | Figure 1 | DP trade-off for a binary query; minimum worst-case error 1/(1+e^ε) | "
        "`paper_a/figures/fig1_dp_tradeoff.png` (+ .pdf) | `paper_a_fig1` |"
    )
    claims_row = next(r for r in table if "`paper_a_claims`" in r)
    assert "`paper_a/claims.md`, `paper_a/tables/claims.csv`, `paper_a/tables/claims.md`" in claims_row


def test_update_readme_rewrites_only_between_markers(tmp_path):
    items = catalogue.load(CATALOGUE)[:2]
    readme = tmp_path / "README.md"
    readme.write_text(f"top\n{catalogue.README_BEGIN}\nold\n{catalogue.README_END}\nbottom\n", encoding="utf-8")
    assert catalogue.update_readme(readme, items) is True
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("top\n") and text.endswith(f"{catalogue.README_END}\nbottom\n")
    assert "old" not in text and "`paper_a_fig2`" in text
    assert catalogue.update_readme(readme, items) is False
    readme.write_text("no markers", encoding="utf-8")
    with pytest.raises(ValueError, match="markers"):
        catalogue.update_readme(readme, items)


def test_update_readme_leaves_the_old_readme_whole_when_writing_fails(tmp_path, monkeypatch):
    """The README is written through privanomaly.io (temporary file + rename): a write that dies half-way
    leaves the previous README, never half of the new one."""
    import pathlib

    items = catalogue.load(CATALOGUE)[:2]
    readme = tmp_path / "README.md"
    before = f"top\n{catalogue.README_BEGIN}\nold\n{catalogue.README_END}\nbottom\n"
    readme.write_text(before, encoding="utf-8")
    real = pathlib.Path.write_text

    def dies_half_way(self, data, *args, **kwargs):
        real(self, data[: len(data) // 2], *args, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(pathlib.Path, "write_text", dies_half_way)
    with pytest.raises(OSError, match="disk full"):
        catalogue.update_readme(readme, items)
    monkeypatch.undo()
    assert readme.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]  # no temporary left behind


# ---------------------------------------------------------------- verdicts
def _paper_a_claims_md() -> str:
    """claims.md exactly as rule paper_a_claims writes it (its own formatter), with three verdicts."""
    R = Verdict.check
    results = [
        R("A1", "SP error on anomalies is zero for practical purposes", "t", "e", False, "holds at 3 of 8 points",
          UNSTATED),
        R("A5", "Larger k protects more records (Fig 3)", "t", "e", True),
        R("A9", "Sampled trials agree with the exact closed-form errors", "t", "e", None),
    ]
    return paper_a_claims.to_markdown(results, "# Paper A\n\nheader text with PASS in prose")


def test_parse_paper_a_claims_from_its_own_formatter():
    got = checks.parse(_paper_a_claims_md())
    assert [(c.id, c.verdict) for c in got] == [("A1", "FAIL"), ("A5", "PASS"), ("A9", "N/A")]
    assert got[1].claim == "A5 — Larger k protects more records (Fig 3)"
    assert [c.cause for c in got] == [UNSTATED, "", ""]  # a FAIL's cause line is read back; a PASS has none
    assert "- Why it fails - cause: **the paper's unstated parameters**: holds at 3 of 8 points" in _paper_a_claims_md()


COMPARISON_MD = """# Paper B: the paper's numbers next to ours

**3 MATCH, 2 DIFFERS**

| item | quantity | paper | ours | verdict | reason |
|---|---|---|---|---|---|
| Table 1 | r, Synthetic 1 | 1.1 | 1.08 | **MATCH** | within the grid step |
| Table 2 | N, Adult 2 | 379 | 379 | MATCH | |
| Fig. 3-4 | σ_Global/σ_Smooth | 10-30 | 2.1 | DIFFERS (printed constants) | GS/(5·S) ≤ 2.6 |
| Fig 5 | precision decreases as h grows | yes | yes | `MATCH` | |
| Section 4.1 | GS_2 = 5k+1 | 16 | 19 | DIFFERS | kissing bound |
| Note | MATCHING is not a verdict | x | y | z | |
"""


def test_parse_comparison_table_rows():
    got = checks.parse(COMPARISON_MD)
    assert [(c.id, c.verdict) for c in got] == [
        ("Table 1", "MATCH"),
        ("Table 2", "MATCH"),
        ("Fig. 3-4", "DIFFERS"),
        ("Fig 5", "MATCH"),
        ("Section 4.1", "DIFFERS"),
    ]
    assert "within the grid step" in got[0].claim


def test_select_and_summary():
    got = checks.parse(COMPARISON_MD)
    assert [c.id for c in checks.select(got, ["Table 1"])] == ["Table 1"]
    assert [c.id for c in checks.select(got, [r"Fig(ure)?s?\.? ?[34]\b"])] == ["Fig. 3-4"]
    assert len(checks.select(got, ["*"])) == 5
    assert checks.summary(got) == "3 MATCH, 2 DIFFERS"  # long ids: counts only
    a = checks.parse(_paper_a_claims_md())
    assert checks.summary(a) == "1 PASS, 1 FAIL, 1 N/A (A1 FAIL, A5 PASS, A9 N/A)"
    assert checks.summary(checks.select(a, ["^A5$"])) == "1 PASS (A5 PASS)"
    assert checks.summary([]) == "—"


# ---------------------------------------------------------------- index
def _paper_b_comparison_md() -> str:
    """comparison.md exactly as rule paper_b_comparison writes it (its own row ids and formatter)."""
    import pandas as pd

    row = Verdict.compare
    rows = paper_b_comparison.frame(
        [
            row("table1.synthetic_b1.N", "Table 1: N of Synthetic 1", "50", "50", True),
            row("table1.synthetic_b1.r", "Table 1: r of Synthetic 1", "1.1", "0.9", False, "grid | seed", UNSTATED),
            row("fig1.growth", "Fig. 1: the upper bound grows exponentially with d", "yes", "yes", True),
            row("s1.synthetic_b1.ratio", "Synthetic 1: sigma_Global approx. 10-30x sigma_Smooth", "10-30", "2.1", False,
                "GS/5", AGAINST),
            row("s1.adult_b1.ratio", "Adult 1: sigma_Global approx. 10-30x sigma_Smooth", "10-30", "8", False),
            row("s2.synthetic_b2.recall", "Synthetic 2: smaller h achieved larger recall", "yes", "16/16", True),
            row("b7.feasible", "Algorithm 1 is exponential", "N <= 500", "cut at N = 379", None),
        ]
    )
    return comparison_page.render_markdown(rows, pd.DataFrame({"convention": ["printed"], "both_hold": [False]}),
                                              ["a note that says MATCH in prose"])


def test_parse_paper_b_comparison_from_its_own_formatter():
    got = checks.parse(_paper_b_comparison_md())
    assert [(c.id, c.verdict) for c in got] == [
        ("table1.synthetic_b1.N", "MATCH"),
        ("table1.synthetic_b1.r", "DIFFERS"),
        ("fig1.growth", "MATCH"),
        ("s1.synthetic_b1.ratio", "DIFFERS"),
        ("s1.adult_b1.ratio", "DIFFERS"),
        ("s2.synthetic_b2.recall", "MATCH"),
        ("b7.feasible", "N/A"),
    ]
    assert "grid \\| seed" in got[1].claim or "grid" in got[1].claim


def test_index_one_line_per_entry_with_verdicts():
    items = catalogue.load(CATALOGUE)
    targets = [f for it in items for f in it.files if "{" not in f]
    targets += [
        f.format(dataset=d, method=m)
        for it in items
        for f in it.files
        if "{" in f
        for d in (["synthetic_b1", "adult_b1"] if "scenario1" in f else ["synthetic_b2"])
        for m in ("paper",)
    ]
    m = catalogue.match_targets(items, targets)
    assert not m.uncovered and not m.incomplete and not m.ambiguous
    text = index.render(
        [e.as_dict() for e in m.entries],
        {"A": checks.parse(_paper_a_claims_md()), "B": checks.parse(_paper_b_comparison_md())},
        {"A": "paper_a/claims.md", "B": "paper_b/comparison.md"},
        dataset_names={"synthetic_b1": "Synthetic 1", "adult_b1": "Adult 1"},
        uncovered=["paper_b/extra.csv"],
        unavailable={"creditcard": "not in mirror"},
        your_datasets={"A": ["mydata"], "B": []},
    )
    assert ("- Your datasets in paper A's figures and tables (our numbers, no paper verdict) "
            "(see [`paper_a/claims.md`](paper_a/claims.md)): `mydata`") in text
    assert "paper B's figures" not in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| Paper")]
    # scenario1 figures and tables (ours and at the paper's r): two datasets each
    assert len(rows) == len(m.entries) == len(items) + sum("scenario1_{dataset}" in it.files[0] for it in items)
    fig3 = next(r for r in rows if "`paper_a_fig3`" in r)
    assert fig3.startswith("| A | Figure 3 |") and fig3.endswith("| 1 PASS (A5 PASS) |")
    assert "[`paper_a/figures/fig3_privacy_vs_k.png`](paper_a/figures/fig3_privacy_vs_k.png) (+ [.pdf]" in fig3
    assert next(r for r in rows if "`paper_a_fig1`" in r).endswith("| — |")
    t1 = next(r for r in rows if r.startswith("| B | Table 1 |"))
    assert t1.endswith("| 1 MATCH, 1 DIFFERS |")
    tuning = next(r for r in rows if "`paper_b_plot_tuning`" in r)
    assert tuning.endswith("| 1 DIFFERS |")  # only the r rows
    s1 = [r for r in rows if "`paper_b_plot_scenario1`" in r and "paper_r/" not in r]
    assert "Figures 3-4 — Synthetic 1, paper's Algorithm 2" in s1[1] or "Figures 3-4 — Synthetic 1" in s1[0]
    # each dataset's line carries its own verdicts only
    assert all(r.endswith("| 1 DIFFERS |") for r in s1) and len(s1) == 2
    s2 = next(r for r in rows if "`paper_b_plot_scenario2`" in r)
    assert s2.endswith("| 1 MATCH |")
    assert next(r for r in rows if "`paper_b_timing_table`" in r).endswith("| 1 N/A |")
    claims_row = next(r for r in rows if "`paper_a_claims`" in r)
    assert claims_row.endswith("| 1 PASS, 1 FAIL, 1 N/A (A1 FAIL, A5 PASS, A9 N/A) |")
    assert next(r for r in rows if "`paper_b_comparison`" in r).endswith("| 3 MATCH, 3 DIFFERS, 1 N/A |")
    # the one-line summary counts every DIFFERS / FAIL by its cause (a row naming none is said to name none)
    assert ("3 MATCH, 3 DIFFERS, 1 N/A (DIFFERS by cause: 1 the paper's unstated parameters, 1 a finding against the "
            "paper, 1 no cause named) in [`paper_b/comparison.md`]") in text
    assert ("1 PASS, 1 FAIL, 1 N/A (FAIL by cause: 1 the paper's unstated parameters) in [`paper_a/claims.md`]"
            in text), text
    assert "`creditcard`: not in mirror" in text
    assert text.rstrip().endswith("- [`paper_b/extra.csv`](paper_b/extra.csv)")
    assert text.count("`paper_a_fig1`") == 1


def test_index_counts_the_readings_of_comparison_md_apart():
    """comparison.md lists each claim once under our choices and again under each of the paper's own readings
    (ids ``paper_r/...``): the index's counts for the file must be those of its headline, the readings apart."""
    from privanomaly.experiment.verdict import Verdict

    b = [Verdict("table1.s.r", "r", "MATCH"), Verdict("s1.s.ratio", "ratio", "DIFFERS"),
         Verdict("paper_r/table1.s.r", "r", "DIFFERS"), Verdict("paper_r/s1.s.ratio", "ratio", "DIFFERS")]
    text = index.render([], {"B": b}, {"B": "paper_b/comparison.md"})
    assert ("1 MATCH, 1 DIFFERS (DIFFERS by cause: 1 no cause named) (+ under the paper's own readings: 2 DIFFERS) "
            "in [`paper_b/comparison.md`]" in text), text


def test_checks_for_substitutes_wildcards():
    it = next(i for i in catalogue.load(CATALOGUE) if i.rule == "paper_b_plot_scenario2")
    assert it.checks_for({"dataset": "adult_b2"}) == [r"^s2\.adult_b2\."]


# ---------------------------------------------------------------- gallery
def _figure(path: Path, w_in: float = 8, h_in: float = 4, dpi: int = 100) -> None:
    fig, ax = plt.subplots(figsize=(w_in, h_in), dpi=dpi)
    ax.plot([0, 1, 2], [1, 0, 1], label="line")
    ax.set_xlabel("ε")
    ax.legend()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def test_gallery_thumbnail_size_and_bytes_stable(tmp_path):
    src = tmp_path / "fig.png"
    _figure(src)  # 800 x 400 px
    a, b = tmp_path / "a" / "t.png", tmp_path / "b" / "t.png"
    assert gallery.thumbnail(src, a, 320) == (320, 160)
    assert gallery.thumbnail(src, b, 320) == (320, 160)
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    assert a.stat().st_size < src.stat().st_size
    with Image.open(a) as im:
        assert im.size == (320, 160) and im.format == "PNG"
    # never enlarged
    assert gallery.thumbnail(src, tmp_path / "big.png", 2000) == (800, 400)
    assert not list((tmp_path / "a").glob(".*tmp*"))  # written atomically, nothing left behind


def test_gallery_names_and_errors(tmp_path):
    assert gallery.gallery_name("paper_a/figures/fig2_accuracy_privacy.png") == "paper_a_fig2_accuracy_privacy.png"
    assert gallery.gallery_name("paper_b/figures/scenario2_synthetic_b2.png") == "paper_b_scenario2_synthetic_b2.png"
    with pytest.raises(ValueError, match="not a .png"):
        gallery.gallery_name("paper_a/figures/fig1.pdf")
    with pytest.raises(ValueError, match="width"):
        gallery.thumbnail(tmp_path / "x.png", tmp_path / "y.png", 4)


def test_index_states_the_privacy_audits_outcome():
    """The audit has no claims file; its line and headline say this run's outcome (was: "—", as if the audit had
    none), naming every mechanism that did not pass and every control that was not caught."""
    results = ["pass", "pass", "unproven (no violation in these worlds)", "FAIL", "caught", "NOT CAUGHT"]
    kinds = ["mechanism"] * 4 + ["negative control"] * 2
    names = ["sp", "optimal_dp", "gaussian_gs_lower", "toy", "sp_L_plus_1", "broken"]
    said = index.audit_summary(results, kinds, names)
    assert said == ("mechanisms: 2 pass, 1 unproven (gaussian_gs_lower), 1 FAIL (toy); "
                    "negative controls: 1 caught, 1 NOT CAUGHT (broken)")
    assert index.audit_summary(["pass", "caught"], ["mechanism", "negative control"], ["sp", "c"]) == (
        "mechanisms: 1 pass; negative controls: 1 caught")
    entry = {"paper": "A+B", "item": "Privacy audit", "title": "t", "files": ["audit/privacy_audit.csv"],
             "rule": "privacy_audit", "checks": []}
    text = index.render([entry], {}, {}, outcomes={"A+B": said})
    assert f"- Paper A+B (privacy audit of every registered mechanism of both papers (privanomaly.audit)): {said}" in text
    assert text.rstrip().splitlines()[-1].endswith(f"| `privacy_audit` | {said} |")
