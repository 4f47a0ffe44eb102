"""Rule `standin`: write one stand-in raw file (real format and size, values from the seed)."""

from privanomaly.run import log as runlog
from privanomaly.datasets import standins, verify_sha256

with runlog.log_to(snakemake.log[0]) as log:
    out = snakemake.output[0]
    standins.write_standin(snakemake.params.generator, out, snakemake.params.seed)
    log.info("%s: stand-in %r, seed %s, sha256 %s", out, snakemake.params.generator,
             snakemake.params.seed, verify_sha256(out, None))
