"""Rule paper_a_plot_growth: SP/DP error on anomalies against the number of records."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_a import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.growth(pd.read_csv(snakemake.input.table))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
