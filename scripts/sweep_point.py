"""Rule sweep_point: one grid point of a paper-A sweep - every mechanism's exact errors and precision/recall."""

import pandas as pd

from privanomaly import io, runlog
from privanomaly.privacy import scope
from privanomaly.sweeps import points, spec

with runlog.log_to(snakemake.log[0]):  # noqa: F821 - injected by Snakemake
    wc = snakemake.wildcards  # noqa: F821
    p = snakemake.params  # noqa: F821
    table = pd.read_parquet(snakemake.input.counts)  # noqa: F821
    rows = points.point_rows(table, int(wc.beta), int(wc.k), float(wc.eps), list(p.mechanisms), p.cap)
    r_kind, r_value = spec.parse_r_token(wc.r)
    grid = {"dataset": wc.dataset, "beta": int(wc.beta), "r_kind": r_kind, "r_spec": r_value,
            "r": float(table["r"].iloc[0]), "k": int(wc.k), "eps": float(wc.eps)}
    for i, (col, val) in enumerate(grid.items()):
        rows.insert(i, col, val)
    prov = scope.provenance_of(snakemake.input)  # noqa: F821 - no provenance input: preprocessing "unknown"
    rows = scope.add_sweep_columns(rows, "paper_a", r_kind, r_value, prov)
    io.write_table(rows, snakemake.output.point)  # noqa: F821
