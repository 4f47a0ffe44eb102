"""Rule `prepare`: parse/generate one dataset, preprocess it, write the parquet table and its provenance."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.datasets import build, check_schema

with runlog.log_to(snakemake.log[0]) as log:
    name = snakemake.wildcards.dataset
    table, provenance = build(name, snakemake.params.entry, list(snakemake.input), snakemake.params.seed)
    check_schema(table, where=f"datasets.{name}")
    log.info(
        "%s: %d rows, %d dims, %d anomalies", name, provenance["rows"], provenance["dims"], provenance["n_anomalies"]
    )
    for step in provenance["steps"]:
        log.info("step %s", {k: v for k, v in step.items() if k != "source_rows"})
    io.write_table(table, snakemake.output.parquet)
    io.write_json(snakemake.output.provenance, provenance)
