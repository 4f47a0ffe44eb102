"""Rule paper_b_plot_fig2: Figure 2 from its tables."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_b import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.plot_kissing(pd.read_csv(snakemake.input.points), pd.read_csv(snakemake.input.counts))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
