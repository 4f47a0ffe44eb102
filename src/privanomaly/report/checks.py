"""Parse the verdicts of ``results/paper_a/claims.md`` (PASS/FAIL) and ``results/paper_b/comparison.md``
(MATCH/DIFFERS) so that the index can show, per figure/table, what this run found.

Both files are generated Markdown. A verdict is recognised in
- a heading ending in a bold status: ``## A1 — SP error on anomalies ...: **PASS**`` (id = first word), or
- a table row with a cell whose text starts with a status word (``| Table 1 | r | 1.1 | 1.08 | MATCH | ... |``;
  id = first cell, text = the whole row).
Summary lines (``**6 of 9 claims PASS**``), prose and table headers are ignored. Each verdict comes back as
the record the files were written from (:class:`privanomaly.experiment.Verdict`: id, claim = the heading or
row text, verdict) with its cause (:data:`~privanomaly.experiment.verdict.CAUSES`): for a heading, the line
``- Why it fails - cause: **<cause>**: ...`` under it; for a table row, a cell that is a cause.
"""

from __future__ import annotations

import re

from privanomaly.experiment.verdict import CAUSES, VERDICTS, Verdict, count, count_causes

_STATUS_RE = "|".join(re.escape(s) for s in VERDICTS)
_HEADING = re.compile(rf"^#{{1,6}}\s+(?P<text>.*?)\s*:?\s*\*\*\s*(?P<status>{_STATUS_RE})\b[^*]*\*\*\s*$")
_CELL_STATUS = re.compile(rf"^[*_`\s]*(?P<status>{_STATUS_RE})(?![A-Za-z])")
_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}")
_ID = re.compile(r"^[A-Za-z]+\d+[a-z]?$")  # A1, B12, C3a
_CAUSE_LINE = re.compile(r"^-\s+Why it fails - cause:\s+\*\*(?P<cause>[^*]+)\*\*")


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


def _plain(s: str) -> str:
    """Cell text without Markdown emphasis/code marks (underscores inside words, as in ids, are kept)."""
    s = re.sub(r"[*`]", "", s).strip()
    return s[1:-1].strip() if len(s) > 2 and s[0] == s[-1] == "_" else s


def parse(markdown: str) -> list[Verdict]:
    """Every verdict of a claims/comparison Markdown file, in file order."""
    out: list[Verdict] = []
    for line in markdown.splitlines():
        s = line.strip()
        c = _CAUSE_LINE.match(s)
        if c and out and c.group("cause") in CAUSES:
            out[-1].cause = c.group("cause")
            continue
        m = _HEADING.match(s)
        if m:
            text = _plain(m.group("text"))
            first = text.split()[0] if text.split() else text
            cid = first if _ID.match(first) else text
            out.append(Verdict(cid, text, m.group("status")))
            continue
        if not s.startswith("|") or _SEPARATOR.match(s):
            continue
        cells = _cells(s)
        for i, c in enumerate(cells):
            if i == 0:
                continue  # the first cell names the entry, it is not a verdict
            cm = _CELL_STATUS.match(c)
            if cm:
                cause = next((_plain(x) for x in cells if _plain(x) in CAUSES), "")
                out.append(Verdict(_plain(cells[0]), " | ".join(_plain(x) for x in cells), cm.group("status"),
                                   cause=cause if cm.group("status") in ("FAIL", "DIFFERS") else ""))
                break
    return out


def select(checks: list[Verdict], patterns: list[str] | tuple[str, ...]) -> list[Verdict]:
    """Checks whose id or text matches any pattern (regex search); ``"*"`` selects all."""
    if "*" in patterns:
        return list(checks)
    regs = [re.compile(p) for p in patterns]
    return [c for c in checks if any(r.search(c.id) or r.search(c.claim) for r in regs)]


def by_cause(checks: list[Verdict]) -> str:
    """``"FAIL by cause: 2 the paper's unstated parameters, 1 a finding against the paper"`` (DIFFERS for a
    comparison); ``""`` when nothing failed. A FAIL / DIFFERS that names no cause is counted as "no cause named"."""
    causes = count_causes(checks)
    if not causes:
        return ""
    word = "/".join(s for s in ("FAIL", "DIFFERS") if any(c.verdict == s for c in checks))
    parts = [f"{causes[c]} {c}" for c in CAUSES if causes[c]] + ([f"{causes['']} no cause named"] if causes[""] else [])
    return f"{word} by cause: " + ", ".join(parts)


def summary(checks: list[Verdict], with_ids: bool = True, max_ids: int = 6, causes: bool | None = None) -> str:
    """``"1 PASS, 2 FAIL (A1 FAIL, A2 PASS, A9 FAIL)"`` (ids only when short, like ``A1``); ``"—"`` if none.
    With ``causes`` (default: without ids), the FAILs / DIFFERS counted by cause (:func:`by_cause`) follow in
    brackets."""
    if not checks:
        return "—"
    counts = count(checks)
    head = ", ".join(f"{counts[s]} {s}" for s in VERDICTS if counts[s])
    if (not with_ids if causes is None else causes) and by_cause(checks):
        head += f" ({by_cause(checks)})"
    if not with_ids or len(checks) > max_ids or not all(_ID.match(c.id) for c in checks):
        return head
    return head + " (" + ", ".join(f"{c.id} {c.verdict}" for c in checks) + ")"
