"""Rule paper_a_table1: dataset sizes, dimension after PCA, labelled anomalies, chosen (β, r) and the
precision/recall of the (β, r)-anomalies against the labels; unavailable datasets listed as such."""

import json

import pandas as pd

from privanomaly import experiment, io, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import tables


def pca_note(prov: dict) -> str:
    steps = [s for s in prov.get("steps", []) if isinstance(s, dict) and s.get("step") == "pca"]
    return f"{prov.get('raw_columns', '?')} → {prov.get('dims', '?')}" if steps else "none"


with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    rows = []
    for name, prov_path, rec_path, choice_path in zip(p.datasets, snakemake.input.provenance,  # noqa: F821
                                                      snakemake.input.records, snakemake.input.choices):  # noqa: F821
        with open(prov_path, encoding="utf-8") as fh:
            prov = json.load(fh)
        choice = experiment.read_choice(choice_path, "beta")
        rec = pd.read_parquet(rec_path)
        row = tables.table1_row(name, rec, prov["dims"], pca_note(prov), choice["beta"], choice["r"])
        rows.append(dict(row, note=choice.get("note", "")))  # "⚠ edge of grid: ..." (paper_a.selection)
    df = tables.table1(rows, p.missing)
    df = standins.annotate(df, snakemake.params.stand_in)  # noqa: F821 - scale runs only
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
