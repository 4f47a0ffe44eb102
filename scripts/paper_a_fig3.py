"""Rule paper_a_fig3: plot Figure 3 (privacy level per record for several k)."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_a import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.fig3(pd.read_csv(snakemake.input.records), snakemake.params.k_values)  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
