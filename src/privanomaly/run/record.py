"""A run's record as data: the JSON a benchmark or a measured run writes beside its Markdown report.

A record is ``{"record": name, "rows": [...], "machine": {...}}``. A row is one measured run:

* ``run`` (str), ``jobs`` (int): what ran and its Snakemake jobs;
* ``wall_s`` (float or null): its wall-clock seconds (null for a part of a run, e.g. its sweep jobs);
* ``cpu_s`` (float or null): CPU seconds of every process of the run (null when not measured);
* ``work_cpu_s`` (float or null): the computation's own CPU - the same work in one process, or the jobs'
  bodies - so overhead share = (cpu_s - work_cpu_s) / cpu_s.

``machine`` says where and when: platform, Python, CPUs, the 1-, 5- and 15-minute load averages at the start
and at the end of the measurement, the commit measured, the UTC time, and ``note``: what the person running it
states (e.g. "machine otherwise idle"), which no program can measure. ``benchmarks/bench_table.py`` reads these
records instead of parsing the Markdown.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import subprocess
from pathlib import Path
from typing import Any, Sequence

from privanomaly import io

ROW_FIELDS: dict[str, tuple[type, ...]] = {"run": (str,), "jobs": (int,), "wall_s": (int, float, type(None)),
                                           "cpu_s": (int, float, type(None)), "work_cpu_s": (int, float, type(None))}


def load_average() -> list[float]:
    """The 1-, 5- and 15-minute load averages now, rounded to 0.01."""
    return [round(x, 2) for x in os.getloadavg()]


def commit(root: str | os.PathLike) -> str:
    """The short commit of the checkout at ``root`` (``+dirty`` when tracked files outside ``benchmarks/`` differ:
    the records a benchmark rewrites there do not change what was measured), or "unknown"."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout
    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)benchmarks").strip())
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def machine(load_start: Sequence[float] | None, note: str = "", root: str | os.PathLike = ".") -> dict[str, Any]:
    """The ``machine`` part of a record, taken at the end of a measurement that began at ``load_start``."""
    return {"platform": platform.machine(), "python": platform.python_version(), "cpus": os.cpu_count(),
            "load_start": None if load_start is None else [round(float(x), 2) for x in load_start],
            "load_end": load_average(), "commit": commit(root),
            "utc": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "note": note}


def row(run: str, jobs: int, wall_s: float | None, cpu_s: float | None = None, work_cpu_s: float | None = None) -> dict:
    """One checked row (:func:`check_row`); seconds rounded to the millisecond."""
    def ms(v: float | None) -> float | None:
        return v if v is None or isinstance(v, bool) or not isinstance(v, (int, float)) else round(float(v), 3)

    out = {"run": run, "jobs": jobs, "wall_s": ms(wall_s), "cpu_s": ms(cpu_s), "work_cpu_s": ms(work_cpu_s)}
    check_row(out, "row")
    return out


def check_row(r: Any, where: str) -> None:
    """Raise ValueError naming ``where`` and the field when ``r`` is not a row of the documented shape."""
    if not isinstance(r, dict):
        raise ValueError(f"{where}: a row must be an object with {sorted(ROW_FIELDS)}, got {type(r).__name__}")
    for key, types in ROW_FIELDS.items():
        if key not in r:
            raise ValueError(f"{where}: row has no {key!r} (a row has {sorted(ROW_FIELDS)})")
        v = r[key]
        if isinstance(v, bool) or not isinstance(v, types):
            raise ValueError(f"{where}: {key!r} is {v!r}; expected {' or '.join(t.__name__ for t in types)}")
        if isinstance(v, float) and not math.isfinite(v) or isinstance(v, (int, float)) and v < 0:
            raise ValueError(f"{where}: {key!r} is {v!r}; expected a finite number >= 0")


def write(path: str | os.PathLike, name: str, rows: Sequence[dict], machine_facts: dict[str, Any]) -> None:
    """Write the record ``name`` to ``path`` atomically (key-sorted JSON), every row checked first."""
    for i, r in enumerate(rows):
        check_row(r, f"{path}: rows[{i}]")
    io.write_json(path, {"record": name, "rows": list(rows), "machine": machine_facts})


def read(path: str | os.PathLike) -> dict[str, Any]:
    """The record at ``path``; a missing, unreadable or malformed file raises naming the file and what is wrong."""
    p = Path(path)
    try:
        rec = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"{p}: no run record (run the benchmark or the run that writes it)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{p}: not a readable JSON run record ({e})") from e
    if not isinstance(rec, dict) or not isinstance(rec.get("rows"), list) or not rec["rows"]:
        raise ValueError(f"{p}: a run record is an object with a non-empty 'rows' list")
    if not isinstance(rec.get("machine"), dict):
        raise ValueError(f"{p}: a run record has a 'machine' object")
    for i, r in enumerate(rec["rows"]):
        check_row(r, f"{p}: rows[{i}]")
    return rec


def machine_text(m: dict[str, Any]) -> str:
    """The machine as a reader wants it: the stated note, then the 1-minute load at the start and at the end."""
    def one(v: Any) -> str | None:
        return f"{v[0]:.1f}" if isinstance(v, list) and v else None

    loads = [f"{label} {v}" for label, v in (("at the start", one(m.get("load_start"))),
                                               ("at the end", one(m.get("load_end")))) if v]
    parts = [str(m["note"])] if m.get("note") else []
    if loads:
        parts.append("load " + ", ".join(loads))
    return "; ".join(parts) or "not stated"
