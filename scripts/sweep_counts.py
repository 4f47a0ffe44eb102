"""Rule sweep_counts: ball counts of every record and absent query point at every (beta, r) of a sweep, for
each dataset of the job's batch."""

import pandas as pd

from privanomaly import experiment, io, seeding
from privanomaly.run import log as runlog
from privanomaly.sweeps import chunks, counts

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    s = p.settings  # privanomaly.sweeps.plan.SweepPlan.counts_settings
    wc = snakemake.wildcards
    tables = []
    for dataset, path in zip(p.datasets, snakemake.input.data, strict=True):
        X, y, _ = experiment.load_dataset(path)
        # the same absent points at every r of the sweep: the stream depends on (seed, sweep, dataset) only
        absent = counts.absent_points(X, s["n_absent"], seeding.rng(p.seed, "sweep_counts", wc.sweep, dataset))
        try:
            table = chunks.count_tables(dataset, X, y, list(p.balls), s["metric"], s["cap"], absent)
        except ValueError as exc:  # e.g. a beta the dataset has too few records for: name the sweep and dataset
            raise ValueError(f"config sweeps.{wc.sweep} on dataset {dataset} ({len(X)} records): {exc}") from exc
        for key, t in table.groupby("ballkey", sort=False):
            log.info("%s %s: r = %.6g; %d records, %d absent points, cap %d", dataset, key, t["r"].iloc[0],
                     len(X), len(absent), s["cap"])
        tables.append(table)
    io.write_table(pd.concat(tables, ignore_index=True), snakemake.output.counts)
