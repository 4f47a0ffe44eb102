"""Rule sweep_b_point: paper B at one (dataset, k, r) - sigma_Global vs sigma_Smooth, top-h precision/recall."""

import pandas as pd

from privanomaly import experiment, io, runlog
from privanomaly.paper_b import released_bound
from privanomaly.privacy import scope
from privanomaly.sweeps import counts, sigma, spec

with runlog.log_to(snakemake.log[0]) as log:
    wc = snakemake.wildcards
    p = snakemake.params
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    k = int(wc.k)
    r_kind, r_value = spec.parse_r_token(wc.r)
    r = counts.resolve_r_paper_b(X, r_kind, r_value, k)
    log.info("%s: k = %d, r (%s %s) = %.6g", wc.dataset, k, r_kind, r_value, r)

    def smooth_for(method):
        def smooth_fn(beta):  # the configured method to completion, as in paper_b_scenario1 (no fallback)
            return released_bound.smooth_bound(X, k, r, beta, method, p.max_work, p.fast_exact_max, p.timeout)

        return smooth_fn

    parts = [sigma.sigma_rows(X, k, r, p.eps, p.delta, p.conventions, p.methods, smooth_for)]
    if p.h and p.subspace_dims:
        parts.append(sigma.top_h_rows(X, y, k, r, p.eps, p.h, p.subspace_dims, p.true_subspace["rule"],
                                      p.true_subspace["min_outliers"], p.sensitivity, p.max_subspaces))
    out = pd.concat(parts, ignore_index=True)
    out = out.drop(columns=[c for c in ("k", "r") if c in out.columns])
    for i, (col, val) in enumerate({"dataset": wc.dataset, "k": k, "r_kind": r_kind, "r_spec": r_value,
                                    "r": r}.items()):
        out.insert(i, col, val)
    prov = scope.provenance_of(snakemake.input)
    out = scope.add_sweep_columns(out, "paper_b", r_kind, r_value, prov)
    io.write_table(out, snakemake.output.point)
