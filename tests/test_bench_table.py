"""benchmarks/bench_table.py reads the four run records (JSON, privanomaly.run.record) into one table."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from privanomaly.run import record as runrecord

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("bench_table", ROOT / "benchmarks" / "bench_table.py")
bench_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_table)

IDLE = {"platform": "x86_64", "python": "3.11.7", "cpus": 2, "load_start": [0.3, 0.5, 0.9],
        "load_end": [2.2, 1.7, 2.1], "commit": "abc1234", "utc": "2026-11-25 20:08 UTC",
        "note": "machine otherwise idle"}


def write_records(root: Path, scale_in_results: bool = False) -> None:
    bench = root / "benchmarks"
    bench.mkdir(parents=True, exist_ok=True)
    runrecord.write(bench / "bench_runs.json", "bench_runs",
                    [runrecord.row("default run", 160, 186.0, 353.0, 256.0),
                     runrecord.row("its sweep jobs", 14, None, 40.0, 34.0)], IDLE)
    runrecord.write(bench / "bench_sweeps.json", "bench_sweeps",
                    [runrecord.row("the sweep", 25, 13.2, 22.3, 3.5)], {**IDLE, "load_start": None})
    runrecord.write(bench / "scale.json", "scale", [runrecord.row("make scale", 110, 250.0, 400.0, 300.0)],
                    {**IDLE, "note": "", "load_end": [3.1, 2.0, 1.5]})
    if scale_in_results:
        (root / ".scale" / "results").mkdir(parents=True)
        runrecord.write(root / ".scale" / "results" / "run_time.json", "scale",
                        [runrecord.row("make scale, this checkout's run", 88, 141.0, 263.0, 238.0)], IDLE)
    runrecord.write(bench / "scale_add_eps.json", "scale_add_eps", [runrecord.row("add eps", 6, 7.0, 8.6, 3.9)], IDLE)
    runrecord.write(bench / "cluster.json", "cluster",
                    [runrecord.row("local", 126, 53, 100.0), runrecord.row("SLURM", 126, 97, None)],
                    {**IDLE, "load_start": [0.5], "load_end": [1.6], "note": ""})


def test_reads_every_record(tmp_path):
    write_records(tmp_path)
    rows = bench_table.collect(tmp_path)
    got = [(r["run"], r["jobs"], r["cpu_s"], r["wall_s"], r["machine"],
            None if r["share"] is None else round(r["share"], 4)) for r in rows]
    assert got == [
        ("default run", 160, 353.0, 186.0, "machine otherwise idle; load at the start 0.3, at the end 2.2",
         round(97 / 353, 4)),
        ("its sweep jobs", 14, 40.0, None, "machine otherwise idle; load at the start 0.3, at the end 2.2", 0.15),
        ("the sweep", 25, 22.3, 13.2, "machine otherwise idle; load at the end 2.2", round(18.8 / 22.3, 4)),
        ("make scale", 110, 400.0, 250.0, "load at the start 0.3, at the end 3.1", 0.25),
        ("add eps", 6, 8.6, 7.0, "machine otherwise idle; load at the start 0.3, at the end 2.2", round(4.7 / 8.6, 4)),
        ("local", 126, 100.0, 53, "load at the start 0.5, at the end 1.6", None),
        ("SLURM", 126, None, 97, "load at the start 0.5, at the end 1.6", None),
    ]
    table = bench_table.render(rows, tmp_path)
    assert ("| the sweep | 25 | 22.3 | 13.2 | 3.50 | 6.37 | 84 % | machine otherwise idle; load at the end 2.2 | "
            "abc1234, 2026-11-25 20:08 UTC | benchmarks/bench_sweeps.json |") in table
    assert "| SLURM | 126 | — | 97.0 | — | — | — |" in table


def test_a_scale_run_in_the_checkout_is_preferred(tmp_path):
    write_records(tmp_path, scale_in_results=True)
    rows = bench_table.collect(tmp_path)
    assert [r["run"] for r in rows if "scale" in r["run"]] == ["make scale, this checkout's run"]
    assert rows[3]["source"] == tmp_path / ".scale" / "results" / "run_time.json"


def test_a_missing_or_broken_record_names_its_file(tmp_path):
    write_records(tmp_path)
    (tmp_path / "benchmarks" / "cluster.json").unlink()
    with pytest.raises(FileNotFoundError, match="cluster.json: no run record"):
        bench_table.collect(tmp_path)
    (tmp_path / "benchmarks" / "cluster.json").write_text('{"rows": [{"run": "x"}], "machine": {}}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"cluster.json: rows\[0\]: row has no 'jobs'"):
        bench_table.collect(tmp_path)


def test_the_project_records_are_readable():
    """The records committed in benchmarks/ are what `make bench` reads: each one parses and has its rows."""
    rows = bench_table.collect(ROOT)
    assert {Path(r["source"]).name for r in rows} >= {"bench_runs.json", "bench_sweeps.json", "scale_add_eps.json",
                                                      "cluster.json"}
    assert all(r["jobs"] > 0 and (r["cpu_s"] is None or r["cpu_s"] > 0) for r in rows)
