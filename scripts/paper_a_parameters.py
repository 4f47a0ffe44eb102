"""Rule paper_a_parameters: the chosen (β, r) of every dataset in one table (feeds the report)."""

import pandas as pd

from privanomaly import experiment, io, runlog
from privanomaly.datasets import standins

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    rows = [experiment.read_choice(p, "beta") for p in snakemake.input.choices]  # noqa: F821
    cols = ["dataset", "beta", "r", "fraction", "f1", "precision", "recall", "n_records", "n_scored", "metric", "note"]
    df = pd.DataFrame(rows).reindex(columns=cols)
    df["note"] = df["note"].fillna("")  # a choice file without the note key (written by hand) has none
    for row in df[df["note"] != ""].itertuples():
        log.warning("%s: (beta, r) on the edge of its grid: %s", row.dataset, row.note)
    df = standins.annotate(df, snakemake.params.stand_in)  # noqa: F821 - scale runs only
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
