"""Rule paper_a_records: per-record x_i, capped ball count B and truth g(i, x) at the chosen (β, r)."""

from privanomaly import experiment, io, runlog
from privanomaly.paper_a import records

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    p = snakemake.params  # noqa: F821
    X, y, _ = experiment.load_dataset(snakemake.input.data)  # noqa: F821
    choice = experiment.read_choice(snakemake.input.choice, "beta")  # noqa: F821
    cap = records.cap_for(choice["beta"], p.eps_min)
    with runlog.steps(snakemake.wildcards.pa_dataset, ["ball counts"]) as step:  # noqa: F821
        step("ball counts")
        rec = records.record_table(X, y, choice["beta"], choice["r"], cap=cap, workers=snakemake.threads, metric=p.metric)  # noqa: F821
    rec.insert(0, "dataset", snakemake.wildcards.pa_dataset)  # noqa: F821
    log.info("%d records, %d (beta, r)-anomalies, cap %d", len(rec), int(rec["anomaly"].sum()), cap)
    io.write_table(rec, snakemake.output.records)  # noqa: F821
