"""Rule paper_a_records: per-record x_i, capped ball count B and truth g(i, x) at the chosen (β, r)."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_a import records

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    choice = experiment.read_choice(snakemake.input.choice, "beta")
    cap = records.cap_for(choice["beta"], p.eps_min)
    with runlog.steps(snakemake.wildcards.pa_dataset, ["ball counts"]) as step:
        step("ball counts")
        rec = records.record_table(X, y, choice["beta"], choice["r"], cap=cap, workers=snakemake.threads, metric=p.metric)
    rec.insert(0, "dataset", snakemake.wildcards.pa_dataset)
    log.info("%d records, %d (beta, r)-anomalies, cap %d", len(rec), int(rec["anomaly"].sum()), cap)
    io.write_table(rec, snakemake.output.records)
