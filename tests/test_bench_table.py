"""benchmarks/bench_table.py reads the four run records into one table (values parsed, not re-measured)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("bench_table", ROOT / "benchmarks" / "bench_table.py")
bench_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_table)

RUNS = """# Where a run's CPU goes

Machine: x86_64, `--cores 2`; load average at the end 2.2 / 1.7 / 2.1. **the machine otherwise idle**. For
comparison, the code before (the 2 cores shared with other runs: load 6-12).

| run | jobs | wall (s) | CPU (s) | work in the jobs' bodies (s) | overhead share | median per-job overhead (s CPU) |
|---|---|---|---|---|---|---|
| default run (all jobs) | 160 | 186 | 353 | 256 | 27 % | 0.55 |
"""
SWEEPS = """Machine: x86_64; load average at the end 1.3 / 1.5 / 2.0 (machine otherwise idle).
Default chunking (`sweep_points_per_job` 128): 21 `sweep_chunk`, 1 `sweep_collect`, 3 `sweep_counts` = 25 jobs.
| Snakemake run of the sweep, default chunking, `--cores 2` (all jobs) | 13.2 | 22.3 |
| the same computation in one Python process (library) | 3.5 | 3.5 |
"""
SCALE = """# make scale

Machine shared with other runs.

- Jobs: 110; summed job wall time 600 s; summed job CPU time 400 s; whole run 250 s wall.
- Work in the jobs' bodies: 300 s CPU; overhead share of the jobs' CPU: 25 %.
- Load average at the end: 3.1 / 2.0 / 1.5.

| rule | jobs |
"""
CLUSTER = """<!-- on this machine SHARED with other runs: load average 1.6-3.6. The previous record (idle machine) -->
Wall time: local run 145 s (--cores 2), SLURM run 473 s (includes submission).

97 SLURM submissions (every one checked) for 113 jobs: 94 single jobs.
"""


def test_reads_every_record(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    for name, text in (("bench_runs.md", RUNS), ("bench_sweeps.md", SWEEPS), ("scale.md", SCALE),
                       ("cluster.md", CLUSTER)):
        (tmp_path / "benchmarks" / name).write_text(text, encoding="utf-8")
    rows = bench_table.collect(tmp_path)
    got = [(r["jobs"], r["cpu"], r["wall"], r["machine"], None if r["share"] is None else round(r["share"], 3))
           for r in rows]
    assert got == [
        (160, 353.0, 186.0, "idle, load 2.2 / 1.7 / 2.1", 0.27),
        (25, 22.3, 13.2, "idle, load 1.3 / 1.5 / 2.0", round((22.3 - 3.5) / 22.3, 3)),
        (110, 400.0, 250.0, "shared, load 3.1 / 2.0 / 1.5", 0.25),
        (113, None, 145.0, "shared, load 1.6-3.6", None),
        (113, None, 473.0, "shared, load 1.6-3.6", None),
    ]
    table = bench_table.render(rows, tmp_path)
    assert "| the 1,008-row paper-A sweep | 25 | 22 | 13 | idle, load 1.3 / 1.5 / 2.0 | 84 % | benchmarks/bench_sweeps.md |" in table


def test_a_changed_record_names_its_file(tmp_path):
    path = tmp_path / "bench_runs.md"
    path.write_text("no table here", encoding="utf-8")
    with pytest.raises(ValueError, match="bench_runs.md"):
        bench_table.default_run(path)


def test_a_scale_record_is_read_from_its_lead_run_only(tmp_path):
    """scale.md keeps earlier runs in sections below the one it leads with: their summary lines never stand in."""
    path = tmp_path / "scale.md"
    path.write_text("# make scale\n\nMeasured on the idle machine; no summary lines here.\n\n## An earlier run "
                    "(shared machine)\n\n" + SCALE.split("\n", 2)[2], encoding="utf-8")
    with pytest.raises(ValueError, match="scale.md"):
        bench_table.scale(path)
    path.write_text(SCALE + "\n## An earlier run\n\n- Jobs: 1; summed job wall time 1 s; summed job CPU time 1 s; "
                    "whole run 1 s wall.\n", encoding="utf-8")
    assert bench_table.scale(path)["jobs"] == 110
