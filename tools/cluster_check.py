"""Proof for `make test-cluster` (tools/test_cluster.sh): the SLURM run really went through the scheduler.

1. From Snakemake's log: every job it submitted (rule, wildcards, threads, mem_mb, runtime) and its SLURM job id.
2. From ``sacct``: the accounting record of each of those job ids - state, exit code, ReqMem, Timelimit,
   ReqCPUS - which must be COMPLETED 0:0 and carry exactly the requested mem_mb / runtime / threads.
3. ``scontrol show job`` of one job (the largest memory request) as a second witness.
4. Tables of the SLURM run vs the local run, byte for byte (every .csv and .md outside logs/ and benchmarks/,
   except files that record wall-clock time by design).

Writes a Markdown report and exits non-zero on the first kind of failure found (after printing all).
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# Tables that hold wall-clock measurements by design (paper B's timing benchmark): they cannot match.
MACHINE_DEPENDENT = ("paper_b/timing/*.csv", "paper_b/tables/smooth_timing.*")
SACCT_FIELDS = ["JobID", "Comment", "State", "ExitCode", "ReqMem", "Timelimit", "ReqCPUS", "AllocCPUS",
                "Partition", "Account", "Elapsed", "NodeList"]


@dataclass
class Job:
    """One Snakemake job as printed in its log."""

    rule: str
    jobid: int
    local: bool
    wildcards: str = ""
    threads: int = 1
    resources: dict[str, str] = field(default_factory=dict)
    slurm_id: str | None = None


def parse_log(text: str) -> dict[int, Job]:
    """Jobs of a Snakemake log keyed by Snakemake job id, with the SLURM job id of submitted ones."""
    jobs: dict[int, Job] = {}
    block: list[str] | None = None
    head = None
    for line in text.splitlines() + [""]:
        m = re.match(r"^(local)?rule (\w+):\s*$", line)
        if m:
            head, block = m, []
            continue
        if block is not None:
            if line.strip():
                block.append(line.strip())
                continue
            info = dict(b.split(": ", 1) for b in block if ": " in b)
            if "jobid" in info:
                job = Job(rule=head.group(2), jobid=int(info["jobid"]), local=bool(head.group(1)),
                          wildcards=info.get("wildcards", ""), threads=int(info.get("threads", 1)))
                for item in info.get("resources", "").split(", "):
                    if "=" in item:
                        k, v = item.split("=", 1)
                        job.resources[k] = v
                jobs[job.jobid] = job
            block = None
    for m in re.finditer(r"Job (\d+) has been submitted with SLURM jobid (\d+)", text):
        if int(m.group(1)) in jobs:
            jobs[int(m.group(1))].slurm_id = m.group(2)
    return jobs


def minutes_to_timelimit(minutes: int) -> str:
    """SLURM's Timelimit text for a limit of ``minutes`` (``00:30:00``, ``1-00:00:00``)."""
    d, rem = divmod(int(minutes), 24 * 60)
    h, m = divmod(rem, 60)
    return f"{d}-{h:02d}:{m:02d}:00" if d else f"{h:02d}:{m:02d}:00"


def expected(job: Job) -> dict[str, str]:
    """What sacct must show for a job: its mem_mb, runtime and threads as SLURM records them."""
    out = {"ReqCPUS": str(max(job.threads, 1))}
    if "mem_mb" in job.resources:
        out["ReqMem"] = f"{int(float(job.resources['mem_mb']))}M"
    if "runtime" in job.resources:
        out["Timelimit"] = minutes_to_timelimit(int(float(job.resources["runtime"])))
    return out


def sacct(ids: list[str]) -> dict[str, dict[str, str]]:
    """sacct records (allocation lines only) of the given job ids."""
    out = subprocess.run(["sacct", "-P", "-n", "-X", "--starttime", "now-7days", "-j", ",".join(ids),
                          f"--format={','.join(SACCT_FIELDS)}"], check=True, capture_output=True, text=True).stdout
    rows = [dict(zip(SACCT_FIELDS, line.split("|"))) for line in out.splitlines() if line.strip()]
    return {r["JobID"]: r for r in rows}


def compare_tables(local: Path, slurm: Path) -> tuple[list[str], list[str], list[str]]:
    """(identical, different, skipped) relative paths of the tables of the two result directories."""
    same, diff, skipped = [], [], []
    files = sorted(p.relative_to(local).as_posix() for p in local.rglob("*") if p.suffix in (".csv", ".md"))
    for rel in files:
        if rel.split("/")[0] in ("logs", "benchmarks"):
            continue
        if any(fnmatch.fnmatch(rel, pat) for pat in MACHINE_DEPENDENT):
            skipped.append(rel)
        elif not (slurm / rel).is_file() or (slurm / rel).read_bytes() != (local / rel).read_bytes():
            diff.append(rel)
        else:
            same.append(rel)
    return same, diff, skipped


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log", required=True, type=Path, help="Snakemake log of the SLURM run")
    ap.add_argument("--local", required=True, type=Path, help="results directory of the local run")
    ap.add_argument("--slurm", required=True, type=Path, help="results directory of the SLURM run")
    ap.add_argument("--out", required=True, type=Path, help="Markdown report to write")
    ap.add_argument("--local-seconds", type=int, default=None)
    ap.add_argument("--slurm-seconds", type=int, default=None)
    a = ap.parse_args()

    jobs = parse_log(a.log.read_text(encoding="utf-8"))
    submitted = [j for j in jobs.values() if j.slurm_id]
    remote = [j for j in jobs.values() if not j.local]
    problems = []
    if not submitted:
        problems.append("no job was submitted to SLURM (no 'submitted with SLURM jobid' in the log)")
    unsubmitted = [j for j in remote if not j.slurm_id]
    if unsubmitted:
        problems.append(f"{len(unsubmitted)} non-local jobs without a SLURM job id: "
                        + ", ".join(sorted({j.rule for j in unsubmitted})))
    records = sacct([j.slurm_id for j in submitted]) if submitted else {}
    lines = ["| SLURM job | rule | wildcards | State | ExitCode | ReqMem | Timelimit | ReqCPUS | Elapsed |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for j in sorted(submitted, key=lambda j: int(j.slurm_id)):
        rec = records.get(j.slurm_id)
        if rec is None:
            problems.append(f"SLURM job {j.slurm_id} ({j.rule}) has no sacct record")
            continue
        if rec["State"] != "COMPLETED" or rec["ExitCode"] != "0:0":
            problems.append(f"SLURM job {j.slurm_id} ({j.rule}): {rec['State']} exit {rec['ExitCode']}")
        for key, want in expected(j).items():
            if rec[key] != want:
                problems.append(f"SLURM job {j.slurm_id} ({j.rule}): {key} {rec[key]!r}, requested {want!r}")
        if not rec["Comment"].startswith(f"rule_{j.rule}"):
            problems.append(f"SLURM job {j.slurm_id}: comment {rec['Comment']!r} is not rule {j.rule}")
        lines.append(f"| {j.slurm_id} | {j.rule} | {j.wildcards} | {rec['State']} | {rec['ExitCode']} | "
                     f"{rec['ReqMem']} | {rec['Timelimit']} | {rec['ReqCPUS']} | {rec['Elapsed']} |")
    witness = ""
    if submitted:
        big = max(submitted, key=lambda j: (j.threads, float(j.resources.get("mem_mb", 0))))
        witness = subprocess.run(["scontrol", "show", "job", big.slurm_id], capture_output=True, text=True).stdout
        witness = f"`scontrol show job {big.slurm_id}` ({big.rule}, {expected(big)}):\n\n```\n{witness.strip()}\n```\n"
    same, diff, skipped = compare_tables(a.local, a.slurm)
    if not same:
        problems.append("no table to compare in the local run")
    problems += [f"table differs from the local run: {rel}" for rel in diff]
    n_local = sum(1 for j in jobs.values() if j.local)
    timing = ""
    if a.local_seconds is not None and a.slurm_seconds is not None:
        timing = (f"Wall time: local run {a.local_seconds} s (--cores 2), SLURM run {a.slurm_seconds} s "
                  f"(includes submission and status polling).\n\n")
    report = "\n".join([
        "# make test-cluster: the .test DAG on a single-node SLURM", "",
        timing + f"{len(submitted)} jobs submitted to SLURM (every one with a sacct record checked below), "
        f"{n_local} local rules run by Snakemake itself. Tables compared byte for byte with the local run: "
        f"{len(same)} identical, {len(diff)} different, {len(skipped)} skipped as wall-clock by design "
        f"({', '.join(skipped) or 'none'}).", "",
        *lines, "", witness,
        "## Result", "", *(f"- FAIL: {p}" for p in problems), *([] if problems else ["- PASS"]), "",
    ])
    a.out.write_text(report, encoding="utf-8")
    print(report)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
