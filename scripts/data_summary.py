"""Rule `data_summary`: one row per available dataset (rows, dims, #anomalies, raw sha256); unavailable list."""

import json

import pandas as pd

from privanomaly import io, runlog
from privanomaly.datasets.summary import summary_table

with runlog.log_to(snakemake.log[0]) as log:
    provenances = []
    for path in snakemake.input:
        with open(path, encoding="utf-8") as fh:
            provenances.append(json.load(fh))
    table = summary_table(provenances)
    io.write_table(table, snakemake.output.csv)
    io.write_table(table, snakemake.output.md)
    unavailable = pd.DataFrame(snakemake.params.unavailable, columns=["dataset", "reason"])
    io.write_table(unavailable, snakemake.output.unavailable)
    log.info("%d datasets summarised, %d unavailable", len(table), len(unavailable))
