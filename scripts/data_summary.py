"""Rule `data_summary`: one row per available dataset (rows, dims, #anomalies, raw sha256); unavailable list."""

import json

import pandas as pd

from privanomaly import io, runlog
from privanomaly.datasets.summary import summary_table

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 (snakemake is injected)
    provenances = []
    for path in snakemake.input:  # noqa: F821
        with open(path, encoding="utf-8") as fh:
            provenances.append(json.load(fh))
    table = summary_table(provenances)
    io.write_table(table, snakemake.output.csv)  # noqa: F821
    io.write_table(table, snakemake.output.md)  # noqa: F821
    unavailable = pd.DataFrame(snakemake.params.unavailable, columns=["dataset", "reason"])  # noqa: F821
    io.write_table(unavailable, snakemake.output.unavailable)  # noqa: F821
    log.info("%d datasets summarised, %d unavailable", len(table), len(unavailable))
