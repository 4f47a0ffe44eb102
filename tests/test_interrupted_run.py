"""A run killed with SIGKILL mid-way leaves nothing that looks complete, and rerunning with the README's
command (after ``--unlock``, see docs/troubleshooting.md) gives byte-identical tables to an uninterrupted run.
"""

from __future__ import annotations

import subprocess
import time

import pytest
import workflow_copy as wf


@pytest.fixture(scope="module")
def reference_run():
    return wf.reference_run()


@pytest.mark.slow
def test_sigkill_mid_run_then_rerun_incomplete_gives_identical_tables(reference_run):
    ref = reference_run.csv_bytes()
    assert ref, "the reference run produced no CSV table"
    copy = wf.copy_workflow(wf.base_dir() / "killed")
    results = copy / wf.RESULTS

    # 1. start the run and SIGKILL its whole process group once some (not all) tables exist
    proc = wf.start_in_new_group(copy, cores=2)
    deadline = time.monotonic() + max(60.0, 3 * reference_run.seconds)
    want = max(1, len(ref) // 3)
    while time.monotonic() < deadline and proc.poll() is None:
        if len(wf.table_bytes(results)) >= want:
            break
        time.sleep(0.05)
    finished_before_kill = proc.poll() is not None
    if not finished_before_kill:
        wf.kill_group(proc)
    assert not finished_before_kill, "the run finished before it could be killed: pick slower targets"

    # 2. whatever the killed run left is either absent or complete: every visible table equals the reference
    partial = wf.table_bytes(results)
    assert len(partial) < len(ref), "everything was already written: the kill was not mid-way"
    half_written = [rel for rel, b in partial.items() if ref.get(rel) != b]
    assert half_written == [], f"the killed run left tables that differ from the reference: {half_written}"

    # 3. the README's command refuses to run on the stale lock with a message saying what to do ...
    locked = subprocess.run(
        wf.snakemake_cmd(2, "--rerun-incomplete", copy=copy), cwd=copy, env=wf.env_for(copy), capture_output=True, text=True
    )
    if locked.returncode != 0:
        assert "--unlock" in locked.stdout + locked.stderr
        wf.run(copy, 1, "--unlock")
        # 4. ... and after --unlock it completes the run
        wf.run(copy, 2, "--rerun-incomplete")
    final = wf.Run(copy, 0.0, "").csv_bytes()
    assert sorted(final) == sorted(ref)
    differing = [rel for rel in ref if final[rel] != ref[rel]]
    assert differing == [], f"tables differ from the uninterrupted run: {differing}"
