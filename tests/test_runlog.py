"""privanomaly.run.log: a job's log says what its start-up cost and what the whole job cost."""

from __future__ import annotations

import re

import pytest

from privanomaly.run import log as runlog


def test_log_records_start_up_then_usage(tmp_path):
    log = tmp_path / "job.log"
    with runlog.log_to(log) as logger:
        sum(i * i for i in range(200_000))  # some work of the body
        logger.info("body done")
    text = log.read_text(encoding="utf-8")
    start = float(re.search(r"job start: cpu_s=([0-9.]+)", text).group(1))
    m = re.search(r"job usage: cpu_user_s=([0-9.]+) cpu_sys_s=([0-9.]+)", text)
    end = float(m.group(1)) + float(m.group(2))
    assert text.index("job start:") < text.index("body done") < text.index("job usage:")
    assert 0 < start <= end + 0.01


def test_read_job_cpu_reads_back_the_start_and_usage_lines():
    """The benchmarks read a job's CPU off its log with runlog.read_job_cpu: the last line of each kind."""
    start, usage = runlog.start_line(), runlog.usage_line()
    job = runlog.read_job_cpu(f"x INFO {runlog.START_PREFIX} cpu_s=9.000\ny INFO {start}\nwork\nz INFO {usage}\n")
    assert job.start_cpu_s == float(start.split("=")[1]) and job.start_cpu_s != 9.0
    fields = dict(kv.split("=") for kv in usage.split(": ")[1].split())
    assert job.cpu_s == float(fields["cpu_user_s"]) + float(fields["cpu_sys_s"]) + float(fields["cpu_children_s"])
    assert job.peak_rss_mb == max(float(fields["peak_rss_mb"]), float(fields["peak_rss_children_mb"]))
    assert runlog.read_job_cpu(f"{start}\nno usage: the body did not finish") is None
    assert runlog.read_job_cpu(usage).start_cpu_s is None


@pytest.mark.subprocess
def test_a_job_ends_without_the_final_collections(tmp_path):
    """A process that ran a job body under log_to freezes its objects at exit (the shutdown's garbage
    collections skip them); a process that did not, does not; nothing is frozen before exit."""
    import subprocess
    import sys

    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
             "from privanomaly.run import log as runlog\n"
             "if sys.argv[1] == 'job':\n"
             "    with runlog.log_to(sys.argv[2]):\n"
             "        runlog.skip_collection_at_exit()  # a second call registers nothing more\n"
             "print('frozen in the body:', gc.get_freeze_count() > 0)\n")
    for mode, frozen in (("job", "True"), ("plain", "False")):
        out = subprocess.run([sys.executable, "-c", probe, mode, str(tmp_path / "job.log")], capture_output=True,
                             text=True, check=True).stdout
        assert out.splitlines() == ["frozen in the body: False", f"frozen at exit: {frozen}"]
