"""Rule paper_a_table2: exact SP/DP error for a random record and for a random (β, r)-anomaly."""

from privanomaly import experiment, io, mechanisms, runlog
from privanomaly.datasets import standins
from privanomaly.paper_a import tables

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    labels = tuple(mechanisms.get(n).label for n in p.mechanisms)
    df = tables.table2(experiment.concat(snakemake.input.summaries), p.eps_ref, p.k_main, p.missing, labels)  # noqa: F821
    df = standins.annotate(df, snakemake.params.stand_in)  # noqa: F821 - scale runs only
    io.write_table(df, snakemake.output.csv)  # noqa: F821
    io.write_table(df, snakemake.output.md)  # noqa: F821
