"""Rule paper_a_plot_selection: F1 surface of the (β, r) selection protocol per dataset."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import common, plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    surfaces = common.concat(snakemake.input.surfaces)  # noqa: F821
    chosen = pd.read_csv(snakemake.input.parameters)  # noqa: F821
    fig = plots.selection(surfaces, chosen)
    standins.stamp_figure(fig, snakemake.params.stand_in, list(surfaces["dataset"].unique()))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
