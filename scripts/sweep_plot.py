"""Rule sweep_plot: one figure of a sweep, from its tidy table only."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.sweeps import plots

with runlog.log_to(snakemake.log[0]):
    table = plots.read_sweep(snakemake.input.table, snakemake.params.figure)
    fig = plots.FIGURES[snakemake.params.figure](table)
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)
