"""Rule `data_summary`: one row per available dataset (rows, dims, #anomalies, raw sha256); unavailable list."""

import pandas as pd

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.datasets.summary import PROVENANCE_KEYS, summary_table
from privanomaly.privacy.scope import read_provenance

with runlog.log_to(snakemake.log[0]) as log:
    table = summary_table([read_provenance(path, *PROVENANCE_KEYS) for path in snakemake.input])
    io.write_table(table, snakemake.output.csv)
    io.write_table(table, snakemake.output.md)
    unavailable = pd.DataFrame(snakemake.params.unavailable, columns=["dataset", "reason"])
    io.write_table(unavailable, snakemake.output.unavailable)
    log.info("%d datasets summarised, %d unavailable", len(table), len(unavailable))
