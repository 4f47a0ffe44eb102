"""Rule paper_a_fig_compiler: input DP error vs compiled SP error per record."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_a import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    comp = pd.read_csv(snakemake.input.csv)  # noqa: F821
    fig = plots.compiler(comp, str(comp["dataset"].iloc[0]))
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
