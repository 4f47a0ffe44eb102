"""Rule paper_b_tune_r: r maximising eq. (53) accuracy (paper B, Section 6.2) for one dataset."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_b import tuning

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    radii = tuning.r_grid(p.r_grid)
    curves = tuning.accuracy_curves(X, y, p.k, radii)  # one per space of tuning.SPACES
    curve = tuning.pd.concat(curves, ignore_index=True)
    by_space = {space: tuning.select_r(c, p.tie_break) for space, c in zip(tuning.SPACES, curves)}
    chosen = by_space[p.space]
    row = curve[(curve["space"] == p.space) & (curve["r"] == chosen.r)].iloc[0]
    choice = {
        "dataset": snakemake.wildcards.pb_dataset,
        "space": p.space,
        "tie_break": p.tie_break,
        "k": p.k,
        "r": chosen.r,
        "accuracy": chosen.accuracy,
        "n_maximisers": chosen.n_maximisers,
        "r_maximisers": [chosen.r_max_lo, chosen.r_max_hi],
        "tp": int(row["tp"]),
        "fp": int(row["fp"]),
        "fn": int(row["fn"]),
        "tn": int(row["tn"]),
        "N": int(len(y)),
        "d": int(X.shape[1]),
        "n_outliers": int(y.sum()),
        "r_by_space": {s: sel.r for s, sel in by_space.items()},
        "accuracy_by_space": {s: sel.accuracy for s, sel in by_space.items()},
    }
    log.info("tuned r = %.4g (space %s, accuracy %.4f, %d maximisers)", chosen.r, p.space, chosen.accuracy,
             chosen.n_maximisers)
    io.write_table(curve, snakemake.output.curve)
    io.write_json(snakemake.output.choice, choice)
