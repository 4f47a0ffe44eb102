"""Rule ``provenance``: write ``{results}/provenance.json`` (versions, config hash, dataset sha256s, git commit)."""

from privanomaly import io
from privanomaly.run import provenance
from privanomaly.run import log as runlog

with runlog.log_to(snakemake.log[0]) as log:
    doc = provenance.collect(
        snakemake.params.config,
        list(snakemake.input.datasets),
        snakemake.params.commit,
    )
    io.write_json(snakemake.output.json, doc)
    log.info("provenance: config %s, commit %s, %d datasets", doc["config_sha256"][:12], doc["git_commit"], len(doc["datasets"]))
