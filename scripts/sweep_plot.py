"""Rule sweep_plot: one figure of a sweep, from its tidy table only."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.sweeps import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    table = pd.read_parquet(snakemake.input.table)  # noqa: F821
    fig = plots.FIGURES[snakemake.params.figure](table)  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
