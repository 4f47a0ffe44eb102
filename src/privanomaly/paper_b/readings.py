"""Readings of paper B: which radius r and which exponential mechanism a run of Tables 1-2 and
Figs. 3-7 uses.

Two of the largest gaps between paper B and our reproduction are choices *we* made: r (we tune it by the
accuracy of eq. 53, the paper prints one value per dataset) and the exponential mechanism (we sample
``∝ exp(eps u / (2 Δu))``, eps-DP; the paper prints ``exp(eps u)``, 2 eps Δu-DP by its Theorem 3). A
*reading* fixes both. Our reading writes the files it always wrote (``results/paper_b/{tables,figures}``);
every other reading writes the same computations under ``results/paper_b/<name>/`` - beside ours, never
replacing them. The path prefix is the Snakemake wildcard ``pb_reading`` ("" for ours).
"""

from __future__ import annotations

from dataclasses import dataclass

R_SOURCES = ("tuned", "paper")  # eq. (53)-tuned on our grid | paper_b.paper_reported.r
EXPONENTS = ("standard", "printed")  # exp(eps u / (2 Δu)), eps-DP | exp(eps u) as printed, 2 eps Δu-DP


@dataclass(frozen=True)
class Reading:
    """One choice of (r, exponent); ``name`` is its directory under results/paper_b ("" = ours)."""

    name: str
    r: str
    exponent: str
    label: str  # what it is, for comparison.md
    short: str  # a few words, for one-line summaries
    suffix: str  # appended to report subcategories and figure titles ("" for ours)

    @property
    def prefix(self) -> str:
        """Path prefix under results/paper_b/ (and the value of the ``pb_reading`` wildcard)."""
        return f"{self.name}/" if self.name else ""

    @property
    def r_prefix(self) -> str:
        """Prefix of the reading whose ``tuning/<dataset>.json`` holds this reading's r."""
        return R_PREFIX[self.r]

    @property
    def r_only(self) -> bool:
        """True if Tables 1-2 and Figs. 3-4 are computed under this reading (they do not use the exponent)."""
        return self.exponent == "standard"


OURS = Reading("", "tuned", "standard", "our r (eq. 53-tuned), our exponent exp(ε u / 2Δu) (ε-DP)", "ours", "")
READINGS: dict[str, Reading] = {
    "ours": OURS,
    "paper_r": Reading(
        "paper_r",
        "paper",
        "standard",
        "the paper's printed r, our exponent exp(ε u / 2Δu) (ε-DP)",
        "paper's r",
        " at the paper's r",
    ),
    "paper_r_printed_exponent": Reading(
        "paper_r_printed_exponent",
        "paper",
        "printed",
        "the paper's printed r, the printed exponent exp(ε u) (2ε-DP by Theorem 3 with Δu ≤ 1)",
        "paper's r + printed exponent (2ε-DP)",
        " at the paper's r, printed exponent (2ε-DP)",
    ),
}
R_PREFIX = {"tuned": "", "paper": READINGS["paper_r"].prefix}
BY_PREFIX = {rd.prefix: rd for rd in READINGS.values()}


def by_prefix(prefix: str) -> Reading:
    """The reading of a ``pb_reading`` wildcard value ("" = ours)."""
    if prefix not in BY_PREFIX:
        raise ValueError(f"unknown paper-B reading prefix {prefix!r}; known: {sorted(BY_PREFIX)}")
    return BY_PREFIX[prefix]


def variants(names: list[str]) -> list[Reading]:
    """The configured variant readings (config ``paper_b.readings``), checked; ours is never listed."""
    out = []
    for i, name in enumerate(names):
        if name not in READINGS or name == "ours":
            known = ", ".join(n for n in READINGS if n != "ours")
            raise ValueError(f"config paper_b.readings[{i}]: unknown reading {name!r}; known: {known}")
        out.append(READINGS[name])
    for rd in out:
        if rd.r != "tuned" and not rd.r_only and READINGS["paper_r"] not in out:
            raise ValueError(
                f"config paper_b.readings: {rd.name!r} takes its Tables 1-2 and Figs. 3-4 (which do not depend on "
                "the exponent) from 'paper_r'; list 'paper_r' too"
            )
    return out


def regex(readings: list[Reading]) -> str:
    """Wildcard constraint matching exactly the prefixes of ``readings`` (may match the empty string)."""
    return "|".join(sorted(rd.prefix for rd in readings))


def with_r(rd: Reading, names: list[str], paper_r: dict[str, float]) -> list[str]:
    """The datasets of ``names`` this reading computes: all for the tuned r, those with a printed r else."""
    return list(names) if rd.r == "tuned" else [n for n in names if paper_r.get(n) is not None]


def at_text(rd: Reading, paper_r: float | None) -> str:
    """What a figure title/caption appends for this reading: "" for ours, else e.g.
    " at the paper's printed r = 0.02, printed exponent exp(ε u) (2ε-DP)"."""
    if rd.r == "tuned" and rd.exponent == "standard":
        return ""
    parts = [f" at the paper's printed r = {paper_r:g}" if rd.r == "paper" else " at our tuned r"]
    if rd.exponent == "printed":
        parts.append("printed exponent exp(ε u) (2ε-DP)")
    return ", ".join(parts)


def r_source_reading(rd: Reading) -> Reading:
    """The standard-exponent reading with the same r (whose Tables 1-2 and Figs. 3-4 ``rd`` shares)."""
    return rd if rd.r_only else next(x for x in READINGS.values() if x.r == rd.r and x.r_only)
