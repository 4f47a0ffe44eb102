"""Rule paper_a_detection: Table 3 rows of one dataset (private mechanisms + PyOD references)."""

import pandas as pd

from privanomaly import experiment, io, seeding
from privanomaly.run import log as runlog
from privanomaly.paper_a import detection, records

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    name = snakemake.wildcards.pa_dataset
    X, _, _ = experiment.load_dataset(snakemake.input.data)
    rec = records.read_records(snakemake.input.records)
    beta = experiment.read_choice(snakemake.input.choice, "beta")["beta"]
    seed_int = int(seeding.rng(p.seed, "paper_a_detection", name).integers(2**31 - 1))
    with runlog.steps(name, ["private mechanisms", "PyOD references"]) as step:
        step("private mechanisms")
        private = detection.private_rows(rec, beta, p.k_main, p.eps_ref, p.mechanisms)
        step("PyOD references")
        df = pd.concat([private, detection.pyod_rows(X, rec, p.pyod, seed_int, p.pyod_max_fit_rows)],
                       ignore_index=True)
    df.insert(0, "dataset", name)
    io.write_table(df, snakemake.output.csv)
