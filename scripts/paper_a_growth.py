"""Rule paper_a_growth: exact SP/DP error on anomalies for nested subsamples of one dataset."""

from privanomaly import experiment, io, seeding
from privanomaly.run import log as runlog
from privanomaly.paper_a import growth, records
from privanomaly.sweeps.growth import growth_grid

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    name = snakemake.wildcards.pa_dataset
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    choice = experiment.read_choice(snakemake.input.choice, "beta")
    with runlog.steps(name, ["nested subsamples"]) as step:
        step("nested subsamples")
        df = growth.growth_curve(X, y, choice["beta"], choice["fraction"], p.sizes,
                                 seeding.rng(p.seed, "paper_a_growth", name), p.eps_ref, p.k_main,
                                 cap=records.cap_for(choice["beta"], p.eps_ref), workers=snakemake.threads, metric=p.metric)
    left = sorted(set(p.sizes) - set(df["size_fraction"]))
    if left:
        log.warning("%s: subsample fractions %s leave at most beta+1 = %d records: no row", name, left,
                    choice["beta"] + 1)
    df.insert(0, "dataset", name)
    with runlog.steps(name, ["growth curves on the claim sweep's grid"]) as step:
        step("growth curves on the claim sweep's grid")  # claim A4 at every (beta, r) point, same subsamples
        grid = growth_grid(X, y, list(p.grid), p.sizes,
                           lambda: seeding.rng(p.seed, "paper_a_growth", name), p.eps_ref, p.k_main,
                           lambda beta: records.cap_for(beta, p.eps_ref), snakemake.threads, p.metric)
    grid.insert(0, "dataset", name)
    io.write_table(df, snakemake.output.csv)
    io.write_table(grid, snakemake.output.grid)
