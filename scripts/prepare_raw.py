"""Rule `prepare_raw`: the raw-scale table of one dataset (fitted steps deferred) and its provenance."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.datasets import build, check_schema

with runlog.log_to(snakemake.log[0]) as log:
    name = snakemake.wildcards.dataset
    table, provenance = build(name, snakemake.params.entry, list(snakemake.input), snakemake.params.seed, fit=False)
    check_schema(table, where=f"datasets.{name}", missing=True)
    log.info("%s: %d raw-scale rows, %d dims", name, provenance["rows"], provenance["dims"])
    io.write_table(table, snakemake.output.parquet)
    io.write_json(snakemake.output.provenance, provenance)
