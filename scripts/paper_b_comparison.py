"""Rule paper_b_comparison: comparison.md - every number and claim of paper B next to ours."""

import json
from pathlib import Path

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_b import comparison_build

with runlog.log_to(snakemake.log[0]) as log:
    declared, frames = {str(f) for f in snakemake.input}, {}

    def read(path, reader=experiment.read_csv):
        """Read a declared input only (every file this script reads is an input of the rule)."""
        if str(path) not in declared:
            raise ValueError(f"paper_b_comparison: {path} is read but not declared as an input of the rule")
        frames[str(path)] = experiment.read_output(path, reader, "an input of the comparison")
        return frames[str(path)]

    def read_json(path):
        return read(path, lambda q: json.loads(Path(q).read_text(encoding="utf-8")))

    try:
        out = comparison_build.build(snakemake.input, snakemake.params, read, read_json)
    except (KeyError, AttributeError) as exc:  # a column the comparison reads, lost from an input table
        err = experiment.column_error(exc, frames, "paper B's comparison")
        if err is None:
            raise
        raise err from None
    log.info("%d rows: %s", len(out.table), out.counts["ours"])
    for name, counts in out.counts.items():
        if name != "ours":
            log.info("%s: %s", name, counts)
    io.write_table(out.table, snakemake.output.csv)
    io.write_table(out.table, snakemake.output.table_md)
    io.write_table(out.readings, snakemake.output.readings_csv)
    io.write_table(out.readings, snakemake.output.readings_md)
    io.write_text(snakemake.output.md, out.markdown)
