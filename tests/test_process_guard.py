"""The split between ``make check`` and the rest of ``make test`` stays true (tests/process_guard.py): an unmarked
test that starts a process - in its body or in a fixture - or loads the workflow through the Snakemake API fails,
naming what it started; a marked one passes. And a checkout without the datasets mirror skips the tests that need
it, saying how to set it, instead of failing them ("loading the workflow failed").

Marked subprocess: the inner tests start real processes (``true``), and the mirror check runs pytest anew."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[1]

INNER = '''
import os
import subprocess

import pytest


@pytest.fixture(scope="module")
def started_in_a_fixture():
    return subprocess.run(["true"]).returncode


def test_runs_a_command():
    assert subprocess.run(["true"]).returncode == 0


def test_forks():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    assert os.waitpid(pid, 0)[1] == 0


def test_uses_a_fixture_that_runs_a_command(started_in_a_fixture):
    assert started_in_a_fixture == 0


def test_loads_the_workflow():
    import snakemake.api

    with pytest.raises(Exception):  # recorded before the (here bogus) call fails
        snakemake.api.SnakemakeApi.workflow(None)


@pytest.mark.subprocess
def test_marked_subprocess():
    assert subprocess.run(["true"]).returncode == 0


@pytest.mark.slow
def test_marked_slow():
    assert subprocess.run(["true"]).returncode == 0


def test_pure():
    assert sum(range(4)) == 6
'''


def test_an_unmarked_test_that_starts_a_process_fails_naming_it(pytester: pytest.Pytester):
    import snakemake.api  # noqa: F401 - loaded, as by a test module that loads the workflow in-process

    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_inprocess("-p", "process_guard", "-p", "no:cacheprovider", "-rA")
    # passed: the two marked tests and the pure one; the fixture's process fails its first test's setup
    result.assert_outcomes(passed=3, failed=3, errors=1)
    out = result.stdout.str()
    for name in ("test_runs_a_command", "test_forks", "test_uses_a_fixture_that_runs_a_command",
                 "test_loads_the_workflow"):
        assert f"test_inner.py::{name} started a process or loaded the workflow without a mark" in out, name
    assert "subprocess: true" in out and "os.fork" in out and "SnakemakeApi.workflow" in out
    assert "@pytest.mark.subprocess" in out


def test_without_a_mirror_the_workflow_tests_are_skipped_saying_how_to_set_it(tmp_path):
    missing = tmp_path / "no-such-mirror"
    env = {**os.environ, "PRIVANOMALY_MIRROR": str(missing)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "tests/test_report_workflow.py",
         "tests/test_data_loaders.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "loading the workflow failed" not in out and " error" not in out, out[-3000:]
    skipped = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) >= 2, out[-3000:]  # one line per module at least (-rs groups equal reasons)
    for line in skipped:
        assert f"no datasets mirror at {missing}" in line and "PRIVANOMALY_MIRROR" in line, line
