"""Rule `download`: bring one raw file into the raw cache (mirror copy or canonical URL), sha256-checked."""

from privanomaly.run import log as runlog
from privanomaly.datasets import sources

with runlog.log_to(snakemake.log[0]) as log:
    relpath = snakemake.wildcards.relpath
    mirror = snakemake.config.get("data_mirror")  # deliberately not a param: see rule download, workflow/rules/data.smk
    log.info("fetching %s from %s", relpath, f"mirror {mirror}" if mirror else snakemake.params.url)
    info = sources.fetch(
        relpath,
        snakemake.output[0],
        url=snakemake.params.url,
        sha256=snakemake.params.sha256,
        mirror=mirror,
    )
    log.info("ok: %s", info)
