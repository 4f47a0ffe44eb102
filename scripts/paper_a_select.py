"""Rule paper_a_select: the (β, r) selection protocol for one dataset (privanomaly.paper_a.selection)."""

from privanomaly import experiment, io, seeding, sp
from privanomaly.run import log as runlog
from privanomaly.paper_a import selection

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    name = snakemake.wildcards.pa_dataset
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    betas = list(p.betas)  # paper_a.selection.betas, or paper_a.fig2.betas on the Figure 2-3 data
    with runlog.steps(name, ["k-NN radii and F1 surface"]) as step:
        step("k-NN radii and F1 surface")
        surface = selection.selection_surface(
            X, y, betas, p.fractions, rng=seeding.rng(p.seed, "paper_a_select", name),
            max_query_rows=p.max_query_rows, p=sp.minkowski_p(p.metric),
            workers=snakemake.threads,
        )
    choice = selection.choose(surface)
    best = surface[(surface["beta"] == choice.beta) & (surface["fraction"] == choice.fraction)].iloc[0]
    surface.insert(0, "dataset", name)
    log.info("%s: beta=%d r=%.6g fraction=%g F1=%.4f", name, choice.beta, choice.r, choice.fraction, choice.f1)
    edges = selection.grid_edges(choice, betas, p.fractions)
    for e in edges:
        log.warning("%s: %s (widen the grid to check)", name, e.message())
    dropped = [b for b in betas if b not in set(surface["beta"])]
    note = selection.edge_note(edges)
    if dropped:  # no (beta+1)-th neighbour among the records: no candidate
        why = f"beta {dropped} left out: {len(X)} records are too few for them"
        log.warning("%s: %s", name, why)
        note = f"{note}; {why}" if note else why
    io.write_table(surface, snakemake.output.surface)
    io.write_json(snakemake.output.choice, {
        "dataset": name, "beta": choice.beta, "r": choice.r, "fraction": choice.fraction, "f1": choice.f1,
        "precision": float(best["precision"]), "recall": float(best["recall"]), "n_scored": int(best["n_scored"]),
        "n_records": int(len(X)), "metric": p.metric, "betas": betas,
        "grid_edge": [e.message() for e in edges], "note": note,
        "protocol": "max F1 of (beta, r)-anomaly vs labels over betas x flagged fractions; ties: larger beta, "
                    "then smaller fraction (privanomaly.paper_a.selection)",
    })
