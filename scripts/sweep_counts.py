"""Rule sweep_counts: ball counts of every record and of the absent query points at one r of a sweep."""

import pandas as pd

from privanomaly import experiment, io, runlog, seeding
from privanomaly.sweeps import counts, spec

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    wc = snakemake.wildcards  # noqa: F821
    X, y, _ = experiment.split_frame(pd.read_parquet(snakemake.input.data), wc.dataset)  # noqa: F821
    beta, rtok = spec.parse_ball_key(wc.ballkey)
    r_kind, value = spec.parse_r_token(rtok)
    r = counts.resolve_r(X, r_kind, value, beta, p.metric)
    # the same absent points at every r of the sweep: the stream depends on (seed, sweep, dataset) only
    absent = counts.absent_points(X, p.n_absent, seeding.rng(p.seed, "sweep_counts", wc.sweep, wc.dataset))
    table = counts.count_table(X, y, r, metric=p.metric, cap=p.cap, absent=absent)
    table["r"] = r
    table["cap"] = p.cap
    log.info("%s: r (%s %s, beta %s) = %.6g; %d records, %d absent points, cap %d", wc.dataset, r_kind, value,
             beta, r, len(X), len(absent), p.cap)
    io.write_table(table, snakemake.output.counts)  # noqa: F821
