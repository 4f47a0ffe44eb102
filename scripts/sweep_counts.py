"""Rule sweep_counts: ball counts of every record and absent query point at every (beta, r) of a sweep."""

from privanomaly import experiment, io, runlog, seeding
from privanomaly.sweeps import chunks, counts

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    wc = snakemake.wildcards
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    # the same absent points at every r of the sweep: the stream depends on (seed, sweep, dataset) only
    absent = counts.absent_points(X, p.n_absent, seeding.rng(p.seed, "sweep_counts", wc.sweep, wc.dataset))
    try:
        table = chunks.count_tables(X, y, list(p.ballkeys), p.metric, p.cap, absent)
    except ValueError as exc:  # e.g. a beta the dataset has too few records for: name the sweep and dataset
        raise ValueError(f"config sweeps.{wc.sweep} on dataset {wc.dataset} ({len(X)} records): {exc}") from exc
    for key, t in table.groupby("ballkey", sort=False):
        log.info("%s %s: r = %.6g; %d records, %d absent points, cap %d", wc.dataset, key, t["r"].iloc[0],
                 len(X), len(absent), p.cap)
    io.write_table(table, snakemake.output.counts)
