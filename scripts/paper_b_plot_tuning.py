"""Rule paper_b_plot_tuning: eq. (53) accuracy against r per dataset, ours and the paper's r marked."""

import json

import pandas as pd

from privanomaly import io, runlog
from privanomaly.paper_b import plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    curves, choices = {}, {}
    for c, j in zip(snakemake.input.curves, snakemake.input.choices):  # noqa: F821
        with open(j, encoding="utf-8") as fh:
            ch = json.load(fh)
        curves[ch["dataset"]] = pd.read_csv(c)
        choices[ch["dataset"]] = ch
    fig = plots.plot_tuning(curves, choices, p.names, p.paper_r)
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
