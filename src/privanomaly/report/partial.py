"""``make report`` after an incomplete run: say which outputs are missing and how to finish the run, then build
the report of what exists.

``snakemake --report`` stops on the first output marked for the report that does not exist ("marked for
report but does not exist"), which after a killed or failed run means no report at all. :func:`main` asks
Snakemake for the run's outputs and their status first (``--summary``); when some are missing it prints
them (grouped by rule, a few examples each) with the command that finishes the run, writes the full list
next to the report (``<report>.missing.txt``), and builds the report with the outputs that exist as its
targets. Results without the configuration their run recorded (``<results_dir>/effective_config.yaml``) and no
``--configfile``: it says so and stops - the default config would list another run's outputs as missing. An output
that exists but that Snakemake would write again (``--summary`` plan "update pending": a run
of a new configuration stopped after recording it, a script changed) is not the run's result: it counts with
the missing ones and stays out of the report (``snakemake --report`` alone would show it as current). With
nothing missing or out of date it is exactly ``snakemake --report``.

``python -m privanomaly.report.partial --snakemake .venv/bin/snakemake --report results/report.html
--finish "make reproduce" -- [snakemake options: --configfile ..., --config ...]``
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from privanomaly import io
from privanomaly.config.effective import missing_list_path

# --summary statuses of an output that is not there (Snakemake 9): missing, or left by a killed job
MISSING_STATUSES = ("missing", "incomplete")
# --summary plan of an output Snakemake would write again: its params, code or inputs changed since (e.g. a run of
# a new configuration stopped after recording it) - it is not the run's result, and the report must not show it
STALE_PLAN = "update pending"
DEFAULT_REPORT = "results/report.html"  # the Makefile's REPORT
RECORD = "effective_config.yaml"  # written next to the results by rule effective_config
# the report's front page, which lists config report.missing_outputs (privanomaly.config.effective)
ROOT_REPORT_TEXT = Path(__file__).resolve().parents[3] / "workflow" / "report" / "workflow.rst"


@dataclass(frozen=True)
class Output:
    """One output file of the run's DAG: its path, the rule writing it and Snakemake's status of it."""

    path: str
    rule: str
    status: str
    plan: str = "no update"

    @property
    def missing(self) -> bool:
        return self.status in MISSING_STATUSES or not Path(self.path).exists()

    @property
    def stale(self) -> bool:
        """There, but out of date: Snakemake would write it again (the run's params, code or inputs changed)."""
        return not self.missing and self.plan == STALE_PLAN


def parse_summary(text: str) -> list[Output]:
    """The rows of ``snakemake --summary`` (tab-separated, after its header line ``output_file  date ...``)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("output_file\t")), None)
    if start is None:
        raise ValueError("snakemake --summary printed no table (expected a header line starting 'output_file')")
    header = lines[start].split("\t")
    col = {name: header.index(name) for name in ("output_file", "rule", "status", "plan")}
    out = []
    for line in lines[start + 1:]:
        f = line.split("\t")
        if len(f) == len(header):
            out.append(Output(f[col["output_file"]], f[col["rule"]], f[col["status"]], f[col["plan"]]))
    return out


def finish_command(base: str, args: Sequence[str], record: Path) -> str:
    """The command that finishes the run this report describes: ``base`` (``make reproduce``) with ``CONFIG=``
    the run's recorded configuration when there is one (the report and its list of missing outputs come from
    it), else the ``--configfile`` given in ``args``; ``base`` alone would run config.yaml without the overlay."""
    if record.is_file():
        config = str(record)
    else:
        config = " ".join(a for i, a in enumerate(args) if i > 0 and args[i - 1] == "--configfile")
    return f"{base} CONFIG={shlex.quote(config)}" if config else base


def missing_message(outputs: Sequence[Output], finish: str, report: str, examples: int = 1) -> str:
    """What ``make report`` prints when some outputs are missing or out of date: how many, by rule, and how to
    finish."""
    missing = [o for o in outputs if o.missing]
    stale = [o for o in outputs if o.stale]
    lines = [f"privanomaly: the run is incomplete: {len(missing)} of {len(outputs)} outputs are missing "
             f"(the run was stopped, a job failed, or only some targets were built, e.g. paper_a_all)"
             + (f" and {len(stale)} are out of date (written before its configuration, code or inputs changed: "
                "Snakemake would write them again; the report leaves them out)" if stale else "") + ":"]
    for what, group in (("missing", missing), ("out of date", stale)):
        for rule, n in Counter(o.rule for o in group).most_common():
            shown = [o.path for o in group if o.rule == rule][:examples]
            lines.append(f"  {rule}: {n} {what}, e.g. {', '.join(shown)}{' ...' if n > len(shown) else ''}")
    logs = Path(report).parent / "logs"
    again = "make report" if Path(report) == Path(DEFAULT_REPORT) else f"make report REPORT={shlex.quote(report)}"
    lines.append(f"Finish the run with `{finish}` (it reruns only what is missing or out of date; a job that failed "
                 f"says why in its log under {logs}/<rule>/), then run `{again}` again.")
    lines.append(f"Building the report of what exists now: {report} (every missing or out-of-date output is listed "
                 f"in {missing_list_path(report)}).")
    return "\n".join(lines)


OUT_OF_DATE = "out of date"  # third column of a line of <report>.missing.txt: the output exists but is stale


def missing_lines(outputs: Sequence[Output]) -> str:
    """The text of ``<report>.missing.txt``: one line per output left out of the report, ``rule<TAB>path``, with a
    third column ``out of date`` for one that exists but Snakemake would write again (the report's front page,
    :func:`privanomaly.config.effective.add_missing_outputs`, tells the two apart)."""
    return "".join(f"{o.rule}\t{o.path}" + ("" if o.missing else f"\t{OUT_OF_DATE}") + "\n"
                   for o in outputs if o.missing or o.stale)


def no_record_message(report: str, record: Path, finish: str) -> str:
    """What ``make report`` says when the results beside ``report`` hold no recorded configuration and none is
    given: the report of which run is unknown."""
    where = record.parent
    state = "does not exist" if not where.is_dir() else f"holds no {RECORD}"
    return (f"privanomaly: no report: {where}/ {state} - no run recorded its configuration there (the run has not "
            f"started its first job, or wrote its results elsewhere: results_dir). A report is built from the "
            f"configuration its run recorded; without it this would list the outputs of config.yaml, which may not be "
            f"the run's. Run the workflow first (`{finish}`, with CONFIG=<your overlay> if it had one), or point to the "
            f"run's report with REPORT=<results_dir>/report.html; results written before runs recorded their "
            f"configuration: give it with CONFIG=<overlay>.")


def run(snakemake: str, args: Sequence[str], report: str, finish: str) -> int:
    """Build the report of the run given by ``args``; after an incomplete run, of what exists (see module doc).
    ``finish``: the command that runs the workflow (``make reproduce``), completed by :func:`finish_command`.
    Without a recorded configuration beside the report and no ``--configfile`` in ``args``: say so and stop
    (exit 1; the default config would list the outputs of another run as missing)."""
    record = Path(report).parent / RECORD  # the run's own configuration, as --report uses it (run_config)
    if not record.is_file() and "--configfile" not in args:
        print(no_record_message(report, record, finish), file=sys.stderr)
        return 1
    summary_args = ["--configfile", str(record)] if record.is_file() else list(args)
    summary = subprocess.run([snakemake, *summary_args, "--summary"], capture_output=True, text=True)
    if summary.returncode != 0:
        sys.stderr.write(summary.stderr)
        return summary.returncode
    outputs = parse_summary(summary.stdout)
    missing = [o for o in outputs if o.missing or o.stale]  # not the run's results: out of the report
    stale = missing_list_path(report)
    if not missing:
        if stale.exists():
            stale.unlink()
        return subprocess.run([snakemake, *args, "--cores", "1", "--report", report]).returncode
    print(missing_message(outputs, finish_command(finish, args, record), report), file=sys.stderr)
    Path(report).parent.mkdir(parents=True, exist_ok=True)
    io.write_text(stale, missing_lines(missing))
    present = [o.path for o in outputs if not o.missing and not o.stale]
    rc = subprocess.run([snakemake, *args, "--cores", "1", "--report", report, *present]).returncode
    if rc == 0:
        print(f"privanomaly: partial report written: {report} ({len(present)} outputs; {len(missing)} missing, "
              f"listed in {stale})", file=sys.stderr)
    return rc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m privanomaly.report.partial", description=__doc__.splitlines()[0])
    ap.add_argument("--snakemake", default="snakemake")
    ap.add_argument("--report", required=True, help="the report file to write")
    ap.add_argument("--finish", default="make reproduce",
                    help="the command that runs the workflow; printed with CONFIG= the run's configuration")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- then the run's Snakemake options")
    a = ap.parse_args(argv)
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    return run(a.snakemake, args, a.report, a.finish)


if __name__ == "__main__":
    sys.exit(main())
