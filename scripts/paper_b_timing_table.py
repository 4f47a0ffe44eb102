"""Rule paper_b_timing_table: one table of time and bound of Algorithm 2 vs the fast bound."""

import pandas as pd

from privanomaly import io, runlog

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    df = pd.concat([pd.read_csv(f) for f in snakemake.input], ignore_index=True)  # noqa: F821
    df.insert(1, "paper_name", df["dataset"].map(snakemake.params.names))  # noqa: F821
    df["fast_over_paper"] = df["fast_value"] / df["paper_value"]
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
