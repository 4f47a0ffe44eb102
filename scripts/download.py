"""Rule `download`: bring one raw file into the raw cache (mirror copy or canonical URL), sha256-checked."""

from privanomaly import runlog
from privanomaly.datasets import sources

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 (snakemake is injected)
    relpath = snakemake.wildcards.relpath  # noqa: F821
    mirror = snakemake.config.get("data_mirror")  # noqa: F821  (deliberately not a param: see rule download, workflow/rules/data.smk)
    log.info("fetching %s from %s", relpath, f"mirror {mirror}" if mirror else snakemake.params.url)  # noqa: F821
    info = sources.fetch(
        relpath,
        snakemake.output[0],  # noqa: F821
        url=snakemake.params.url,  # noqa: F821
        sha256=snakemake.params.sha256,  # noqa: F821
        mirror=mirror,
    )
    log.info("ok: %s", info)
