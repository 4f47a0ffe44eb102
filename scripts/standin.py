"""Rule `standin`: write one stand-in raw file (real format and size, values from the seed)."""

from privanomaly import runlog
from privanomaly.datasets import standins, verify_sha256

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 (snakemake is injected)
    out = snakemake.output[0]  # noqa: F821
    standins.write_standin(snakemake.params.generator, out, snakemake.params.seed)  # noqa: F821
    log.info("%s: stand-in %r, seed %s, sha256 %s", out, snakemake.params.generator,  # noqa: F821
             snakemake.params.seed, verify_sha256(out, None))  # noqa: F821
