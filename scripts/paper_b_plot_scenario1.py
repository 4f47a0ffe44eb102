"""Rule paper_b_plot_scenario1: Figures 3/4 (and the fast-bound variants) from their table."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_b import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    fig = plots.plot_scenario1(pd.read_csv(snakemake.input.csv), p.name, p.paper, p.at)  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
