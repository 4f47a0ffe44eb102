"""Rule paper_a_table3: precision/recall of SP, optimal DP, the Laplace baselines and PyOD references."""

from privanomaly import experiment, io, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import tables

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    df = tables.table3(experiment.concat(snakemake.input.detection), snakemake.params.missing)  # noqa: F821
    df = standins.annotate(df, snakemake.params.stand_in)  # noqa: F821 - scale runs only
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
