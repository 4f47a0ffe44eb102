"""Rule paper_a_fig23_data: per-record accuracy and privacy level on the 2-D data, and its density grid."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_a import records, toy

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    X, _, _ = experiment.load_dataset(snakemake.input.data)
    if X.shape[1] != 2:
        raise ValueError(f"paper_a.fig2.dataset: {snakemake.input.data} has {X.shape[1]} features, Figures 2-3 need 2")
    rec = records.read_records(snakemake.input.records)
    choice = experiment.read_choice(snakemake.input.choice, "beta")
    beta = choice["beta"]
    df = toy.per_record_privacy(rec, X, beta, p.eps, p.k, p.k_values, r=choice["r"])
    sens = toy.sensitive_fraction(rec, beta, p.k_values)
    sens.insert(0, "dataset", p.dataset)
    io.write_table(df, snakemake.output.records)
    io.write_table(toy.density_grid(X, p.density_grid), snakemake.output.density)
    io.write_table(sens, snakemake.output.sensitive)
