"""privanomaly.run.record: a run's record as checked JSON."""

from __future__ import annotations

import json
import math

import pytest

from privanomaly.run import record as runrecord


@pytest.mark.subprocess
def test_write_then_read_round_trip(tmp_path):
    m = runrecord.machine([0.25, 0.5, 1.0], "machine otherwise idle", tmp_path)
    rows = [runrecord.row("default run", 138, 129.0, 252.0, 199.0), runrecord.row("part", 3, None, 4.0, None)]
    runrecord.write(tmp_path / "r.json", "bench_runs", rows, m)
    rec = runrecord.read(tmp_path / "r.json")
    assert rec["record"] == "bench_runs" and rec["rows"] == rows
    assert rec["machine"]["load_start"] == [0.25, 0.5, 1.0] and len(rec["machine"]["load_end"]) == 3
    assert rec["machine"]["commit"] == "unknown"  # tmp_path is not a git checkout
    assert rec["machine"]["note"] == "machine otherwise idle"
    # key-sorted JSON: the same record twice is the same bytes
    first = (tmp_path / "r.json").read_bytes()
    runrecord.write(tmp_path / "r.json", "bench_runs", rows, m)
    assert (tmp_path / "r.json").read_bytes() == first


@pytest.mark.parametrize("bad, message", [
    ({"run": "x", "jobs": 1, "wall_s": 1.0, "cpu_s": 1.0}, "row has no 'work_cpu_s'"),
    ({"run": "x", "jobs": "7", "wall_s": 1.0, "cpu_s": 1.0, "work_cpu_s": None}, "'jobs' is '7'; expected int"),
    ({"run": "x", "jobs": True, "wall_s": 1.0, "cpu_s": 1.0, "work_cpu_s": None}, "'jobs' is True"),
    ({"run": "x", "jobs": 1, "wall_s": math.nan, "cpu_s": 1.0, "work_cpu_s": None}, "'wall_s' is nan; expected a finite"),
    ({"run": "x", "jobs": 1, "wall_s": 1.0, "cpu_s": -2.0, "work_cpu_s": None}, "'cpu_s' is -2.0; expected a finite"),
    ({"run": 3, "jobs": 1, "wall_s": 1.0, "cpu_s": 1.0, "work_cpu_s": None}, "'run' is 3; expected str"),
])
def test_a_bad_row_is_refused_naming_the_field(tmp_path, bad, message):
    with pytest.raises(ValueError, match=message):
        runrecord.write(tmp_path / "r.json", "x", [bad], {})
    assert not (tmp_path / "r.json").exists()
    (tmp_path / "r.json").write_text(json.dumps({"rows": [bad], "machine": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"r.json: rows\[0\]: " + message.split(";")[0].replace("(", r"\(")):
        runrecord.read(tmp_path / "r.json")


@pytest.mark.parametrize("text, message", [
    ("{not json", "not a readable JSON run record"),
    ('{"rows": [], "machine": {}}', "non-empty 'rows' list"),
    ('{"rows": [{"run": "x", "jobs": 1, "wall_s": 1, "cpu_s": 1, "work_cpu_s": 1}]}', "'machine' object"),
])
def test_a_malformed_record_names_the_file(tmp_path, text, message):
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"r.json: .*{message}"):
        runrecord.read(tmp_path / "r.json")
    (tmp_path / "d.json").mkdir()
    with pytest.raises(ValueError, match="d.json: not a readable JSON run record"):
        runrecord.read(tmp_path / "d.json")


def test_machine_text_says_the_note_and_the_loads():
    assert runrecord.machine_text({"note": "idle", "load_start": [0.31, 1, 1], "load_end": [2.16]}) == \
        "idle; load at the start 0.3, at the end 2.2"
    assert runrecord.machine_text({"note": "", "load_start": None, "load_end": [1.0, 1.0, 1.0]}) == "load at the end 1.0"
    assert runrecord.machine_text({}) == "not stated"


@pytest.mark.subprocess
def test_commit_of_this_checkout():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert runrecord.commit(root).removesuffix("+dirty") == head


@pytest.mark.subprocess
def test_a_changed_benchmark_record_does_not_make_the_commit_dirty(tmp_path):
    import subprocess

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "r.md").write_text("a\n")
    (tmp_path / "code.py").write_text("a\n")
    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "0")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "1")
    clean = runrecord.commit(tmp_path)
    assert len(clean) >= 7 and not clean.endswith("+dirty")
    (tmp_path / "benchmarks" / "r.md").write_text("b\n")  # a benchmark rewrote its record
    assert runrecord.commit(tmp_path) == clean
    (tmp_path / "code.py").write_text("b\n")  # the measured code changed
    assert runrecord.commit(tmp_path) == clean + "+dirty"
