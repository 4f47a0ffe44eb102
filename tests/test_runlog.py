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
