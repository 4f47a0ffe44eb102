"""Rule paper_b_scenario1: Figures 3/4 data - sigma_Global and sigma_Smooth per eps and noise convention."""

from privanomaly import experiment, io, runlog
from privanomaly.paper_b import released_bound, scenario1
from privanomaly.privacy import scope

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    method = snakemake.wildcards.pb_method
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    r = experiment.read_choice(snakemake.input.choice)["r"]

    dataset = snakemake.wildcards.pb_dataset
    # per-dataset guard (paper_b.scenario1.max_work_by_dataset) and skipped rows instead of a failed job
    by_dataset = dict(getattr(p, "max_work_by_dataset", None) or {})
    max_work = by_dataset[dataset] if dataset in by_dataset else p.max_work
    skip_infeasible = bool(getattr(p, "skip_infeasible", True))

    def smooth_fn(beta):
        # the released bound is the configured method's, run to completion: no data-dependent fallback
        res = released_bound.smooth_bound(X, p.k, r, beta, method, max_work, p.fast_exact_max, p.timeout)
        log.info("beta=%.4g %s -> S=%.4g, Algorithm-1 work %d", beta, method, res["value"], res["work_paper"])
        return res

    df = scenario1.scenario1_table(X, p.k, r, list(p.eps), p.delta, list(p.conventions), smooth_fn,
                                   skip_infeasible=skip_infeasible)
    for why in sorted(set(df["skipped"]) - {""}):
        log.warning("%s, %s: rows skipped - %s", dataset, method, why)
    df.insert(0, "method", method)
    df.insert(0, "dataset", dataset)
    prov = scope.provenance_of(snakemake.input)
    choice = experiment.read_choice(snakemake.input.choice)
    df = scope.paper_b_scenario1(choice, prov).add_to(df, scope.scenario1_proven(df))
    io.write_table(df, snakemake.output.csv)
    io.write_table(df, snakemake.output.md)
