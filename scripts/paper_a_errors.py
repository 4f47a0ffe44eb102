"""Rule paper_a_errors: exact SP/DP errors per record over the ε and k grids, summaries, sampled trials,
ranked anomalies and the share of k-sensitive records, for one dataset."""

import numpy as np

from privanomaly import experiment, io, seeding
from privanomaly.run import log as runlog
from privanomaly.paper_a import errors, records, toy

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    name = snakemake.wildcards.pa_dataset
    rec = records.read_records(snakemake.input.records)
    beta = experiment.read_choice(snakemake.input.choice, "beta")["beta"]
    with runlog.steps(name, ["exact errors", "sampled trials", "ranked, k-sensitive"]) as step:
        step("exact errors")
        errs = errors.exact_errors(rec, beta, p.eps_grid, p.k_grid, p.mechanisms)
        summary = errors.summarise(rec, errs)
        step("sampled trials")
        trials = errors.sampled_errors(rec, errs, seeding.rng(p.seed, "paper_a_errors", name), p.n_trials, beta,
                                       p.mechanisms, level=p.ci_level)
        step("ranked, k-sensitive")
        ranked = errors.ranked_anomalies(rec, errs, p.eps_ref, p.k_main)
        sens = toy.sensitive_fraction(rec, beta, p.k_sensitive)
    for df in (errs, summary, trials, ranked, sens):
        df.insert(0, "dataset", name)
    errs["error"] = errs["error"].astype(np.float64)
    io.write_table(errs, snakemake.output.exact)
    io.write_table(summary, snakemake.output.summary)
    io.write_table(trials, snakemake.output.trials)
    io.write_table(ranked, snakemake.output.ranked)
    io.write_table(sens, snakemake.output.sensitive)
