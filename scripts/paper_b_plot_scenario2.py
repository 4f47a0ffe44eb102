"""Rule paper_b_plot_scenario2: Figures 5-7 from their tables."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_b import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    fig = plots.plot_scenario2(
        pd.read_csv(snakemake.input.sweep), pd.read_csv(snakemake.input.subspaces), p.name, p.true_subspace, p.at  # noqa: F821
    )
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
