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
    jobs, groups = cc.parse_log(LOG)
    assert groups == []
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


# A group job as Snakemake logs it: the members' rule blocks indented under "Group job NAME", the
# submission named by the uuid of one member (paths shortened).
GROUP_LOG = """[Wed Nov 25 15:42:50 2026] Group job small (jobs in lexicogr. order):

    [Wed Nov 25 15:42:50 2026]
    rule paper_b_tune_r:
        input: r/data/adult.parquet
        output: r/paper_b/work/tuning/adult.json
        jobid: 21
        wildcards: pb_dataset=adult
        resources: tmpdir=/tmp, mem_mb=2000, mem=2 GB, mem_mib=1908, runtime=10
Shell command: None

    [Wed Nov 25 15:42:50 2026]
    rule paper_b_timing:
        input: r/paper_b/work/tuning/adult.json, r/data/adult.parquet
        output: r/paper_b/timing/adult.csv
        jobid: 22
        wildcards: pb_dataset=adult
        resources: tmpdir=/tmp, mem_mb=2000, mem=2 GB, mem_mib=1908, runtime=15
Shell command: None

    [Wed Nov 25 15:42:50 2026]
    rule paper_a_select:
        input: r/data/thyroid.parquet
        output: r/paper_a/work/selection/thyroid.csv
        jobid: 14
        wildcards: pa_dataset=thyroid
        threads: 2
        resources: tmpdir=/tmp, disk_mb=<TBD>, mem_mb=8000, mem=8 GB, mem_mib=7630, runtime=30
Shell command: None

    [Wed Nov 25 15:42:50 2026]
    rule provenance:
        output: r/provenance.json
        jobid: 3
        resources: tmpdir=/tmp, mem_mb=4000, mem=4 GB, mem_mib=3815, runtime=30
Shell command: None

[Wed Nov 25 15:42:51 2026]
rule prepare:
    input: m/thyroid.csv
    output: r/data/thyroid.parquet
    jobid: 7
    wildcards: dataset=thyroid
    resources: tmpdir=<TBD>, mem_mb=8000, mem=8 GB, mem_mib=7630, runtime=20
Shell command: None
Job 7 has been submitted with SLURM jobid 5 (log: /x/.snakemake/slurm_logs/rule_prepare/thyroid/5.log).
Job {uuid} has been submitted with SLURM jobid 6 (log: /x/.snakemake/slurm_logs/group_small/6.log).
[Wed Nov 25 15:43:30 2026]
Finished jobid: 7 (Rule: prepare)
[Wed Nov 25 15:44:30 2026]
Finished jobid: 21 (Rule: paper_b_tune_r)
Finished jobid: 22 (Rule: paper_b_timing)
Finished jobid: 14 (Rule: paper_a_select)
Finished jobid: 3 (Rule: provenance)
"""


def _group_log():
    from snakemake.common import get_uuid

    # Snakemake names a group job by the uuid of one member: rule name and sorted wildcards
    return GROUP_LOG.replace("{uuid}", str(get_uuid("paper_b_timing:pb_dataset:adult")))


def test_parse_log_group_members_and_submission_by_uuid():
    jobs, groups = cc.parse_log(_group_log())
    assert sorted(jobs) == [3, 7, 14, 21, 22]
    (small,) = groups
    assert small.name == "small" and small.slurm_id == "6"
    assert [j.jobid for j in small.members] == [21, 22, 14, 3]
    assert jobs[7].group is None and jobs[7].slurm_id == "5"
    assert all(jobs[i].group is small and jobs[i].slurm_id is None for i in (3, 14, 21, 22))
    assert jobs[22].input == ["r/paper_b/work/tuning/adult.json", "r/data/adult.parquet"]
    # paper_b_timing reads paper_b_tune_r's output: a later toposort level
    assert [[j.jobid for j in level] for level in small.levels()] == [[3, 14, 21], [22]]
    assert small.rules == "paper_a_select, paper_b_timing, paper_b_tune_r, provenance"


def test_group_request_is_snakemakes_aggregate():
    _, (small,) = cc.parse_log(_group_log())
    # unbounded: level 1 side by side (1+2+1 threads, 4000+8000+2000 MB, max runtime 30), then level 2 (15)
    assert cc.expected_group(small) == {"ReqCPUS": "4", "ReqMem": "14000M", "Timelimit": "00:45:00"}
    # cores 2: level 1 splits into layers within 2 cores -> paper_a_select alone (2 threads, 8000 MB),
    # provenance + tune_r (2 threads, 6000 MB); runtimes 30 + 30, then level 2's 15
    assert cc.expected_group(small, cores=2) == {"ReqCPUS": "2", "ReqMem": "8000M", "Timelimit": "01:15:00"}


def _records(state="COMPLETED", req=("2", "8000M", "01:15:00"), comment="rule_small_paper_a_select_x"):
    cpus, mem, limit = req
    base = {"ExitCode": "0:0", "Elapsed": "00:00:30"}
    return {
        "5": {**base, "JobID": "5", "State": "COMPLETED", "ReqCPUS": "1", "ReqMem": "8000M",
              "Timelimit": "00:20:00", "Comment": "rule_prepare_wildcards_thyroid"},
        "5.batch": {**base, "JobID": "5.batch", "State": "COMPLETED"},
        "6": {**base, "JobID": "6", "State": "COMPLETED", "ReqCPUS": cpus, "ReqMem": mem, "Timelimit": limit,
              "Comment": comment, "TotalCPU": "01:02.500"},
        "6.batch": {**base, "JobID": "6.batch", "State": state},
        "6.extern": {**base, "JobID": "6.extern", "State": "COMPLETED"},
        "6.0": {**base, "JobID": "6.0", "State": "COMPLETED"},
        "6.1": {**base, "JobID": "6.1", "State": "COMPLETED"},
    }


def test_check_submissions_group_passes_and_fails():
    text = _group_log()
    jobs, groups = cc.parse_log(text)
    finished = cc.finished_ids(text)
    assert finished == {3, 7, 14, 21, 22}
    problems, rows = cc.check_submissions(jobs, groups, _records(), finished, cores=2)
    assert problems == []
    assert [r.split(" | ")[:3] for r in rows] == [
        ["| 5", "prepare", "dataset=thyroid"],
        ["| 6", "group small: paper_a_select, paper_b_timing, paper_b_tune_r, provenance", "4 jobs"]]
    # Snakemake starts (batch step + two srun steps) and sacct's TotalCPU in seconds
    assert [r.split(" | ")[-2:] for r in rows] == [["1", "0.0 |"], ["3", "62.5 |"]]
    # the old reading: each member checked against its own request and its own rule in the comment
    problems, _ = cc.check_submissions(jobs, groups, _records(req=("1", "2000M", "00:15:00")), finished, 2)
    assert problems == ["SLURM job 6 (group small: paper_a_select, paper_b_timing, paper_b_tune_r, provenance): "
                        f"{k} {v!r}, requested {w!r}" for k, v, w in
                        (("ReqCPUS", "1", "2"), ("ReqMem", "2000M", "8000M"), ("Timelimit", "00:15:00", "01:15:00"))]
    problems, _ = cc.check_submissions(jobs, groups, _records(state="FAILED"), finished, cores=2)
    assert problems == ["SLURM job 6 (group small: paper_a_select, paper_b_timing, paper_b_tune_r, provenance): "
                        "step 6.batch FAILED exit 0:0"]
    problems, _ = cc.check_submissions(jobs, groups, _records(comment="rule_figures_x"), finished, cores=2)
    assert problems == ["SLURM job 6: comment 'rule_figures_x' does not start with 'rule_small_'"]
    problems, _ = cc.check_submissions(jobs, groups, _records(), finished - {22}, cores=2)
    assert problems == ["SLURM job 6 (group small: paper_a_select, paper_b_timing, paper_b_tune_r, provenance): "
                        "not reported finished: paper_b_timing (jobid 22)"]


def test_cpu_seconds_and_snakemake_starts():
    assert cc.cpu_seconds("00:02.250") == 2.25
    assert cc.cpu_seconds("01:02:03") == 3723.0
    assert cc.cpu_seconds("1-00:00:01") == 86401.0
    assert cc.cpu_seconds("") == 0.0
    records = _records()
    assert cc.snakemake_starts(records, "6") == 3  # 6.batch, 6.0, 6.1 (6.extern starts nothing)
    assert cc.snakemake_starts(records, "5") == 1
    assert cc.snakemake_starts(records, "7") == 0


def test_cpu_summary():
    records = _records()
    assert cc.cpu_summary(records, ["5", "6"]) == (
        "Inside SLURM: 4 Snakemake starts (a batch step and one per srun step of each submission), "
        "62 s CPU in all (sacct TotalCPU).\n\n")
    text = cc.cpu_summary(records, ["5", "6"], local_cpu=50.0, submit_cpu=12.5)
    assert text.endswith("CPU of the whole run: local 50 s (Snakemake and its jobs); SLURM 75 s (12 s submitting "
                         "Snakemake + 62 s inside SLURM) = 1.50 x the local CPU.\n\n")


def test_check_submissions_group_without_submission():
    text = _group_log().replace("Job ", "Skipped ", 2)  # neither submission line
    jobs, groups = cc.parse_log(text)
    problems, _ = cc.check_submissions(jobs, groups, {}, cc.finished_ids(text), cores=2)
    assert problems == [
        "no job was submitted to SLURM (no 'submitted with SLURM jobid' in the log)",
        "5 non-local jobs without a SLURM job id: paper_a_select, paper_b_timing, paper_b_tune_r, prepare, provenance"]


def test_profile_constraints(tmp_path):
    (tmp_path / "config.yaml").write_text("executor: slurm\ncores: 2\nresources:\n  - mem_mb=20000\n")
    assert cc.profile_constraints(tmp_path) == (2, {"mem_mb": 20000})
    (tmp_path / "config.yaml").write_text("executor: slurm\n")
    assert cc.profile_constraints(tmp_path) == (None, {})
    assert cc.profile_constraints(ROOT / "profiles" / "slurm")[0] == 2


def test_parse_log_blocks_without_blank_line_between():
    # a real excerpt: the submission line follows "Shell command: None" directly, and the next job's block
    # can start without a blank line; every job must still be read
    text = """[Wed Nov 25 16:01:08 2026]
rule paper_a_fig_compiler:
    input: r/paper_a/work/compiler/thyroid.csv
    output: r/paper_a/figures/compiler.png
    jobid: 26
    resources: tmpdir=<TBD>, mem_mb=4000, mem=4 GB, mem_mib=3815, runtime=30
Shell command: None
Job 26 has been submitted with SLURM jobid 87 (log: /x/87.log).
[Wed Nov 25 16:01:13 2026]
Finished jobid: 42 (Rule: paper_a_detection)
rule paper_b_tune_r:
    input: r/data/adult_b2.parquet
    output: r/paper_b/work/tuning/adult_b2.json
    jobid: 60
    wildcards: pb_dataset=adult_b2
    resources: tmpdir=<TBD>, mem_mb=2000, mem=2 GB, mem_mib=1908, runtime=10
Shell command: None
Job 60 has been submitted with SLURM jobid 88 (log: /x/88.log).
"""
    jobs, _ = cc.parse_log(text)
    assert sorted(jobs) == [26, 60]
    assert (jobs[26].rule, jobs[26].slurm_id, jobs[26].resources["mem_mb"]) == ("paper_a_fig_compiler", "87", "4000")
    assert (jobs[60].wildcards, jobs[60].slurm_id) == ("pb_dataset=adult_b2", "88")
