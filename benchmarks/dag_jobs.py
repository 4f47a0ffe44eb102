"""Every job of a workflow's DAG as JSON, and the difference of two such dumps (benchmarks/steps_identity.md).

    python benchmarks/dag_jobs.py dump OUT.json [--configfile F ...] [--target T ...]   (in a workflow checkout)
    python benchmarks/dag_jobs.py compare BEFORE.json AFTER.json

A dump lists, per job of ``snakemake --forceall`` (dry run, ``data_mirror=../shared/datasets``): rule,
wildcards, input and output files (and their names), log, benchmark, evaluated params, resources, threads,
localrule, wildcard constraints, script/shell, conda env, docstring and report items (caption, category,
evaluated subcategory). Two checkouts whose dumps agree run the same jobs with the same params.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def _plain(v):
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v if isinstance(v, (int, float, str, bool)) or v is None else repr(v)


def _report(o, job):
    r = getattr(o, "flags", {}).get("report")
    if r is None:
        return None
    sub = r.subcategory(job.wildcards) if callable(r.subcategory) else r.subcategory
    caption = r.caption.get_path_or_uri(secret_free=True) if r.caption else None
    return [str(Path(caption).resolve().relative_to(Path.cwd().resolve())) if caption else None, r.category, sub]


def dump(out: str, configfiles: list[str], targets: list[str]) -> int:
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import ConfigSettings, DAGSettings, OutputSettings, ResourceSettings

    mirror = str((Path.cwd().parent / "shared" / "datasets").resolve())
    with SnakemakeApi(OutputSettings()) as api:
        wfa = api.workflow(resource_settings=ResourceSettings(cores=2),
                           config_settings=ConfigSettings(configfiles=[Path(c) for c in configfiles],
                                                          config={"data_mirror": mirror}),
                           snakefile=Path("Snakefile").absolute(), workdir=Path(".").absolute())
        dag = wfa.dag(DAGSettings(forceall=True, **({"targets": set(targets)} if targets else {})))
        dag.execute_workflow(executor="dryrun")
        wf = wfa._workflow
        jobs = []
        for j in wf.dag.jobs:
            jobs.append({
                "rule": j.rule.name, "wildcards": dict(j.wildcards.items()),
                "input": [str(x) for x in j.input], "input_names": sorted(j.input._names),
                "output": [str(x) for x in j.output], "output_names": sorted(j.output._names),
                "log": [str(x) for x in j.log], "benchmark": str(j.benchmark) if j.benchmark else None,
                "params": {k: _plain(v) for k, v in j.params.items()},
                "resources": {k: _plain(getattr(v, "raw", v)) for k, v in j.resources.items()
                              if not k.startswith("_") and k != "tmpdir"},
                "threads": j.threads, "localrule": j.rule.name in wf._localrules,
                "constraints": {k: str(v) for k, v in (j.rule.wildcard_constraints or {}).items()},
                "script": j.rule.script, "shell": j.rule.shellcmd, "conda": str(j.rule.conda_env),
                "doc": j.rule.docstring, "report": [[str(o), _report(o, j)] for o in j.output],
            })
    jobs.sort(key=lambda d: (d["rule"], json.dumps(d["wildcards"], sort_keys=True)))
    Path(out).write_text(json.dumps(jobs, indent=1, sort_keys=True, default=repr), encoding="utf-8")
    print(f"{len(jobs)} jobs -> {out}")
    return 0


def compare(before: str, after: str) -> int:
    key = lambda d: (d["rule"], json.dumps(d["wildcards"], sort_keys=True))  # noqa: E731
    a = {key(d): d for d in json.loads(Path(before).read_text())}
    b = {key(d): d for d in json.loads(Path(after).read_text())}
    print(f"jobs: {len(a)} before, {len(b)} after; only before {len(set(a) - set(b))}, only after {len(set(b) - set(a))}")
    diff, example = Counter(), {}
    for k in sorted(set(a) & set(b)):
        for field in sorted(set(a[k]) | set(b[k])):
            if a[k].get(field) != b[k].get(field):
                diff[(k[0], field)] += 1
                example.setdefault((k[0], field), (a[k].get(field), b[k].get(field)))
    for (rule, field), n in sorted(diff.items()):
        x, y = example[(rule, field)]
        print(f"  {rule}.{field}: {n} job(s), e.g. {str(x)[:120]} -> {str(y)[:120]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out")
    d.add_argument("--configfile", action="append", default=[])
    d.add_argument("--target", action="append", default=[])
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        return dump(args.out, args.configfile, args.target)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
