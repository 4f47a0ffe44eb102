"""Rule sweep_plot: one figure of a sweep, from its tidy table only."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.sweeps import plots

with runlog.log_to(snakemake.log[0]):
    table = pd.read_parquet(snakemake.input.table)
    fig = plots.FIGURES[snakemake.params.figure](table)
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)
