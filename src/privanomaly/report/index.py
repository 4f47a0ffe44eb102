"""``results/index.md``: one line per figure/table of both papers - item, file, rule, verdicts of this run.

Built from the catalogue entries matched against the pipelines' targets
(:func:`privanomaly.report.catalogue.match_targets`) and the verdicts parsed from the two claims files
(:mod:`privanomaly.report.checks`).
"""

from __future__ import annotations

from pathlib import Path

from privanomaly.experiment.verdict import Verdict
from privanomaly.report import checks as checks_mod

PAPER_NAMES = {
    "A": "Asif, Papakonstantinou, Vaidya, *How to Accurately and Privately Identify Anomalies* (CCS 2019)",
    "B": "Okada, Fukuchi, Kakizaki, Sakuma, *Differentially Private Analysis of Outliers*",
    "A+B": "privacy audit of every registered mechanism of both papers (privanomaly.audit)",
}


def _files_cell(files: list[str]) -> str:
    first = files[0]
    stem = str(Path(first).with_suffix(""))
    same = [Path(f).suffix for f in files[1:] if str(Path(f).with_suffix("")) == stem]
    other = [f for f in files[1:] if str(Path(f).with_suffix("")) != stem]
    cell = f"[`{first}`]({first})"
    if same:
        cell += " (+ " + ", ".join(f"[{ext}]({stem}{ext})" for ext in same) + ")"
    if other:
        cell += ", " + ", ".join(f"[`{f}`]({f})" for f in other)
    return cell


def _item_cell(entry: dict, names: dict[str, str]) -> str:
    wc = entry.get("wildcards") or {}
    label = entry["item"]
    extra = []
    if "dataset" in wc:
        extra.append(names.get(wc["dataset"], wc["dataset"]))
    if "method" in wc:
        extra.append({"paper": "paper's Algorithm 2", "fast": "fast bound"}.get(wc["method"], wc["method"]))
    if extra:
        label += " — " + ", ".join(extra)
    return label


def _verdicts_cell(checks: list[Verdict], with_ids: bool = True, outcome: str | None = None) -> str:
    """The summary of ``checks`` with the rows of the paper's own readings (ids ``<reading>/<id>``, paper B's
    comparison.md: the same claims recomputed at the paper's r or exponent) counted apart, so a claim is not counted
    once per reading and the counts agree with comparison.md's own headline (the FAILs / DIFFERS of our reading
    counted by cause when ``with_ids`` is off: :func:`privanomaly.report.checks.by_cause`); without checks,
    ``outcome`` when given (a part with no claims file: the privacy audit)."""
    if not checks and outcome is not None:
        return outcome
    ours = [c for c in checks if "/" not in c.id]
    readings = [c for c in checks if "/" in c.id]
    if not ours or not readings:
        return checks_mod.summary(checks, with_ids=with_ids)
    return (f"{checks_mod.summary(ours, with_ids=with_ids)} (+ under the paper's own readings: "
            f"{checks_mod.summary(readings, with_ids=False, causes=False)})")


def audit_summary(results: list[str], kinds: list[str], names: list[str]) -> str:
    """This run's outcome of the privacy audit (``audit/privacy_audit.csv``: columns ``kind``, ``result``,
    ``mechanism``), e.g. ``"mechanisms: 12 pass, 1 unproven (gaussian_gs_lower); negative controls: 11 caught"``;
    an outcome other than pass / caught names its rows."""
    parts = []
    for kind, label, good in (("mechanism", "mechanisms", "pass"), ("negative control", "negative controls", "caught")):
        rows = [(r.split(" (", 1)[0], n) for r, k, n in zip(results, kinds, names) if k == kind]
        if not rows:
            continue
        outcomes = list(dict.fromkeys(r for r, _ in rows))
        cells = []
        for o in sorted(outcomes, key=lambda o: o != good):
            who = [n for r, n in rows if r == o]
            cells.append(f"{len(who)} {o}" + ("" if o == good else f" ({', '.join(who)})"))
        parts.append(f"{label}: {', '.join(cells)}")
    return "; ".join(parts) or "—"


def _summary_lines(entries: list[dict], verdicts: dict[str, list[Verdict]], sources: dict[str, str],
                   unavailable: dict[str, str] | None, your_datasets: dict[str, list[str]] | None,
                   outcomes: dict[str, str] | None) -> list[str]:
    """The bullets above the table: each paper's verdicts and claims file, the user's datasets, the datasets
    not in this run (the arguments of :func:`render`)."""
    lines = []
    for paper in sorted({e["paper"] for e in entries} | set(verdicts)):
        v = verdicts.get(paper, [])
        src = sources.get(paper)
        where = f" in [`{src}`]({src})" if src else ""
        said = _verdicts_cell(v, with_ids=False, outcome=(outcomes or {}).get(paper))
        lines.append(f"- Paper {paper} ({PAPER_NAMES.get(paper, paper)}): {said}{where}")
    for paper, yours in sorted((your_datasets or {}).items()):
        if yours:
            src = sources.get(paper)
            where = f" (see [`{src}`]({src}))" if src else ""
            lines.append(f"- Your datasets in paper {paper}'s figures and tables (our numbers, no paper verdict){where}: "
                         + ", ".join(f"`{n}`" for n in yours))
    if unavailable:
        lines.append("- Not in this run (data unavailable): " + "; ".join(f"`{n}`: {w}" for n, w in unavailable.items()))
    return lines


def render(
    entries: list[dict],
    verdicts: dict[str, list[Verdict]],
    sources: dict[str, str],
    dataset_names: dict[str, str] | None = None,
    uncovered: list[str] | None = None,
    unavailable: dict[str, str] | None = None,
    your_datasets: dict[str, list[str]] | None = None,
    sentences: list[str] | None = None,
    outcomes: dict[str, str] | None = None,
) -> str:
    """The Markdown of results/index.md.

    ``entries``: :meth:`Entry.as_dict` of every catalogue entry, in catalogue order; ``verdicts``: paper ->
    parsed checks of its claims file; ``sources``: paper -> that file's path relative to results/;
    ``dataset_names``: dataset -> the paper's name for it; ``uncovered``: targets the catalogue misses
    (listed, never dropped); ``unavailable``: dataset -> why it is not in this run; ``your_datasets``: paper ->
    the run's datasets that paper never used (reported with our numbers and no paper verdict); ``sentences``:
    one per result in words (:mod:`privanomaly.report.sentences`), listed before the table; ``outcomes``: paper ->
    this run's outcome where it has no claims file (the privacy audit, "A+B": :func:`audit_summary`).
    """
    from privanomaly.report import sentences as sentences_mod

    names = dataset_names or {}
    lines = [
        "# Index of the reproduced figures and tables",
        "",
        "Generated by rule `report_index` from `workflow/report/catalogue.yaml` (item → file → rule) and the "
        "verdicts of this run's claims files; paths are relative to this file. PASS/FAIL: paper A's claims "
        "checked on our numbers; MATCH/DIFFERS: paper B's printed numbers and claims against ours.",
        "",
    ]
    lines += _summary_lines(entries, verdicts, sources, unavailable, your_datasets, outcomes)
    words = sentences_mod.markdown(list(sentences or []))
    if words:
        lines += ["", words.rstrip("\n")]
    lines += ["", "| Paper | Item | What | File | Rule | This run |", "|---|---|---|---|---|---|"]
    for e in entries:
        v = checks_mod.select(verdicts.get(e["paper"], []), e.get("checks", []))
        title = e["title"].replace("|", "\\|")
        said = _verdicts_cell(v, outcome=(outcomes or {}).get(e["paper"]))
        lines.append(
            f"| {e['paper']} | {_item_cell(e, names)} | {title} | {_files_cell(e['files'])} | `{e['rule']}` | "
            f"{said.replace('|', '/')} |"
        )
    if uncovered:
        lines += ["", "Outputs not in the catalogue (add them to `workflow/report/catalogue.yaml`):", ""]
        lines += [f"- [`{t}`]({t})" for t in uncovered]
    return "\n".join(lines) + "\n"
