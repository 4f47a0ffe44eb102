"""The generic plot rule (workflow/rules/plots.smk): run the registered plot function the catalogue names."""

from privanomaly import runlog
from privanomaly.report import figures

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    figures.render(p.function, dict(snakemake.input.items()), p.plot_params, p.stand_in,  # noqa: F821
                   list(snakemake.output))  # noqa: F821
