"""tools/cluster_check.py (make test-cluster): reading Snakemake's SLURM log, the values sacct must show, and
the byte-for-byte table comparison. The cluster itself is exercised by `make test-cluster` (root, minutes)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("cluster_check", ROOT / "tools" / "cluster_check.py")
cc = importlib.util.module_from_spec(_spec)
sys.modules["cluster_check"] = cc  # dataclasses look their module up there
_spec.loader.exec_module(cc)

# An excerpt of a real `snakemake --profile profiles/slurm` log (paths shortened).
LOG = """Select jobs to execute...
Execute 3 jobs...

[Mon Nov 23 18:29:26 2026]
rule paper_a_fig1_data:
    output: r/paper_a/work/fig1/frontier.csv, r/paper_a/work/fig1/min_worst_error.csv
    log: r/logs/paper_a_fig1_data/all.log
    jobid: 37
    benchmark: r/benchmarks/paper_a_fig1_data/all.tsv
    reason: Missing output files: r/paper_a/work/fig1/min_worst_error.csv
    resources: tmpdir=<TBD>, mem_mb=4000, mem=4 GB, mem_mib=3815, disk_mb=50000, disk=50 GB, disk_mib=47684, runtime=30
Shell command: None
No SLURM account given, trying to guess.

[Mon Nov 23 18:29:26 2026]
rule paper_a_select:
    input: r/data/thyroid.parquet
    output: r/paper_a/work/selection/thyroid.csv, r/paper_a/work/selection/thyroid.json
    jobid: 14
    wildcards: pa_dataset=thyroid
    threads: 2
    resources: tmpdir=<TBD>, mem_mb=8000, mem=8 GB, mem_mib=7630, disk_mb=50000, disk=50 GB, disk_mib=47684, runtime=1500
Shell command: None

[Mon Nov 23 18:29:27 2026]
localrule paper_a_table1:
    input: r/data/thyroid.json
    output: r/paper_a/tables/table1.csv
    jobid: 60
    resources: tmpdir=/tmp
Shell command: None
Job 37 has been submitted with SLURM jobid 2 (log: /x/.snakemake/slurm_logs/rule_paper_a_fig1_data/2.log).
Job 14 has been submitted with SLURM jobid 3 (log: /x/.snakemake/slurm_logs/rule_paper_a_select/thyroid/3.log).
"""


def test_parse_log_jobs_resources_and_slurm_ids():
    jobs = cc.parse_log(LOG)
    assert sorted(jobs) == [14, 37, 60]
    fig1, select, table1 = jobs[37], jobs[14], jobs[60]
    assert (fig1.rule, fig1.local, fig1.threads, fig1.slurm_id) == ("paper_a_fig1_data", False, 1, "2")
    assert (select.wildcards, select.threads, select.slurm_id) == ("pa_dataset=thyroid", 2, "3")
    assert table1.local and table1.slurm_id is None
    assert cc.expected(fig1) == {"ReqCPUS": "1", "ReqMem": "4000M", "Timelimit": "00:30:00"}
    assert cc.expected(select) == {"ReqCPUS": "2", "ReqMem": "8000M", "Timelimit": "1-01:00:00"}


def test_timelimit_text():
    assert [cc.minutes_to_timelimit(m) for m in (1, 20, 60, 90, 1440, 2881)] == [
        "00:01:00", "00:20:00", "01:00:00", "01:30:00", "1-00:00:00", "2-00:01:00"]


def test_compare_tables(tmp_path):
    local, slurm = tmp_path / "local", tmp_path / "slurm"
    for d in (local, slurm):
        (d / "paper_a" / "tables").mkdir(parents=True)
        (d / "logs").mkdir()
        (d / "paper_b" / "timing").mkdir(parents=True)
    (local / "paper_a/tables/t1.csv").write_text("a,b\n1,2\n")
    (slurm / "paper_a/tables/t1.csv").write_text("a,b\n1,2\n")
    (local / "paper_a/tables/t2.md").write_text("| a |\n")
    (slurm / "paper_a/tables/t2.md").write_text("| b |\n")
    (local / "paper_a/tables/t3.csv").write_text("x\n")  # missing in the SLURM run
    (local / "logs/x.md").write_text("1")
    (slurm / "logs/x.md").write_text("2")
    (local / "paper_b/timing/adult.csv").write_text("1.0\n")
    (slurm / "paper_b/timing/adult.csv").write_text("2.0\n")
    same, diff, skipped = cc.compare_tables(local, slurm)
    assert same == ["paper_a/tables/t1.csv"]
    assert diff == ["paper_a/tables/t2.md", "paper_a/tables/t3.csv"]
    assert skipped == ["paper_b/timing/adult.csv"]
