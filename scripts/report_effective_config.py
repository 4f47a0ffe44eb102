"""Rule effective_config: record this run's merged configuration in results/effective_config.yaml."""

from privanomaly import io, runlog
from privanomaly import run_config

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    out = snakemake.output.yaml  # noqa: F821
    io.write_text(out, run_config.dump(dict(snakemake.params.config), out))  # noqa: F821
    log.info("recorded the configuration of this run in %s", out)
