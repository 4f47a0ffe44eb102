"""Rule paper_b_comparison: comparison.md - every number and claim of paper B next to ours."""

import json

import pandas as pd

from privanomaly import experiment, io, runlog
from privanomaly.paper_b import comparison as cmp

with runlog.log_to(snakemake.log[0]) as log:
    inp, p = snakemake.input, snakemake.params
    declared = {str(f) for f in inp}

    def read(path, reader=pd.read_csv):
        """Read a declared input only (every file this script reads is an input of the rule)."""
        if str(path) not in declared:
            raise ValueError(f"paper_b_comparison: {path} is read but not declared as an input of the rule")
        if reader is json.load:
            def reader(q):
                with open(q, encoding="utf-8") as fh:
                    return json.load(fh)

        return experiment.read_output(path, reader, "an input of the comparison")

    def read_choices(files):
        """The r records of a reading's table datasets; ours with our accuracy at the paper's printed r, read from
        the paper's-r record (privanomaly.paper_b.workflow.readings_plan: at_paper_r)."""
        choices = {ds: read(f, json.load) for ds, f in files["choices"].items()}
        for ds, f in files.get("at_paper_r", {}).items():
            if ds in choices:
                choices[ds] = {**choices[ds], "accuracy_at_paper_r": read(f, json.load)["accuracy"]}
        return choices

    def load_reading(files):
        """The tables of one reading (privanomaly.paper_b.workflow.reading_inputs)."""
        tabs = pd.concat([read(f) for f in files["tables"]], ignore_index=True) if files["tables"] else None
        return {
            "tables": tabs,
            "choices": read_choices(files),
            "s1": experiment.concat(files["scenario1"], reader=read) if files["scenario1"] else None,
            "sweeps": {ds: read(f) for ds, f in files["scenario2"].items()},
            "subspaces": {ds: read(f) for ds, f in files["subspaces"].items()},
        }

    tables = pd.concat([read(inp.table1), read(inp.table2)], ignore_index=True)
    ours_files = p.readings["ours"]["inputs"]
    all_choices = read_choices(ours_files)
    choices = {ds: all_choices[ds] for ds in tables["dataset"].unique()}
    s1 = experiment.concat(inp.scenario1, reader=read) if inp.scenario1 else None
    sweeps = {ds: read(f) for ds, f in zip(p.scenario2, inp.scenario2)}
    subspaces = {ds: read(f) for ds, f in zip(p.scenario2, inp.subspaces)}
    timing = read(inp.timing)

    rows = cmp.table_rows(tables, choices)
    rows += cmp.fig1_rows(read(inp.fig1))
    rows += cmp.fig2_rows(read(inp.fig2), p.paper.get("gs_exact"))
    conv = pd.DataFrame()
    if s1 is not None:
        rows += cmp.gs_lower_rows(s1, p.names, p.paper, p.k)
        conv = cmp.convention_summary(s1, p.paper)
        rows += cmp.scenario1_rows(conv, p.names, p.paper)
    rows += cmp.scenario2_rows(sweeps, subspaces, p.names, p.paper)
    rows += cmp.timing_rows(timing)
    ours, yours = cmp.split_yours(rows, p.paper)
    df = cmp.frame(ours)

    # every claim of Tables 1-2 and Figs. 3-7 under each reading (ours first), tables read per reading
    per_reading, labels, prefixes, shared = {}, {}, {}, {}
    for name, rd in p.readings.items():
        t = load_reading(rd["inputs"])
        r_text = None if rd["r"] == "tuned" else {
            ds: f"the paper's r = {ch['r']:g}" for ds, ch in t["choices"].items()}
        rr = cmp.claim_rows(t["tables"], t["choices"], t["s1"], t["sweeps"], t["subspaces"], p.names, p.paper,
                            p.k, r_text, rd["exponent"])
        per_reading[name] = (rd["prefix"], cmp.split_yours(rr, p.paper)[0])
        labels[name], prefixes[name] = rd["short"], rd["prefix"]
        if rd["shares"]:
            shared[name] = rd["shares"]
    long = cmp.readings_frame(per_reading)
    reading_notes = [f"{rd['short']}: {rd['label']}" for rd in p.readings.values()]

    notes = cmp.methodology_notes(p.names, p.paper, choices, len(p.readings))
    log.info("%d rows: %s", len(df), df["verdict"].value_counts().to_dict())
    for name in per_reading:
        log.info("reading %s: %s", name, long.loc[long["reading"] == name, "verdict"].value_counts().to_dict())
    io.write_table(df, snakemake.output.csv)
    io.write_table(df, snakemake.output.table_md)
    io.write_table(long, snakemake.output.readings_csv)
    io.write_table(long, snakemake.output.readings_md)
    implied = cmp.implied_s_lines(s1, p.paper, p.delta)
    extra = [cmp.render_yours(yours)]
    if len(per_reading) > 1:
        extra.append(cmp.render_readings(long, labels, prefixes, shared, reading_notes))
    io.write_text(snakemake.output.md, cmp.render_markdown(df, conv, notes, implied, extra))
