"""A pytest plugin that keeps the fast stage fast: a test that starts a process or loads the workflow through the
Snakemake API must be marked ``subprocess`` (or ``slow``), so ``make check`` (``-m "not slow and not subprocess"``)
never starts one.

While an unmarked test runs (its setup, call and teardown, module fixtures included), every way of starting a
process is watched: ``subprocess.Popen`` (``subprocess.run``, ``check_output``, ``os.popen``), ``os.fork`` (a
``multiprocessing`` or ``concurrent.futures`` pool), ``os.posix_spawn``, ``os.system``, the fork-exec of
``multiprocessing``'s spawn and forkserver starts, and :meth:`snakemake.api.SnakemakeApi.workflow`. Nothing is
blocked; the test fails afterwards naming what it started and the mark to add. Probes a library makes of the
system by itself (:data:`PROBES`: matplotlib's font list on a fresh cache, joblib's core count) are not the test's doing.

Loaded by tests/conftest.py (``pytest_plugins``).
"""

from __future__ import annotations

import _posixsubprocess
import functools
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

MARKS = ("slow", "subprocess")
# Programs libraries run by themselves to look at the system, whatever the test does:
PROBES = frozenset({"fc-list", "lscpu", "uname", "which"})  # matplotlib fonts; joblib cores; platform; the
# SLURM executor plugin looking for sacct/squeue when Snakemake's command line loads its plugins

_STARTED = pytest.StashKey[list]()


def _program(args: object) -> str:
    """The program of a Popen/spawn argument (a list of words or a shell string)."""
    if isinstance(args, (str, bytes, os.PathLike)):
        first = os.fsdecode(args).split()[:1]
    else:
        first = [os.fsdecode(a) for a in list(args)[:1]]
    return Path(first[0]).name if first else "?"


def _describe(what: str, args: object) -> str:
    if isinstance(args, (str, bytes, os.PathLike)):
        shown = os.fsdecode(args)
    else:
        shown = " ".join(os.fsdecode(a) if isinstance(a, (str, bytes, os.PathLike)) else repr(a) for a in args)
    return f"{what}: {shown[:200]}"


def _watchers(started: list[str]) -> list[tuple[object, str, Callable[[Callable], Callable]]]:
    """(owner, attribute, wrap) for every way to start a process; wrap(original) records, then calls it."""

    def recording(what: str, argpos: int | None) -> Callable[[Callable], Callable]:
        def wrap(original: Callable) -> Callable:
            @functools.wraps(original)
            def watched(*args, **kwargs):
                cmd = args[argpos] if argpos is not None and len(args) > argpos else ()
                if argpos is None or _program(cmd) not in PROBES:
                    started.append(_describe(what, cmd))
                return original(*args, **kwargs)

            return watched

        return wrap

    out: list[tuple[object, str, Callable[[Callable], Callable]]] = [
        (subprocess.Popen, "_execute_child", recording("subprocess", 1)),  # (self, args, ...)
        (os, "fork", recording("os.fork", None)),
        (os, "posix_spawn", recording("os.posix_spawn", 1)),  # (path, argv, env)
        (os, "posix_spawnp", recording("os.posix_spawnp", 1)),
        (os, "system", recording("os.system", 0)),
        (_posixsubprocess, "fork_exec", recording("fork_exec", 0)),  # multiprocessing's spawn/forkserver
    ]
    api = sys.modules.get("snakemake.api")
    if api is not None:  # a module that loads the workflow in-process imported it when it was collected
        out.append((api.SnakemakeApi, "workflow", recording("Snakemake API (SnakemakeApi.workflow)", None)))
    return out


@contextmanager
def watching(started: list[str]) -> Iterator[None]:
    """Record into ``started`` every process started (and every workflow loaded) inside the block."""
    saved = []
    for owner, name, wrap in _watchers(started):
        if hasattr(owner, name):
            original = getattr(owner, name)
            saved.append((owner, name, original))
            setattr(owner, name, wrap(original))
    try:
        yield
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


def is_marked(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(m) for m in MARKS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    if is_marked(item):
        return (yield)
    started: list[str] = []
    item.stash[_STARTED] = started
    with watching(started):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    started = item.stash.get(_STARTED, None)
    if started:
        lines = "\n  ".join(dict.fromkeys(started))
        message = (
            f"{item.nodeid} started a process or loaded the workflow without a mark:\n  {lines}\n"
            "Mark it @pytest.mark.subprocess (seconds: a dry run, a CLI, a fresh interpreter) or "
            "@pytest.mark.slow (runs workflow jobs): `make check` skips both (docs/CONVENTIONS.md, Tests)."
        )
        if report.failed:  # keep the test's own failure, say this too
            report.sections.append(("unmarked process", message))
        else:
            report.outcome = "failed"
            report.longrepr = message
        started.clear()  # reported once, in the phase that started it
    return report
