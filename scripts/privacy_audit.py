"""Rule privacy_audit: the audit harness over every registered mechanism and negative control."""

from privanomaly import audit, io
from privanomaly.run import log as runlog

with runlog.log_to(snakemake.log[0]) as logger:
    p = snakemake.params
    df = audit.harness.table(audit.run(p.level, log=logger.info, seed=p.seed, workers=snakemake.threads))
    io.write_table(df, snakemake.output.csv)
    io.write_table(df, snakemake.output.md)
    failed = df[~df["ok"]]
    if len(failed):
        raise RuntimeError(f"privacy audit: {len(failed)} row(s) not as expected: {failed['mechanism'].tolist()} "
                           f"(see {snakemake.output.md})")
