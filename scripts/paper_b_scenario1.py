"""Rule paper_b_scenario1: Figures 3/4 data - sigma_Global and sigma_Smooth per eps and noise convention."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_b import released_bound, scenario1
from privanomaly.privacy import scope

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    method = snakemake.wildcards.pb_method
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    r = experiment.read_choice(snakemake.input.choice)["r"]

    dataset = snakemake.wildcards.pb_dataset
    # what this method's bound reads (privanomaly.paper_b.plan.scenario1_bound): Algorithm 2's guard for the
    # dataset and skipped rows past it instead of a failed job, or the fast bound's exact_max
    bound = dict(p.bound)
    max_work = bound.get("max_work")
    skip_infeasible = bool(bound.get("skip_infeasible", True))
    # a safety net, not a param (rule paper_b_scenario1): it fails the job, never changes the table
    timeout = snakemake.config["paper_b"]["scenario1"].get("timeout_seconds")

    fast = None
    if method == "fast":  # every beta in one computation (the windows once, at the smallest beta's horizon)
        betas = scenario1.scenario1_betas(len(X), X.shape[1], p.k, list(p.eps), p.delta, list(p.conventions))
        try:
            fast = released_bound.fast_bounds(X, p.k, r, betas, bound.get("fast_exact_max", 0), timeout)
        except released_bound.SafetyTimeout as exc:  # rows skipped with the reason, the run goes on
            fast = exc

    def smooth_fn(beta):
        if isinstance(fast, Exception):
            raise fast
        if fast is not None:
            res = fast[float(beta)]
            log.info("beta=%.4g fast -> S=%.4g", beta, res["value"])
            return res
        # the released bound is the configured method's, run to completion: no data-dependent fallback
        res = released_bound.smooth_bound(X, p.k, r, beta, method, max_work, bound.get("fast_exact_max", 0), timeout,
                                          bound.get("guard_key", released_bound.SCENARIO1_GUARD))
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
    guard = released_bound.guard_scope(method, max_work, skip_infeasible, len(X), p.k, X.shape[1])
    df = (scope.paper_b_scenario1(choice, prov) + guard).add_to(df, scope.scenario1_proven(df))
    io.write_table(df, snakemake.output.csv)
    io.write_table(df, snakemake.output.md)
