"""The one verdict record of both papers: a claim, what was expected, what this run measured, the verdict and
why.

- Paper A's claims (``results/paper_a/claims.md``) are *checks* of a qualitative claim on our numbers:
  PASS / FAIL (:meth:`Verdict.check`).
- Paper B's rows (``results/paper_b/comparison.md``) *compare* a printed number or claim with ours:
  MATCH / DIFFERS (:meth:`Verdict.compare`).
- Either is N/A when the run has nothing to decide it on.

The claims files, the index (which parses the verdicts back out of the Markdown,
:mod:`privanomaly.report.checks`) and the report all carry this record; each file keeps its own column names
(``to_frame(records, columns)``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pandas as pd

PASS, FAIL, MATCH, DIFFERS, NA = "PASS", "FAIL", "MATCH", "DIFFERS", "N/A"
VERDICTS = (PASS, FAIL, MATCH, DIFFERS, NA)
# Why a FAIL / DIFFERS: the paper leaves a parameter open that decides it, a choice of our evaluation decides it, or
# the numbers go against the paper whatever is chosen. Every FAIL / DIFFERS names one (``Verdict.cause``).
UNSTATED, CHOICE, AGAINST = "the paper's unstated parameters", "an evaluation choice", "a finding against the paper"
CAUSES = (UNSTATED, CHOICE, AGAINST)
_OUTCOME = {PASS: True, MATCH: True, FAIL: False, DIFFERS: False, NA: None}


@dataclass
class Verdict:
    """One claim and its verdict.

    ``id``: short id (``A1``, ``s2.synthetic_b2.precision``); ``claim``: the claim in words; ``verdict``: one
    of :data:`VERDICTS`; ``expected``: what decides it (paper A: the test; paper B: the paper's printed value
    or claim); ``evidence``: what this run measured; ``reason``: why it differs or cannot be decided (for a FAIL /
    DIFFERS one sentence with the number that shows it); ``cause``: one of :data:`CAUSES` for a FAIL / DIFFERS.
    """

    id: str
    claim: str
    verdict: str
    expected: str = ""
    evidence: str = ""
    reason: str = ""
    cause: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r}: expected one of {', '.join(VERDICTS)}")
        if self.cause and self.cause not in CAUSES:
            raise ValueError(f"cause {self.cause!r}: expected one of {', '.join(CAUSES)}")

    @property
    def passed(self) -> bool | None:
        """True for PASS/MATCH, False for FAIL/DIFFERS, None for N/A."""
        return _OUTCOME[self.verdict]

    @classmethod
    def check(cls, id: str, claim: str, test: str, evidence: str, passed: bool | None, reason: str = "",
              cause: str = "") -> Verdict:
        """A claim checked on our numbers: PASS / FAIL, N/A when ``passed`` is None (no data); ``reason`` (why it
        fails) and ``cause`` are kept for a FAIL only."""
        return cls(id, claim, NA if passed is None else (PASS if passed else FAIL), test, evidence,
                   *((reason, cause) if passed is False else ("", "")))

    @classmethod
    def compare(cls, id: str, claim: str, paper: str, ours: str, ok: bool | None, reason: str = "",
                cause: str = "") -> Verdict:
        """A printed number or claim against ours: MATCH / DIFFERS, N/A when ``ok`` is None (not decidable);
        ``cause`` is kept for a DIFFERS only."""
        return cls(id, claim, NA if ok is None else (MATCH if ok else DIFFERS), paper, ours, reason,
                   cause if ok is False else "")


def number(v: float | None, integers: bool = False) -> str:
    """A measured number as the claims files print it: 3 significant digits, "—" when missing (None or NaN);
    with ``integers``, whole numbers in full (paper B's counts: 379, not 379's ``.3g``)."""
    if v is None or v != v:
        return "—"
    if integers and float(v).is_integer():
        return f"{int(v)}"
    return f"{v:.3g}"


def to_frame(records: list[Verdict], columns: dict[str, str], **extra: str) -> pd.DataFrame:
    """One row per record; ``columns`` maps record fields to the file's column names, in the file's column
    order; ``extra``: constant columns appended (e.g. ``scope="paper datasets"``)."""
    rows = [{col: getattr(r, field) for field, col in columns.items()} | extra for r in records]
    return pd.DataFrame(rows, columns=[*columns.values(), *extra])


def count(records: list[Verdict]) -> Counter:
    """How many records carry each verdict."""
    return Counter(r.verdict for r in records)


def count_causes(records: list[Verdict]) -> Counter:
    """How many FAIL / DIFFERS records carry each cause ("" = none named)."""
    return Counter(r.cause for r in records if r.passed is False)
