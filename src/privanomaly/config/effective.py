"""The effective configuration of a run, recorded in ``results/effective_config.yaml``.

A run's configuration is ``config.yaml`` merged with every ``--configfile`` overlay and ``--config`` value.
Rule ``effective_config`` writes it next to the results it describes; ``snakemake --report`` then rebuilds
the DAG from that record instead of from whatever configuration is given on the report's command line, so
forgetting the overlay (or the data mirror) cannot give the report of another run.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Sequence

import yaml

RECORD_NAME = "effective_config.yaml"

HEADER = (
    "# The configuration of the run that wrote this directory: config.yaml merged with every --configfile\n"
    "# overlay and --config value (written by rule effective_config; privanomaly.config.effective).\n"
    "# `snakemake --report` uses it. Rerun the same configuration with:\n"
    "#   snakemake --cores 8 --configfile {path}\n"
)


def dump(config: dict, path: str | Path) -> str:
    """The YAML text of the record (deterministic: keys in the config's own order)."""
    return HEADER.format(path=path) + yaml.safe_dump(_plain(config), sort_keys=False, allow_unicode=True)


def _plain(value):
    """Plain dicts/lists/scalars (Snakemake hands out its own mapping types)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def report_path(argv: Sequence[str]) -> str | None:
    """The path after ``--report`` on a Snakemake command line (``None`` if not a report run or no path)."""
    for i, arg in enumerate(argv):
        if arg.startswith("--report="):
            return arg.split("=", 1)[1] or None
        if arg == "--report":
            nxt = argv[i + 1] if i + 1 < len(argv) else None
            return nxt if nxt and not nxt.startswith("-") else None
    return None


def is_report_run(argv: Sequence[str]) -> bool:
    return any(a == "--report" or a.startswith("--report=") for a in argv)


def find_record(argv: Sequence[str], config: dict, workdir: str | Path = ".") -> Path | None:
    """The record a report run should use: next to the report file, else in the configured results_dir."""
    candidates = []
    rp = report_path(argv)
    if rp:
        candidates.append(Path(workdir) / Path(rp).parent / RECORD_NAME)
    if config.get("results_dir"):
        candidates.append(Path(workdir) / str(config["results_dir"]) / RECORD_NAME)
    return next((c for c in candidates if c.is_file()), None)


def load(path: str | Path) -> dict:
    """The recorded configuration; a file that exists but is not a YAML mapping is an error naming it."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ValueError(f"{path}: cannot read the recorded configuration of the run ({e}); "
                         "delete it or rerun the workflow to rewrite it") from e
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a YAML mapping (the recorded configuration), got {type(data).__name__}")
    return data


def changed_keys(given: dict, recorded: dict) -> list[str]:
    """Top-level keys whose values differ between two configurations (sorted)."""
    return sorted(k for k in set(given) | set(recorded) if _plain(given.get(k)) != _plain(recorded.get(k)))


def use_recorded_for_report(config: dict, argv: Sequence[str] | None = None, workdir: str | Path = ".") -> Path | None:
    """In a ``--report`` run, replace ``config`` (in place) by the run's recorded configuration.

    Returns the record used, or ``None`` (not a report run, or no record: then the configuration given on
    the command line is used, as before). Says on stderr when the record differs from what was given.
    """
    argv = sys.argv if argv is None else argv
    if not is_report_run(argv):
        return None
    record = find_record(argv, config, workdir)
    if record is None:
        add_missing_outputs(config, argv, workdir)
        return None
    recorded = load(record)
    diff = changed_keys(config, recorded)
    config.clear()
    config.update(recorded)
    what = (f"it differs from the configuration given now in: {', '.join(diff)}" if diff
            else "same as the configuration given now")
    print(f"privanomaly: --report uses the configuration recorded by the run in {record} ({what})",
          file=sys.stderr)
    add_missing_outputs(config, argv, workdir)
    return record


def missing_list_path(report: str | Path) -> Path:
    """Where ``make report`` lists the outputs an incomplete run has not written: next to the report."""
    return Path(f"{report}.missing.txt")


def add_missing_outputs(config: dict, argv: Sequence[str], workdir: str | Path = ".") -> list[str]:
    """After an incomplete run, ``make report`` (:mod:`privanomaly.report.partial`) lists the missing outputs
    next to the report (``<report>.missing.txt``); put them in ``config["report"]["missing_outputs"]``, which
    the report's front page (workflow/report/workflow.rst) lists - an output that exists but is out of date as
    ``<path> (out of date)``. Returns them ([] when there is no list)."""
    path = report_path(argv)
    if not path:
        return []
    listing = Path(workdir) / missing_list_path(path)
    if not listing.is_file():
        return []
    missing = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")  # rule, path[, "out of date" for an output that exists but is stale]
        if line.strip():
            missing.append(cols[min(1, len(cols) - 1)] + (f" ({cols[2]})" if len(cols) > 2 and cols[2] else ""))
    if isinstance(config.get("report"), dict):
        config["report"]["missing_outputs"] = missing
    return missing


# What a finished run points to first, in this order (paths relative to results_dir), when it wrote them
START_FILES = ("index.md", "paper_a/claims.md", "paper_b/comparison.md")


def finished_message(results: str | Path) -> str:
    """The line a successful run prints: where its results are, the start files it actually wrote (a run of
    ``paper_a_all`` writes no index.md and no comparison.md) and how to get the HTML report of that directory."""
    results = Path(results)
    present = [str(results / f) for f in START_FILES if (results / f).is_file()]
    start = ""
    if present:
        start = f" - start with {present[0]}" + (f" (then {', '.join(present[1:])})" if present[1:] else "")
    report = results / "report.html"
    make = "make report" if results == Path("results") else f"make report REPORT={shlex.quote(str(report))}"
    return (f"\nprivanomaly: results in {results}/{start}; HTML report: {make}, or snakemake --report "
            f"{shlex.quote(str(report))} after the whole run (both use the configuration recorded in "
            f"{results / RECORD_NAME})")
