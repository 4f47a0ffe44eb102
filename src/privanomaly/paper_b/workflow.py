"""Helpers of workflow/rules/paper_b.smk: config cross-checks and the list of final files (no Snakemake here)."""

from __future__ import annotations

from privanomaly.outliers import CONVENTIONS
from privanomaly.paper_b import readings as _readings


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
    _readings.variants(list(pb.get("readings", [])))
    for i, name in enumerate(pb["scenario1"]["conventions"]):
        if name not in CONVENTIONS:
            raise ValueError(
                f"config paper_b.scenario1.conventions[{i}]: unknown {name!r}; known: {', '.join(CONVENTIONS)}"
            )


def targets(
    out: str,
    s1: list[str],
    methods: list[str],
    s2: list[str],
    variants: list[_readings.Reading] = (),
    paper_r: dict[str, float] | None = None,
    table_sets: list[str] = (),
    variant_methods: list[str] | None = None,
) -> list[str]:
    """Every final file of paper B under ``out`` (= {RESULTS}/paper_b): tables, figures, comparison.md.

    ``variants``: the other readings (issue 18), each written under ``out/<name>/`` for the datasets with a
    printed r (``paper_r``: config paper_b.paper_reported.r); Tables 1-2 and Figs. 3-4 only for readings that
    compute them (:attr:`Reading.r_only`), Figs. 3-4 with the smooth bounds ``variant_methods`` (default
    ``methods``), and Tables 1-2 only if one of ``table_sets`` has a printed r.
    """
    tab, fig = f"{out}/tables", f"{out}/figures"
    figs = [f"{fig}/fig1_gs_bounds", f"{fig}/fig2_kissing", f"{fig}/r_tuning"]
    figs += [f"{fig}/scenario1_{d}_{m}" for d in s1 for m in methods]
    figs += [f"{fig}/scenario2_{d}" for d in s2]
    tables = ["table1", "table2", "fig1_gs_bounds", "fig2_kissing_counts", "smooth_timing", "comparison"]
    tables += [f"scenario1_{d}_{m}" for d in s1 for m in methods]
    tables += [f"scenario2_pr_{d}" for d in s2] + [f"scenario2_subspaces_{d}" for d in s2]
    files = (
        [f"{f}.{ext}" for f in figs for ext in ("png", "pdf")]
        + [f"{tab}/{t}.{ext}" for t in tables for ext in ("csv", "md")]
        + [f"{out}/comparison.md"]
    )
    files += [f"{tab}/comparison_readings.{ext}" for ext in ("csv", "md")]
    for rd in variants:
        files += variant_targets(out, rd, s1, methods if variant_methods is None else variant_methods, s2,
                                 paper_r or {}, table_sets)
    return files


def variant_targets(
    out: str,
    rd: _readings.Reading,
    s1: list[str],
    methods: list[str],
    s2: list[str],
    paper_r: dict[str, float],
    table_sets: list[str],
) -> list[str]:
    """The files of one variant reading: ours' names under ``out/<reading>/``, datasets with a printed r."""
    base = f"{out}/{rd.prefix}"
    with_r = lambda names: [d for d in names if paper_r.get(d) is not None]  # noqa: E731
    figs = [f"scenario2_{d}" for d in with_r(s2)]
    tables = [f"scenario2_pr_{d}" for d in with_r(s2)] + [f"scenario2_subspaces_{d}" for d in with_r(s2)]
    if rd.r_only:
        figs += [f"scenario1_{d}_{m}" for d in with_r(s1) for m in methods]
        tables += [f"scenario1_{d}_{m}" for d in with_r(s1) for m in methods]
        tables += ["table1", "table2"] if with_r(table_sets) else []
    return [f"{base}figures/{f}.{ext}" for f in figs for ext in ("png", "pdf")] + [
        f"{base}tables/{t}.{ext}" for t in tables for ext in ("csv", "md")
    ]


def reading_inputs(
    out: str,
    rd: _readings.Reading,
    s1: list[str],
    methods: list[str],
    s2: list[str],
    table_sets: list[str],
    paper_r: dict[str, float],
) -> dict:
    """The tables rule ``paper_b_comparison`` reads for one reading: {tables: [table1, table2] (or [] when no
    table dataset has the reading's r), choices: {dataset: json},
    scenario1: [csv], scenario2: {dataset: csv}, subspaces: {dataset: csv}}. Tables 1-2 and Figs. 3-4 come
    from the reading with the same r and our exponent (they do not use the exponent)."""
    src = _readings.r_source_reading(rd)
    keep = lambda names: _readings.with_r(rd, names, paper_r)  # noqa: E731
    tab, r_tab = f"{out}/{rd.prefix}tables", f"{out}/{src.prefix}tables"
    return {
        "tables": [f"{r_tab}/table1.csv", f"{r_tab}/table2.csv"] if keep(table_sets) else [],
        "choices": {d: f"{out}/{rd.r_prefix}tuning/{d}.json" for d in keep(table_sets)},
        "scenario1": [f"{r_tab}/scenario1_{d}_{m}.csv" for d in keep(s1) for m in methods],
        "scenario2": {d: f"{tab}/scenario2_pr_{d}.csv" for d in keep(s2)},
        "subspaces": {d: f"{tab}/scenario2_subspaces_{d}.csv" for d in keep(s2)},
    }


def flat_files(inputs: dict) -> list[str]:
    """Every path of a :func:`reading_inputs` dict (for the rule's declared input), in a stable order."""
    out: list[str] = []
    for v in inputs.values():
        vals = v.values() if isinstance(v, dict) else (v if isinstance(v, list) else [v])
        out += [x for x in vals if x not in out]
    return out
