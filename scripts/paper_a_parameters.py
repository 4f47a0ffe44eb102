"""Rule paper_a_parameters: the chosen (β, r) of every dataset in one table (feeds the report)."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import common

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    rows = [common.load_choice(p) for p in snakemake.input.choices]  # noqa: F821
    cols = ["dataset", "beta", "r", "fraction", "f1", "precision", "recall", "n_records", "n_scored", "metric"]
    df = standins.annotate(pd.DataFrame(rows)[cols], snakemake.params.stand_in)  # noqa: F821 - scale runs only
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
