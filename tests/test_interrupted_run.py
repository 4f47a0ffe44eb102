"""A run killed with SIGKILL mid-way leaves nothing that looks complete, and rerunning with the README's
command (after ``--unlock``, see docs/troubleshooting.md) gives byte-identical tables to an uninterrupted run.

The lock's staleness is decided from this directory's own processes (``privanomaly.run.guard``),
a second run of the same directory is refused while the first is alive, leftover temporary files of
killed writers are removed by the next run, and no run writes outside its results/resources directories.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import workflow_copy as wf

from privanomaly import io
from privanomaly.run import guard as runguard


@pytest.fixture(scope="module")
def reference_run(dag_run):
    """The whole .test DAG's run, read for the files the jobs of the interrupted run's targets write."""
    return wf.reference_run(dag_run)


@pytest.fixture(scope="module")
def interrupted(reference_run):
    return wf.interrupted_run(reference_run)


@pytest.mark.mirror
@pytest.mark.slow
def test_sigkill_mid_run_then_rerun_incomplete_gives_identical_tables(reference_run, interrupted):
    """The run (``--cores 1``, tests/workflow_copy.py:interrupted_run) is SIGKILLed once a third of the tables
    exist; what it left is absent or complete; the README's command, after the guard removed the stale lock,
    finishes it with tables byte-identical to the uninterrupted reference run."""
    ref = reference_run.csv_bytes()
    assert ref, "the reference run produced no CSV table"
    # 1. the run was SIGKILLed (whole process group) while it was running
    assert not interrupted.finished_before_kill, "the run finished before it could be killed: pick slower targets"

    # 2. whatever the killed run left is either absent or complete: every visible table equals the reference
    partial = interrupted.partial
    assert len(partial) < len(ref), "everything was already written: the kill was not mid-way"
    half_written = [rel for rel, b in partial.items() if ref.get(rel) != b]
    assert half_written == [], f"the killed run left tables that differ from the reference: {half_written}"

    # 3. the README's command refuses to run on the stale lock with a message saying what to do ...
    locked = interrupted.locked
    if locked.returncode != 0:
        assert "--unlock" in locked.stdout + locked.stderr
        # 4. ... the Makefile's guard sees that no run of *this* directory is alive (whatever else runs on the
        # machine, e.g. the reference run's copy) and removes the stale lock; then the same command completes
        assert interrupted.live_runs == []
        assert interrupted.guard.returncode == 0, interrupted.guard.stderr
        assert not interrupted.lock_left, "the stale lock was not removed"
    final = interrupted.final
    assert sorted(final) == sorted(ref)
    differing = [rel for rel in ref if final[rel] != ref[rel]]
    assert differing == [], f"tables differ from the uninterrupted run: {differing}"


# ---------------------------------------------------------------- no run writes outside its directories


@pytest.mark.mirror
@pytest.mark.slow
def test_a_run_writes_nothing_outside_results_and_resources(reference_run):
    """The reference run (the whole .test DAG's run, in a copy of the checkout) leaves every other file as it was
    and adds none elsewhere."""
    copy = reference_run.copy
    allowed = (wf.RESULTS + "/", "resources/", ".snakemake/")
    # the copy keeps the checkout's mtimes (copy2); Snakemake's log is created when the run starts
    started = min(p.stat().st_mtime for p in (copy / ".snakemake" / "log").glob("*.snakemake.log")) - 1.0
    written = [
        p.relative_to(copy).as_posix()
        for p in copy.rglob("*")
        if p.is_file()
        and not p.relative_to(copy).as_posix().startswith(allowed)
        and "__pycache__" not in p.parts
        and p.stat().st_mtime >= started
    ]
    assert written == [], f"the run wrote outside results/resources: {written}"


# ---------------------------------------------------------------- the run guard (make reproduce / make test)


def _fake_snakemake(tmp_path: Path, workdir: Path) -> subprocess.Popen:
    """A process whose command line is ``python .../bin/snakemake`` (as a venv's entry point) in ``workdir``."""
    exe = tmp_path / "bin" / "snakemake"
    exe.parent.mkdir(exist_ok=True)
    exe.write_text("import time\ntime.sleep(60)\n")
    return subprocess.Popen([sys.executable, str(exe), "--cores", "1"], cwd=workdir)


def _guard(directory: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "privanomaly.run.guard", *extra, str(directory)], capture_output=True, text=True
    )


@pytest.mark.subprocess
@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc")
def test_guard_refuses_while_a_run_of_the_same_directory_is_alive(tmp_path):
    here, elsewhere = tmp_path / "checkout", tmp_path / "other-checkout"
    here.mkdir()
    elsewhere.mkdir()
    other = _fake_snakemake(tmp_path, elsewhere)
    try:
        # a Snakemake in another directory (another user, another checkout) does not count
        assert _guard(here).returncode == 0
        mine = _fake_snakemake(tmp_path, here)
        try:
            time.sleep(0.2)
            assert [p.pid for p in runguard.live_runs(here)] == [mine.pid]
            proc = _guard(here, "--unlock")
            assert proc.returncode == 1
            assert f"another Snakemake run of {here} is running" in proc.stderr and f"pid {mine.pid}" in proc.stderr
            assert "its own results_dir" in proc.stderr
        finally:
            mine.kill()
            mine.wait()
        assert _guard(here).returncode == 0
    finally:
        other.kill()
        other.wait()


def test_guard_recognises_snakemake_command_lines_and_directory_option(tmp_path):
    assert runguard.is_snakemake(["/x/.venv/bin/python", "/x/.venv/bin/snakemake", "--cores", "2"])
    assert runguard.is_snakemake(["snakemake", "-n"])
    assert runguard.is_snakemake(["python3", "-m", "snakemake", "--cores", "1"])
    assert not runguard.is_snakemake(["python", "/x/scripts/prepare.py"])
    assert not runguard.is_snakemake(["vim", "Snakefile", "snakemake"])
    assert runguard._workdir(tmp_path, ["snakemake", "-d", "sub"]) == (tmp_path / "sub").resolve()
    assert runguard._workdir(tmp_path, ["snakemake", "--directory=sub"]) == (tmp_path / "sub").resolve()
    assert runguard._workdir(tmp_path, ["snakemake"]) == tmp_path


def test_makefile_runs_the_guard_before_snakemake_and_pytest():
    text = (wf.ROOT / "Makefile").read_text()
    assert "pgrep" not in text  # "any snakemake on the machine" is not this directory's run
    assert "UNLOCK_IF_IDLE := $(BIN)/python -m privanomaly.run.guard --unlock" in text
    for target in ("reproduce", "test", "gallery"):
        body = text.split(f"\n{target}: ", 1)[1].split("\n\n", 1)[0]
        first = [line.strip() for line in body.splitlines()[1:]][0]
        assert first == "@$(UNLOCK_IF_IDLE)", f"make {target} does not check for a live run first: {first!r}"


# ---------------------------------------------------------------- leftovers of killed writers


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _killed_mid_copy(target: Path, size: int = 1 << 20) -> Path:
    """Start a writer that is SIGKILLed inside atomic_path (as a kill during a mirror copy); return its leftover."""
    code = (
        "import os, signal, sys\n"
        "from privanomaly import io\n"
        "with io.atomic_path(sys.argv[1]) as tmp:\n"
        f"    tmp.write_bytes(b'x' * {size})\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(target)], env={**os.environ, "PYTHONPATH": str(wf.ROOT / "src")})
    assert proc.returncode == -signal.SIGKILL
    (left,) = [p for p in target.parent.iterdir() if p.name.startswith(f".{target.name}.")]
    assert left.stat().st_size == size and not target.exists()
    return left


@pytest.mark.subprocess
def test_leftover_of_a_killed_copy_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "raw" / "adult" / "adult.data"
    target.parent.mkdir(parents=True)
    left = _killed_mid_copy(target)
    # a live writer's temporary file (this process) and one from another machine are left alone
    live = target.parent / f".adult.data.{socket.gethostname().split('.')[0]}-{os.getpid()}.abc.tmp.data"
    remote = target.parent / f".adult.data.some-other-node-{_dead_pid()}.abc.tmp.data"
    live.write_text("being written")
    remote.write_text("on another node")
    assert io.stale_temporaries(target.parent) == [left]
    io.write_text(target, "the complete file\n")
    assert sorted(p.name for p in target.parent.iterdir()) == sorted(["adult.data", live.name, remote.name])


@pytest.mark.subprocess
def test_run_start_sweeps_stale_temporaries_recursively(tmp_path):
    deep = tmp_path / "results" / "paper_a" / "tables"
    deep.mkdir(parents=True)
    left = _killed_mid_copy(deep / "table2.csv", size=10)
    keep = deep / ".notes.txt"  # a hidden file that is not one of ours
    keep.write_text("user file")
    assert io.remove_stale_temporaries(tmp_path / "results") == [left]
    assert sorted(p.name for p in deep.iterdir()) == [".notes.txt"]
    assert "remove_stale_temporaries" in (wf.ROOT / "workflow" / "rules" / "data.smk").read_text()


# ---------------------------------------------------------------- disk full


def test_disk_full_during_a_mirror_copy_leaves_no_file_and_no_temporary(tmp_path, monkeypatch):
    """ENOSPC half-way through copying a raw file: neither the file nor a temporary copy is left."""
    import errno
    import shutil

    from privanomaly.datasets import sources

    mirror = tmp_path / "mirror"
    (mirror / "x").mkdir(parents=True)
    (mirror / "x" / "f.csv").write_bytes(b"a,label\n" + b"1,0\n" * 1000)

    def half_then_enospc(src, dst):
        Path(dst).write_bytes(Path(src).read_bytes()[:2000])
        raise OSError(errno.ENOSPC, "No space left on device", str(dst))

    monkeypatch.setattr(shutil, "copyfile", half_then_enospc)
    dest = tmp_path / "resources" / "raw" / "x" / "f.csv"
    with pytest.raises(OSError, match="No space left on device"):
        sources.fetch("x/f.csv", dest, url=None, sha256=None, mirror=str(mirror))
    assert sorted(p.name for p in dest.parent.iterdir()) == []


def test_disk_full_while_writing_a_table_keeps_the_old_table(tmp_path, monkeypatch):
    import errno

    import pandas as pd

    target = tmp_path / "table.csv"
    io.write_table(pd.DataFrame({"a": [1.0]}), target)
    before = target.read_bytes()

    def enospc(self, path, *args, **kwargs):
        Path(path).write_text("a\n2")  # part of the new table, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", enospc)
    with pytest.raises(OSError, match="No space left"):
        io.write_table(pd.DataFrame({"a": [2.0, 3.0]}), target)
    assert target.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]
