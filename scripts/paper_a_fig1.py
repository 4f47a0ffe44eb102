"""Rule paper_a_fig1: plot Figure 1 from its tidy tables."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_a import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.fig1(pd.read_csv(snakemake.input.frontier), pd.read_csv(snakemake.input.minerr))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
