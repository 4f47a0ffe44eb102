"""Rule paper_b_plot_fig1: Figure 1 from its table."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_b import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.plot_gs_bounds(pd.read_csv(snakemake.input.csv))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
