"""Rule paper_b_kissing: Figure 2 data - the 2-D kissing construction, outliers counted before/after."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.paper_b import bounds

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    counts = bounds.kissing_counts_table(list(p.k_values))
    log.info("count changes:\n%s", counts.to_string(index=False))
    io.write_table(counts, snakemake.output.counts)
    io.write_table(counts, snakemake.output.counts_md)
    io.write_table(bounds.kissing_points_table(p.plot_k), snakemake.output.points)
