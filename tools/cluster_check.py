"""Proof for `make test-cluster` (tools/test_cluster.sh): the SLURM run really went through the scheduler.

1. From Snakemake's log: every job it submitted (rule, wildcards, threads, mem_mb, runtime) and its SLURM job id.
   A group job (rules with a ``group:``, bundled by ``group-components`` of the profile) is one submission
   that runs several rules: its members are the indented rule blocks under "Group job NAME", and its
   submission line names it by the uuid of one member (Snakemake's ``Job.uuid()``).
2. From ``sacct``: the accounting record of each submission - state, exit code, ReqMem, Timelimit, ReqCPUS -
   which must be COMPLETED 0:0 and carry exactly the requested mem_mb / runtime / threads. For a group job
   the request is Snakemake's aggregate of its members (``GroupResources.basic_layered``: members that can
   run side by side add up within the profile's ``cores``/``resources``, layers run one after another and
   their runtimes add up), and every member's rule must have run (its log shows the member finished).
3. ``scontrol show job`` of one submission (the largest request) as a second witness.
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
from types import SimpleNamespace

import yaml

from privanomaly.run import record as runrecord

# Tables that hold wall-clock measurements by design (paper B's timing benchmark): they cannot match.
MACHINE_DEPENDENT = ("paper_b/timing/*.csv", "paper_b/tables/smooth_timing.*")
SACCT_FIELDS = ["JobID", "Comment", "State", "ExitCode", "ReqMem", "Timelimit", "ReqCPUS", "AllocCPUS",
                "Partition", "Account", "Elapsed", "NodeList", "TotalCPU"]


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
    input: list[str] = field(default_factory=list)
    output: list[str] = field(default_factory=list)
    group: Group | None = None

    def wildcards_dict(self) -> dict[str, str]:
        """The wildcards line (``a=1, b=x``) as a mapping."""
        return dict(item.split("=", 1) for item in self.wildcards.split(", ") if "=" in item)

    def uuid(self) -> str:
        """Snakemake's ``Job.uuid()``: uuid5 of the rule name and its sorted wildcards."""
        from snakemake.common import get_uuid

        wc = ",".join(sorted(f"{k}:{v}" for k, v in self.wildcards_dict().items()))
        return str(get_uuid(f"{self.rule}:{wc}"))


@dataclass
class Group:
    """One group job: several rules run by one SLURM submission."""

    name: str
    members: list[Job] = field(default_factory=list)
    slurm_id: str | None = None

    @property
    def rules(self) -> str:
        """Member rules with counts, e.g. ``paper_b_paper_r x5, provenance``."""
        counts: dict[str, int] = {}
        for j in self.members:
            counts[j.rule] = counts.get(j.rule, 0) + 1
        return ", ".join(r if n == 1 else f"{r} x{n}" for r, n in sorted(counts.items()))

    def levels(self) -> list[list[Job]]:
        """Members in toposort levels: a member follows the members whose outputs it reads."""
        produced = {f: j.jobid for j in self.members for f in j.output}
        deps = {j.jobid: {produced[f] for f in j.input if f in produced} - {j.jobid} for j in self.members}
        by_id = {j.jobid: j for j in self.members}
        levels, done = [], set()
        while len(done) < len(by_id):
            level = sorted(i for i in by_id if i not in done and deps[i] <= done)
            if not level:
                raise ValueError(f"group {self.name}: cyclic member dependencies {sorted(set(by_id) - done)}")
            levels.append([by_id[i] for i in level])
            done.update(level)
        return levels


def _block_job(head: re.Match, block: list[str]) -> Job | None:
    info = dict(b.split(": ", 1) for b in block if ": " in b)
    if "jobid" not in info:
        return None
    job = Job(rule=head.group(3), jobid=int(info["jobid"]), local=bool(head.group(2)),
              wildcards=info.get("wildcards", ""), threads=int(info.get("threads", 1)),
              input=[f for f in info.get("input", "").split(", ") if f],
              output=[f for f in info.get("output", "").split(", ") if f])
    for item in info.get("resources", "").split(", "):
        if "=" in item:
            k, v = item.split("=", 1)
            job.resources[k] = v
    return job


def parse_log(text: str) -> tuple[dict[int, Job], list[Group]]:
    """Jobs of a Snakemake log keyed by Snakemake job id, and its group jobs, with their SLURM job ids.

    A group job is logged as "Group job NAME (jobs in lexicogr. order):" followed by its members' rule
    blocks, indented; its submission line names it by the uuid of one member.
    """
    jobs: dict[int, Job] = {}
    groups: list[Group] = []
    block: list[str] | None = None
    head = None
    group: Group | None = None
    for line in text.splitlines() + [""]:
        if block is not None:
            # a job's fields are indented under its rule line; anything else ends the block (Snakemake
            # does not always print a blank line before the next rule or a submission line)
            if line.strip() and len(line) - len(line.lstrip()) > len(head.group(1)):
                block.append(line.strip())
                continue
            job = _block_job(head, block)
            if job is not None:
                if head.group(1) and group is not None:
                    job.group = group
                    group.members.append(job)
                jobs[job.jobid] = job
            block = None
        g = re.search(r"Group job (\S+) \(jobs in lexicogr\. order\):", line)
        if g:
            group = Group(name=g.group(1))
            groups.append(group)
            continue
        m = re.match(r"^(\s*)(local)?rule (\w+):\s*$", line)
        if m:
            head, block = m, []
    by_uuid = {j.uuid(): g for g in groups for j in g.members}
    for m in re.finditer(r"Job (\S+) has been submitted with SLURM jobid (\d+)", text):
        key, sid = m.group(1), m.group(2)
        if key.isdigit() and int(key) in jobs:
            jobs[int(key)].slurm_id = sid
        elif key in by_uuid:
            by_uuid[key].slurm_id = sid
    return jobs, groups


def minutes_to_timelimit(minutes: int) -> str:
    """SLURM's Timelimit text for a limit of ``minutes`` (``00:30:00``, ``1-00:00:00``)."""
    d, rem = divmod(int(minutes), 24 * 60)
    h, m = divmod(rem, 60)
    return f"{d}-{h:02d}:{m:02d}:00" if d else f"{h:02d}:{m:02d}:00"


def expected(job: Job) -> dict[str, str]:
    """What sacct must show for a job: its mem_mb, runtime and threads as SLURM records them."""
    return _as_sacct(job.threads, job.resources)


def _as_sacct(threads: int, resources: dict) -> dict[str, str]:
    out = {"ReqCPUS": str(max(int(threads), 1))}
    if "mem_mb" in resources:
        out["ReqMem"] = f"{int(float(resources['mem_mb']))}M"
    if "runtime" in resources:
        out["Timelimit"] = minutes_to_timelimit(int(float(resources["runtime"])))
    return out


def _int_resources(job: Job) -> dict[str, int]:
    """A member's integer resources as Snakemake's group aggregation sees them (``_cores`` = threads)."""
    out = {"_cores": max(job.threads, 1)}
    for k, v in job.resources.items():
        if re.fullmatch(r"\d+", v):
            out[k] = int(v)
    return out


def group_resources(group: Group, cores: int | None = None, resources: dict | None = None) -> dict:
    """Snakemake's aggregate request of a group job (``GroupResources.basic_layered``, remote execution).

    ``cores`` and ``resources`` are the profile's global constraints (``cores:``, ``resources:``): members
    of one toposort level are stacked side by side up to them, the rest in further layers; runtime adds
    up over layers, every other resource is the widest layer's.
    """
    from snakemake.resources import GroupResources, Resources

    constraints = Resources.from_mapping(dict(resources or {}))
    constraints["_cores"] = cores
    levels = [[SimpleNamespace(resources=_int_resources(j), pipe_group=None) for j in level]
              for level in group.levels()]
    return GroupResources.basic_layered(toposorted_jobs=levels, constraints=constraints, run_local=False,
                                        additive_resources=["runtime"], sortby=["runtime"])


def expected_group(group: Group, cores: int | None = None, resources: dict | None = None) -> dict[str, str]:
    """What sacct must show for a group job: Snakemake's aggregate of its members' requests."""
    agg = group_resources(group, cores, resources)
    return _as_sacct(agg["_cores"], agg)


def profile_constraints(profile: Path) -> tuple[int | None, dict]:
    """The profile's ``cores`` and ``resources`` (the constraints of group jobs), None/{} when absent."""
    conf = yaml.safe_load((profile / "config.yaml").read_text(encoding="utf-8")) or {}
    res = conf.get("resources") or {}
    if isinstance(res, list):
        res = dict(item.split("=", 1) for item in res)
    cores = conf.get("cores")
    return (int(cores) if cores is not None else None), {k: int(v) for k, v in res.items()}


def sacct(ids: list[str], steps: bool = False) -> dict[str, dict[str, str]]:
    """sacct records of the given job ids: allocation lines only, or every step (``12.batch``, ``12.0``)."""
    out = subprocess.run(["sacct", "-P", "-n", *([] if steps else ["-X"]), "--starttime", "now-7days",
                          "-j", ",".join(ids), f"--format={','.join(SACCT_FIELDS)}"],
                         check=True, capture_output=True, text=True).stdout
    rows = [dict(zip(SACCT_FIELDS, line.split("|"))) for line in out.splitlines() if line.strip()]
    return {r["JobID"]: r for r in rows}


def cpu_seconds(text: str) -> float:
    """sacct's TotalCPU (``[D-]HH:MM:SS``, ``MM:SS.mmm``) in seconds; empty is 0."""
    days, _, clock = text.strip().rpartition("-")
    parts = [float(p) for p in clock.split(":")] if clock else [0.0]
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds + 86400 * int(days or 0)


def snakemake_starts(records: dict[str, dict[str, str]], sid: str) -> int:
    """Snakemake starts inside a submission: its batch step and one per ``srun`` step (``12.0``, ``12.1``...)."""
    steps = [k.split(".", 1)[1] for k in records if k.startswith(f"{sid}.")]
    return ("batch" in steps) + sum(step.isdigit() for step in steps)


def cpu_summary(records: dict[str, dict[str, str]], ids: list[str], local_cpu: float | None = None,
                submit_cpu: float | None = None) -> str:
    """One paragraph: Snakemake starts and CPU inside SLURM, and against the local run's CPU when given."""
    starts = sum(snakemake_starts(records, i) for i in ids)
    inside = sum(cpu_seconds(records[i].get("TotalCPU", "")) for i in ids if i in records)
    text = (f"Inside SLURM: {starts} Snakemake starts (a batch step and one per srun step of each submission), "
            f"{inside:.0f} s CPU in all (sacct TotalCPU).")
    if local_cpu is not None and submit_cpu is not None:
        total = inside + submit_cpu
        text += (f" CPU of the whole run: local {local_cpu:.0f} s (Snakemake and its jobs); SLURM {total:.0f} s "
                 f"({submit_cpu:.0f} s submitting Snakemake + {inside:.0f} s inside SLURM) = "
                 f"{total / max(local_cpu, 1e-9):.2f} x the local CPU.")
    return text + "\n\n"


def finished_ids(text: str) -> set[int]:
    """Snakemake job ids the log reports finished (a group job reports each member)."""
    return {int(m.group(1)) for m in re.finditer(r"Finished jobid: (\d+) ", text)}


def check_submissions(jobs: dict[int, Job], groups: list[Group], records: dict[str, dict[str, str]],
                      finished: set[int], cores: int | None = None, resources: dict | None = None,
                      ) -> tuple[list[str], list[str]]:
    """(problems, table rows) for every SLURM submission: plain jobs and group jobs.

    ``records`` are sacct rows keyed by JobID, allocation lines and steps (``12.batch``, ``12.0``). A
    submission passes when its allocation and every step are COMPLETED 0:0, ReqMem/Timelimit/ReqCPUS are
    the job's request (a group's: Snakemake's aggregate of its members), its comment names its rule (a
    group's: its group name) and every rule it ran is reported finished in the log.
    """
    problems: list[str] = []
    rows: list[tuple[int, str]] = []
    plain = [j for j in jobs.values() if j.group is None]
    submitted_groups = [g for g in groups if g.slurm_id]
    if not any(j.slurm_id for j in plain) and not submitted_groups:
        problems.append("no job was submitted to SLURM (no 'submitted with SLURM jobid' in the log)")
    unsubmitted = [j for j in plain if not j.local and not j.slurm_id]
    unsubmitted += [m for g in groups if not g.slurm_id for m in g.members]
    if unsubmitted:
        problems.append(f"{len(unsubmitted)} non-local jobs without a SLURM job id: "
                        + ", ".join(sorted({j.rule for j in unsubmitted})))
    units = [(j.slurm_id, j.rule, j.wildcards, expected(j), f"rule_{j.rule}", [j])
             for j in plain if j.slurm_id]
    units += [(g.slurm_id, f"group {g.name}: {g.rules}", f"{len(g.members)} jobs",
               expected_group(g, cores, resources), f"rule_{g.name}_", g.members) for g in submitted_groups]
    for sid, what, wildcards, want, comment, members in units:
        rec = records.get(sid)
        if rec is None:
            problems.append(f"SLURM job {sid} ({what}) has no sacct record")
            continue
        if rec["State"] != "COMPLETED" or rec["ExitCode"] != "0:0":
            problems.append(f"SLURM job {sid} ({what}): {rec['State']} exit {rec['ExitCode']}")
        for step_id, step in sorted(records.items()):
            if step_id.startswith(f"{sid}.") and (step["State"] != "COMPLETED" or step["ExitCode"] != "0:0"):
                problems.append(f"SLURM job {sid} ({what}): step {step_id} {step['State']} exit {step['ExitCode']}")
        for key, value in want.items():
            if rec[key] != value:
                problems.append(f"SLURM job {sid} ({what}): {key} {rec[key]!r}, requested {value!r}")
        if not rec["Comment"].startswith(comment):
            problems.append(f"SLURM job {sid}: comment {rec['Comment']!r} does not start with {comment!r}")
        unfinished = sorted(f"{m.rule} (jobid {m.jobid})" for m in members if m.jobid not in finished)
        if unfinished:
            problems.append(f"SLURM job {sid} ({what}): not reported finished: {', '.join(unfinished)}")
        rows.append((int(sid), f"| {sid} | {what} | {wildcards} | {rec['State']} | {rec['ExitCode']} | "
                               f"{rec['ReqMem']} | {rec['Timelimit']} | {rec['ReqCPUS']} | {rec['Elapsed']} | "
                               f"{snakemake_starts(records, sid)} | {cpu_seconds(rec.get('TotalCPU', '')):.1f} |"))
    return problems, [r for _, r in sorted(rows)]


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
    ap.add_argument("--profile", type=Path, default=Path(__file__).resolve().parents[1] / "profiles" / "slurm",
                    help="the SLURM profile of the run (its cores/resources bound group jobs)")
    ap.add_argument("--local-seconds", type=int, default=None)
    ap.add_argument("--slurm-seconds", type=int, default=None)
    ap.add_argument("--local-cpu", type=float, default=None, help="CPU s of the local run (with its jobs)")
    ap.add_argument("--slurm-cpu", type=float, default=None, help="CPU s of the submitting Snakemake")
    ap.add_argument("--loads", nargs=3, default=None, help="1-min load average at both starts and the end")
    ap.add_argument("--json", type=Path, default=None, help="the run's record (privanomaly.run.record)")
    ap.add_argument("--config-file", default=".test/config.yaml", help="the config file of both runs")
    a = ap.parse_args()

    dag = "the .test DAG" if a.config_file == ".test/config.yaml" else f"the DAG of {a.config_file}"
    text = a.log.read_text(encoding="utf-8")
    jobs, groups = parse_log(text)
    cores, resources = profile_constraints(a.profile)
    ids = [j.slurm_id for j in jobs.values() if j.slurm_id] + [g.slurm_id for g in groups if g.slurm_id]
    records = sacct(ids, steps=True) if ids else {}
    problems, rows = check_submissions(jobs, groups, records, finished_ids(text), cores, resources)
    lines = ["| SLURM job | rule | wildcards | State | ExitCode | ReqMem | Timelimit | ReqCPUS | Elapsed | "
             "Snakemake starts | CPU s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", *rows]
    witness = ""
    if ids:
        reqs = {sid: rec for sid, rec in records.items() if sid in ids}
        big = max(reqs, key=lambda i: (int(reqs[i]["ReqCPUS"] or 0), int(re.sub(r"\D", "", reqs[i]["ReqMem"]) or 0),
                                       -int(i)), default=None)
        if big is not None:
            shown = subprocess.run(["scontrol", "show", "job", big], capture_output=True, text=True).stdout
            witness = f"`scontrol show job {big}`:\n\n```\n{shown.strip()}\n```\n"
    same, diff, skipped = compare_tables(a.local, a.slurm)
    if not same:
        problems.append("no table to compare in the local run")
    problems += [f"table differs from the local run: {rel}" for rel in diff]
    n_local = sum(1 for j in jobs.values() if j.local)
    n_grouped = sum(len(g.members) for g in groups if g.slurm_id)
    timing = ""
    if a.local_seconds is not None and a.slurm_seconds is not None:
        timing = (f"Wall time: local run {a.local_seconds} s (--cores 2), SLURM run {a.slurm_seconds} s "
                  f"(includes submission and status polling): SLURM / local = "
                  f"{a.slurm_seconds / max(a.local_seconds, 1):.2f}.\n\n")
    timing += cpu_summary(records, ids, a.local_cpu, a.slurm_cpu)
    if a.loads:
        timing += (f"Load average (1 min) of the machine at the start of the local run, of the SLURM run and at "
                   f"the end: {', '.join(a.loads)} (2 cores; other work shares them).\n\n")
    report = "\n".join([
        f"# make test-cluster: {dag} on a single-node SLURM", "",
        timing + f"{len(ids)} SLURM submissions (every one with a sacct record checked below) for "
        f"{len(jobs) - n_local} jobs: {len(ids) - sum(1 for g in groups if g.slurm_id)} single jobs and "
        f"{sum(1 for g in groups if g.slurm_id)} group jobs running {n_grouped} jobs "
        f"(profile cores: {cores}, resources: {resources or 'none'}); "
        f"{n_local} local rules run by Snakemake itself. Tables compared byte for byte with the local run: "
        f"{len(same)} identical, {len(diff)} different, {len(skipped)} skipped as wall-clock by design "
        f"({', '.join(skipped) or 'none'}).", "",
        *lines, "", witness,
        "## Result", "", *(f"- FAIL: {p}" for p in problems), *([] if problems else ["- PASS"]), "",
    ])
    a.out.write_text(report, encoding="utf-8")
    if a.json and a.local_seconds is not None and a.slurm_seconds is not None:
        inside = sum(cpu_seconds(records[i].get("TotalCPU", "")) for i in ids if i in records)
        slurm_cpu = None if a.slurm_cpu is None else a.slurm_cpu + inside
        runrecord.write(a.json, "cluster", [
            runrecord.row(f"`make test-cluster`: {dag}, local", len(jobs), a.local_seconds, a.local_cpu),
            runrecord.row(f"`make test-cluster`: the same on SLURM ({len(ids)} submissions)", len(jobs),
                          a.slurm_seconds, slurm_cpu)],
            runrecord.machine(None if a.loads is None else [float(a.loads[0])], "",
                              Path(__file__).resolve().parents[1]))
    print(report)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
