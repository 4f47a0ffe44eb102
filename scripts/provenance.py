"""Rule ``provenance``: write ``{results}/provenance.json`` (versions, config hash, dataset sha256s, git commit)."""

from privanomaly import io, provenance, runlog

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821
    doc = provenance.collect(
        snakemake.params.config,  # noqa: F821
        list(snakemake.input.datasets),  # noqa: F821
        snakemake.params.commit,  # noqa: F821
    )
    io.write_json(snakemake.output.json, doc)  # noqa: F821
    log.info("provenance: config %s, commit %s, %d datasets", doc["config_sha256"][:12], doc["git_commit"], len(doc["datasets"]))
