"""One run per working directory: find this directory's live Snakemake processes; drop a stale lock.

Snakemake locks the outputs of a run in ``.snakemake/locks/``; a run killed by SIGKILL leaves its lock
behind, and the next run stops on it. Whether a lock is stale is decided from *this directory's own*
processes - a Snakemake whose working directory (or ``--directory``) is this one - never from "any
Snakemake on the machine" (on a shared host another user's run would block the unlock forever).

Two Snakemake processes on the same directory with different targets can both start, and when one ends
Snakemake deletes the whole locks folder under the other: so ``make reproduce`` / ``make test`` refuse to
start while another run of the same directory is alive. The safe pattern for concurrent runs is one
results directory - and one working copy - per run (docs/troubleshooting.md).

``python -m privanomaly.run.guard [--unlock] [DIR]``: exit 1 naming the live run(s); else, with
``--unlock``, remove a stale lock (``snakemake --unlock``) and exit 0. Linux (``/proc``) only; elsewhere it
cannot tell and leaves the lock alone.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Process:
    pid: int
    cmdline: list[str]

    def __str__(self) -> str:
        return f"pid {self.pid}: {' '.join(self.cmdline)[:200]}"


def is_snakemake(cmdline: list[str]) -> bool:
    """A Snakemake command line: ``snakemake ...``, ``.../bin/snakemake ...``, ``python -m snakemake ...``.

    Jobs Snakemake starts for ``script:`` rules run ``python <script>`` and are not counted on their own.
    """
    if not cmdline:
        return False
    names = [Path(a).name for a in cmdline[:2]]
    if "snakemake" in names:
        return True
    return len(cmdline) >= 3 and cmdline[1] == "-m" and cmdline[2] == "snakemake"


def _workdir(cwd: Path, cmdline: list[str]) -> Path:
    """The directory a Snakemake command works in: ``--directory``/``-d`` if given, else its cwd."""
    for i, a in enumerate(cmdline):
        if a in ("--directory", "-d") and i + 1 < len(cmdline):
            return (cwd / cmdline[i + 1]).resolve()
        if a.startswith("--directory="):
            return (cwd / a.split("=", 1)[1]).resolve()
    return cwd


def live_runs(directory: str | os.PathLike = ".", proc: str | os.PathLike = "/proc") -> list[Process]:
    """Snakemake processes (other than this one and its parents) working in ``directory``."""
    target = Path(directory).resolve()
    skip = {os.getpid(), os.getppid()}
    out = []
    for entry in Path(proc).iterdir():
        if not entry.name.isdigit() or int(entry.name) in skip:
            continue
        try:
            raw = (entry / "cmdline").read_bytes()
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:  # gone meanwhile, or another user's process (no permission)
            continue
        cmdline = [a for a in raw.decode(errors="replace").split("\0") if a]
        if is_snakemake(cmdline) and _workdir(cwd, cmdline) == target:
            out.append(Process(int(entry.name), cmdline))
    return sorted(out, key=lambda p: p.pid)


def has_lock(directory: str | os.PathLike = ".") -> bool:
    locks = Path(directory) / ".snakemake" / "locks"
    return locks.is_dir() and any(locks.iterdir())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m privanomaly.run.guard",
                                 description="Refuse to start while another run of this directory is alive.")
    ap.add_argument("directory", nargs="?", default=".")
    ap.add_argument("--unlock", action="store_true", help="remove a stale Snakemake lock (no live run here)")
    args = ap.parse_args(argv)
    if not Path("/proc/self").exists():
        print("privanomaly: cannot list processes (no /proc); a stale lock is left alone", file=sys.stderr)
        return 0
    alive = live_runs(args.directory)
    if alive:
        print(
            f"privanomaly: another Snakemake run of {Path(args.directory).resolve()} is running:\n  "
            + "\n  ".join(map(str, alive))
            + "\nWait for it to finish (or stop it). To run in parallel, use a separate copy of the workflow with "
            "its own results_dir (docs/troubleshooting.md, 'Two runs at once').",
            file=sys.stderr,
        )
        return 1
    if args.unlock and has_lock(args.directory):
        snakemake = str(Path(sys.executable).with_name("snakemake"))
        subprocess.run([snakemake, "--unlock"], cwd=args.directory, capture_output=True)
        print("privanomaly: removed the stale lock of a killed run (no run of this directory is alive)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
