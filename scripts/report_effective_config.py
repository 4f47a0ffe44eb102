"""Rule effective_config: record this run's merged configuration in results/effective_config.yaml."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.config import effective as run_config

with runlog.log_to(snakemake.log[0]) as log:
    out = snakemake.output.yaml
    io.write_text(out, run_config.dump(dict(snakemake.params.config), out))
    log.info("recorded the configuration of this run in %s", out)
