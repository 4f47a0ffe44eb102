"""Rule paper_b_gs_bounds: Figure 1 data - bounds of GS_{q_count,d}(k) of eq. (18) against d."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.paper_b import bounds

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    df = bounds.gs_bounds_table(p.d_max, p.k, p.N)
    log.info("d=1..%d, upper bound at d_max: %d", p.d_max, df["gs_upper"].iloc[-1])
    io.write_table(df, snakemake.output.csv)
    io.write_table(df, snakemake.output.md)
