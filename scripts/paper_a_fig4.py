"""Rule paper_a_fig4: draw the k-sensitive neighbourhood graph example."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_a import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    title = (f"{p.k}-sensitive neighbourhood graph G_S around x = {tuple(p.center)} "
             f"(X = {{1..{len(p.center)}}}, ℓ1, β = {p.beta}, r = {p.r})\n"
             "x_i = number of records with value i; arrows point to the database with the record added")
    fig = plots.fig4(pd.read_csv(snakemake.input.nodes), pd.read_csv(snakemake.input.edges), title)  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
