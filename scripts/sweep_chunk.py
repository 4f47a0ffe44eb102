"""Rule sweep_chunk: every (eps, beta, r, k) point of a chunk - every mechanism's exact errors - on each dataset
of the job's batch."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.privacy import scope
from privanomaly.sweeps import chunks

with runlog.log_to(snakemake.log[0]) as log:
    wc, p = snakemake.wildcards, snakemake.params
    table = chunks.read_counts(snakemake.input.counts)
    provs = [scope.read_provenance(f) for f in snakemake.input.provenance]
    s = p.settings  # privanomaly.sweeps.plan.SweepPlan.chunk_settings
    rows = chunks.batch_rows(table, list(p.datasets), list(p.points), list(s["mechanisms"]), s["cap"], provs)
    log.info("%s part %s: %d points (eps %s) on each of %s, %d rows", wc.batch, wc.part, len(p.points),
             ", ".join(dict.fromkeys(str(x["eps"]) for x in p.points)), ", ".join(p.datasets), len(rows))
    io.write_table(rows, snakemake.output.rows)
