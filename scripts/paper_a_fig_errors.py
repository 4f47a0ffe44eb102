"""Rule paper_a_fig_errors: exact mean error on anomalies vs ε (SP for several k, DP) + sampled trials."""

from privanomaly import io, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import common, plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    summaries = common.concat(snakemake.input.summaries)  # noqa: F821
    fig = plots.error_vs_eps(summaries, common.concat(snakemake.input.trials),  # noqa: F821
                             snakemake.params.k_grid)  # noqa: F821
    standins.stamp_figure(fig, snakemake.params.stand_in, list(summaries["dataset"].unique()))  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
