"""Rule sweep_chunk: every (eps, beta, r, k) point of a chunk - every mechanism's exact errors."""

from privanomaly import io, runlog
from privanomaly.privacy import scope
from privanomaly.sweeps import chunks

with runlog.log_to(snakemake.log[0]) as log:
    wc, p = snakemake.wildcards, snakemake.params
    table = chunks.read_counts(snakemake.input.counts)
    prov = scope.read_provenance(snakemake.input.provenance)
    rows = chunks.chunk_rows(table, wc.dataset, [tuple(x) for x in p.points], list(p.mechanisms), p.cap, prov)
    log.info("%s part %s: %d points (eps %s), %d rows", wc.dataset, wc.part, len(p.points),
             ", ".join(dict.fromkeys(str(x[0]) for x in p.points)), len(rows))
    io.write_table(rows, snakemake.output.rows)
