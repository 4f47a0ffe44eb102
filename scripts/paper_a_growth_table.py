"""Rule paper_a_growth_table: the growth curves of every dataset in one table."""

from privanomaly import experiment, io, runlog

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    df = experiment.concat(snakemake.input.curves)  # noqa: F821
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
