"""Rule paper_a_compiler_data: Construction 2 applied to a constant-error ε/2-DP input, every record."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_a import records, toy

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    rec = records.read_records(snakemake.input.records)
    beta = experiment.read_choice(snakemake.input.choice, "beta")["beta"]
    df = toy.compiler_table(rec, beta, p.k, p.eps)
    df.insert(0, "dataset", p.dataset)
    io.write_table(df, snakemake.output.csv)
