"""Helpers of workflow/rules/paper_b.smk: config cross-checks and the list of final files (no Snakemake here)."""

from __future__ import annotations

from privanomaly.paper_b.scenario1 import readings


def check_config(pb: dict) -> None:
    """Every dataset a paper_b list names must be a key of paper_b.datasets; conventions must be known."""
    known = set(pb["datasets"])
    lists = {
        "paper_b.tables.table1": pb["tables"]["table1"],
        "paper_b.tables.table2": pb["tables"]["table2"],
        "paper_b.scenario1.datasets": pb["scenario1"]["datasets"],
        "paper_b.scenario2.datasets": pb["scenario2"]["datasets"],
        "paper_b.timing.datasets": pb["timing"]["datasets"],
        "paper_b.tuning.space": list(pb["tuning"]["space"]),
    }
    for key, names in lists.items():
        for i, name in enumerate(names):
            if name not in known:
                raise ValueError(
                    f"config {key}[{i}]: {name!r} is not a key of paper_b.datasets (known: {', '.join(sorted(known))})"
                )
    conv = readings()
    for i, name in enumerate(pb["scenario1"]["conventions"]):
        if name not in conv:
            raise ValueError(f"config paper_b.scenario1.conventions[{i}]: unknown {name!r}; known: {', '.join(conv)}")


def targets(out: str, s1: list[str], methods: list[str], s2: list[str]) -> list[str]:
    """Every final file of paper B under ``out`` (= {RESULTS}/paper_b): tables, figures, comparison.md."""
    tab, fig = f"{out}/tables", f"{out}/figures"
    figs = [f"{fig}/fig1_gs_bounds", f"{fig}/fig2_kissing", f"{fig}/r_tuning"]
    figs += [f"{fig}/scenario1_{d}_{m}" for d in s1 for m in methods]
    figs += [f"{fig}/scenario2_{d}" for d in s2]
    tables = ["table1", "table2", "fig1_gs_bounds", "fig2_kissing_counts", "smooth_timing", "comparison"]
    tables += [f"scenario1_{d}_{m}" for d in s1 for m in methods]
    tables += [f"scenario2_pr_{d}" for d in s2] + [f"scenario2_subspaces_{d}" for d in s2]
    return (
        [f"{f}.{ext}" for f in figs for ext in ("png", "pdf")]
        + [f"{tab}/{t}.{ext}" for t in tables for ext in ("csv", "md")]
        + [f"{out}/comparison.md"]
    )
