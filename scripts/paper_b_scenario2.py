"""Rule paper_b_scenario2: Figures 5-7 data - subspace truth, then precision/recall of Algorithm 3 (at the
reading's r - its tuning JSON - and with the reading's exponent, privanomaly.paper_b.scenario2.TopH)."""

from privanomaly import experiment, io, seeding
from privanomaly.run import log as runlog
from privanomaly.paper_b import scenario2
from privanomaly.privacy import scope

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    ds = snakemake.wildcards.pb_dataset
    X, y, columns = experiment.load_dataset(snakemake.input.data)
    r = experiment.read_choice(snakemake.input.choice)["r"]
    subs = scenario2.subspace_table(
        X, y, p.k, r, p.dim, p.true_subspace["rule"], p.true_subspace["min_outliers"], columns,
        max_subspaces=p.max_subspaces,
    )
    log.info("r = %.4g, exponent %s; subspaces:\n%s", r, p.exponent, subs.to_string(index=False))
    if not subs["is_true"].any():
        log.warning("no true subspace at r = %.4g: recall is undefined (NaN), precision is 0", r)

    # one stream per cell and reading; ours keeps the key it always had (its tables stay byte-identical)
    reading = snakemake.wildcards.pb_reading.rstrip("/")
    key = (ds, reading) if reading else (ds,)

    def rng_for(eps, h):
        return seeding.rng(p.seed, "paper_b_scenario2", *key, float(eps), int(h))

    sweep = scenario2.sweep(
        subs["utility"].to_numpy(),
        subs["is_true"].to_numpy(),
        list(p.eps),
        list(p.h),
        p.n_trials,
        rng_for,
        sensitivity=p.sensitivity,
        exact=p.exact,
        progress=runlog.progress,
        exponent=p.exponent,
    )
    sweep.insert(0, "dataset", ds)
    # Algorithm 3 releases the top-h set: its own claim (ε-DP, or 2ε-DP with the printed exponent) is proven;
    # end to end only if r and the preprocessing were not chosen on the released records
    choice = experiment.read_choice(snakemake.input.choice)
    sweep = scope.paper_b_scenario2(choice, scope.provenance_of(snakemake.input)).add_to(sweep, True)
    io.write_table(subs, snakemake.output.subspaces)
    io.write_table(subs, snakemake.output.subspaces_md)
    io.write_table(sweep, snakemake.output.sweep)
    io.write_table(sweep, snakemake.output.sweep_md)
