"""Rule paper_a_fig2: plot Figure 2 (density, per-record accuracy and privacy, SP vs DP)."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_a import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.fig2(pd.read_csv(snakemake.input.records), pd.read_csv(snakemake.input.density))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
