"""Rule paper_a_fig_normal_ranked: (a) mean error on normal records, (b) anomalies ranked by SP error."""

from privanomaly import io, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import common, plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    summaries = common.concat(snakemake.input.summaries)  # noqa: F821
    fig = plots.normal_and_ranked(summaries, common.concat(snakemake.input.ranked),  # noqa: F821
                                  p.k_main, p.eps_ref)
    standins.stamp_figure(fig, p.stand_in, list(summaries["dataset"].unique()))  # scale runs only
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
