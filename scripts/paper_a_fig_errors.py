"""Rule paper_a_fig_errors: exact mean error on anomalies vs ε (SP for several k, DP) + sampled trials."""

from privanomaly import io, runlog
from privanomaly.paper_a import common, plots

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    fig = plots.error_vs_eps(common.concat(snakemake.input.summaries), common.concat(snakemake.input.trials),  # noqa: F821
                             snakemake.params.k_grid)  # noqa: F821
    io.save_figure(fig, snakemake.output.png, snakemake.output.pdf)  # noqa: F821
