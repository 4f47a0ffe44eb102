"""Rule sweep_collect: the tidy long table of one sweep (Parquet + CSV) from its point files."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.sweeps import collect

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    table = collect.collect(list(snakemake.input.points), p.sweep, p.settings["kind"])
    log.info("sweep %s: %d rows from %d point files", p.sweep, len(table), len(snakemake.input.points))
    io.write_table(table, snakemake.output.parquet)
    io.write_table(table, snakemake.output.csv)
