"""privanomaly.runlog: a job's log says what its start-up cost and what the whole job cost."""

from __future__ import annotations

import re

from privanomaly import runlog


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
