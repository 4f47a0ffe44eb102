"""Paper B's comparison built from its input tables (rule ``paper_b_comparison``): our rows, every reading's
claims (:mod:`privanomaly.paper_b.readings`) and the Markdown page (:mod:`privanomaly.paper_b.comparison_page`), from the verdict
functions of :mod:`privanomaly.paper_b.comparison`.

The files are read through the callables given (``read(path)`` for a CSV, ``read_json(path)``), so the rule's
script decides how a file is read and checked; nothing here knows Snakemake.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from privanomaly import experiment
from privanomaly.paper_b import comparison as cmp
from privanomaly.paper_b import comparison_page as page


@dataclass(frozen=True)
class Comparison:
    """What the rule writes: ``table`` (comparison.csv / tables/comparison.md), ``readings`` (the long table of
    every reading's claims) and ``markdown`` (comparison.md); ``counts`` of the verdicts for the log."""

    table: pd.DataFrame
    readings: pd.DataFrame
    markdown: str
    counts: dict[str, dict[str, int]]


def read_choices(files: Mapping[str, Any], read_json: Callable[[str], Any]) -> dict[str, dict]:
    """The r records of a reading's table datasets; ours with our accuracy at the paper's printed r, read from
    the paper's-r record (:func:`privanomaly.paper_b.plan.reading_inputs`: ``at_paper_r``)."""
    choices = {ds: read_json(f) for ds, f in files["choices"].items()}
    for ds, f in files.get("at_paper_r", {}).items():
        if ds in choices:
            choices[ds] = {**choices[ds], "accuracy_at_paper_r": read_json(f)["accuracy"]}
    return choices


def load_reading(files: Mapping[str, Any], read: Callable[[str], pd.DataFrame],
                 read_json: Callable[[str], Any]) -> dict[str, Any]:
    """The tables of one reading (:func:`privanomaly.paper_b.plan.reading_inputs`)."""
    tabs = experiment.concat(files["tables"], reader=read) if files["tables"] else None
    return {
        "tables": tabs,
        "choices": read_choices(files, read_json),
        "s1": experiment.concat(files["scenario1"], reader=read) if files["scenario1"] else None,
        "sweeps": {ds: read(f) for ds, f in files["scenario2"].items()},
        "subspaces": {ds: read(f) for ds, f in files["subspaces"].items()},
    }


def build(inp: Any, p: Any, read: Callable[[str], pd.DataFrame], read_json: Callable[[str], Any]) -> Comparison:
    """The comparison of rule ``paper_b_comparison`` from its inputs ``inp`` (table1, table2, scenario1,
    scenario2, subspaces, timing, fig1, fig2) and params ``p`` (names, paper, k, delta, scenario2, readings)."""
    tables = experiment.concat([inp.table1, inp.table2], reader=read)  # one that lost a column: an error naming it
    all_choices = read_choices(p.readings["ours"]["inputs"], read_json)
    choices = {ds: all_choices[ds] for ds in tables["dataset"].unique()}
    s1 = experiment.concat(inp.scenario1, reader=read) if inp.scenario1 else None
    sweeps = {ds: read(f) for ds, f in zip(p.scenario2, inp.scenario2)}
    subspaces = {ds: read(f) for ds, f in zip(p.scenario2, inp.subspaces)}

    rows = cmp.table_rows(tables, choices)
    rows += cmp.fig1_rows(read(inp.fig1))
    rows += cmp.fig2_rows(read(inp.fig2), p.paper.get("gs_exact"))
    conv = pd.DataFrame()
    if s1 is not None:
        rows += cmp.gs_lower_rows(s1, p.names, p.paper, p.k)
        conv = cmp.convention_summary(s1, p.paper)
        rows += cmp.scenario1_rows(conv, p.names, p.paper)
    rows += cmp.scenario2_rows(sweeps, subspaces, p.names, p.paper)
    rows += cmp.timing_rows(read(inp.timing))
    ours, yours = cmp.split_yours(rows, p.paper)
    df = cmp.frame(ours)

    long, labels, prefixes, shared = _readings(p, read, read_json)
    reading_notes = [f"{rd['short']}: {rd['label']}" for rd in p.readings.values()]
    notes = page.methodology_notes(p.names, p.paper, choices, len(p.readings))
    extra = [page.render_yours(yours)]
    if len(labels) > 1:
        extra.append(page.render_readings(long, labels, prefixes, shared, reading_notes))
    markdown = page.render_markdown(df, conv, notes, page.implied_s_lines(s1, p.paper, p.delta), extra)
    counts = {"ours": df["verdict"].value_counts().to_dict()}
    counts |= {f"reading {name}": long.loc[long["reading"] == name, "verdict"].value_counts().to_dict()
               for name in labels}
    return Comparison(df, long, markdown, counts)


def _readings(p: Any, read: Callable[[str], pd.DataFrame], read_json: Callable[[str], Any]
              ) -> tuple[pd.DataFrame, dict[str, str], dict[str, str], dict[str, Sequence[str]]]:
    """Every claim of Tables 1-2 and Figs. 3-7 under each reading (ours first), tables read per reading."""
    per_reading, labels, prefixes, shared = {}, {}, {}, {}
    for name, rd in p.readings.items():
        t = load_reading(rd["inputs"], read, read_json)
        r_text = None if rd["r"] == "tuned" else {ds: f"the paper's r = {ch['r']:g}" for ds, ch in t["choices"].items()}
        rr = cmp.claim_rows(t["tables"], t["choices"], t["s1"], t["sweeps"], t["subspaces"], p.names, p.paper,
                            p.k, r_text, rd["exponent"])
        per_reading[name] = (rd["prefix"], cmp.split_yours(rr, p.paper)[0])
        labels[name], prefixes[name] = rd["short"], rd["prefix"]
        if rd["shares"]:
            shared[name] = rd["shares"]
    return cmp.readings_frame(per_reading), labels, prefixes, shared
