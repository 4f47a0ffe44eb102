"""Rule sweep_collect: the tidy long table of one sweep (Parquet + CSV) from its point files."""

from privanomaly import io, runlog
from privanomaly.sweeps import collect

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    table = collect.collect(list(snakemake.input.points), p.sweep, p.kind)  # noqa: F821
    log.info("sweep %s: %d rows from %d point files", p.sweep, len(table), len(snakemake.input.points))  # noqa: F821
    io.write_table(table, snakemake.output.parquet)  # noqa: F821
    io.write_table(table, snakemake.output.csv)  # noqa: F821
