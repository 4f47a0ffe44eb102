"""Rule privacy_price: the price of honest tuning for one paper (privanomaly.price.tuning), every dataset."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.price import tuning as price

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    inp = snakemake.input
    table = price.price_table(p.paper, list(p.datasets), list(inp.data), list(inp.provenance), p.privacy,
                              p.settings, list(inp.raw), list(inp.raw_provenance), progress=runlog.progress)
    log.info("paper %s: %d rows over %d datasets", p.paper, len(table), len(p.datasets))
    io.write_table(table, snakemake.output.csv)
    io.write_table(table, snakemake.output.md)
