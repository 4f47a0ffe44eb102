"""Logging for the thin rule scripts: send stdout/stderr and the ``logging`` module to the rule's log file."""

from __future__ import annotations

import atexit
import contextlib
import gc
import logging
import re
import resource
import sys
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Sequence


@contextlib.contextmanager
def log_to(path: str | Path | None) -> Iterator[logging.Logger]:
    """Redirect output of the enclosed block to ``path`` (appending); yields a logger.

    Exceptions are logged with their traceback and re-raised, so Snakemake marks the job failed and the
    log says why. A job logging to a file is a process that ends after its body: it ends without the
    interpreter's final garbage collections (:func:`skip_collection_at_exit`).
    """
    logger = logging.getLogger("privanomaly")
    if path is None:
        logging.basicConfig(level=logging.INFO)
        yield logger
        return
    skip_collection_at_exit()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8", buffering=1) as fh:
        handler = logging.StreamHandler(fh)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.info("%s", start_line())
        try:
            with contextlib.redirect_stdout(fh), contextlib.redirect_stderr(fh):
                yield logger
        except BaseException:
            logger.exception("job failed")
            raise
        finally:
            logger.info("%s", usage_line())
            logger.removeHandler(handler)


_SKIPPING_COLLECTION_AT_EXIT: list[bool] = []


def skip_collection_at_exit() -> None:
    """Have this process end without the interpreter's final garbage collections: ``gc.freeze()`` at exit.

    When Python shuts down it clears every module and collects garbage over all objects still tracked - for a
    process that imported numpy, pandas, scipy or Snakemake, 0.05-0.2 s of CPU that frees memory the operating
    system is about to take back. Freezing moves those objects to the permanent generation, which collections
    skip; everything else of the shutdown still happens (atexit handlers, module teardown, files flushed and
    closed, objects freed by reference counting). Registered once per process; nothing changes before exit.
    Used by :func:`log_to` (every rule script's job) and by the workflow (Snakemake's own process).
    """
    if not _SKIPPING_COLLECTION_AT_EXIT:
        atexit.register(gc.freeze)
        _SKIPPING_COLLECTION_AT_EXIT.append(True)


USAGE_PREFIX = "job usage:"
START_PREFIX = "job start:"


def start_line() -> str:
    """CPU time this process spent before the job's body (interpreter start, Snakemake's script preamble, the
    script's imports): the job's start-up cost, which benchmarks/bench_runs.py separates from its work."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return f"{START_PREFIX} cpu_s={ru.ru_utime + ru.ru_stime:.3f}"


def usage_line() -> str:
    """CPU time and peak RSS of this process so far (getrusage: exact, unlike Snakemake's sampled benchmark
    files, which look every 30 s after the first 30 s). benchmarks/scale_report.py reads this line."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)  # finished subprocesses, if any
    return (f"{USAGE_PREFIX} cpu_user_s={ru.ru_utime:.2f} cpu_sys_s={ru.ru_stime:.2f} "
            f"cpu_children_s={ch.ru_utime + ch.ru_stime:.2f} peak_rss_mb={ru.ru_maxrss / 1024:.1f} "
            f"peak_rss_children_mb={ch.ru_maxrss / 1024:.1f}")


_START = re.compile(re.escape(START_PREFIX) + r" cpu_s=([0-9.]+)")
_USAGE = re.compile(re.escape(USAGE_PREFIX) + r" cpu_user_s=([0-9.]+) cpu_sys_s=([0-9.]+) cpu_children_s=([0-9.]+) "
                    r"peak_rss_mb=([0-9.]+) peak_rss_children_mb=([0-9.]+)")


class JobCPU(NamedTuple):
    """What a job's log says of its process (:func:`start_line`, :func:`usage_line`; the last of each)."""

    start_cpu_s: float | None  # CPU before the body; None when the log has no start line
    cpu_s: float  # user + system + finished subprocesses, at the end of the body
    peak_rss_mb: float  # the larger of the process's and its subprocesses' peak RSS


def read_job_cpu(text: str) -> JobCPU | None:
    """The :class:`JobCPU` of a job log's text, None when it has no usage line (a job that did not finish
    its body, or a rule that does not log through :func:`log_to`)."""
    usage = _USAGE.findall(text)
    if not usage:
        return None
    user, sys_, children, rss, rss_children = map(float, usage[-1])
    start = _START.findall(text)
    return JobCPU(float(start[-1]) if start else None, user + sys_ + children, max(rss, rss_children))


def progress(iterable, **kwargs):
    """A tqdm progress bar writing to the (possibly redirected) stderr, i.e. to the rule's log."""
    from tqdm import tqdm

    kwargs.setdefault("file", sys.stderr)
    kwargs.setdefault("mininterval", 2.0)
    kwargs.setdefault("ascii", True)
    return tqdm(iterable, **kwargs)


@contextlib.contextmanager
def steps(desc: str, names: Sequence[str]) -> Iterator[Callable[[str], None]]:
    """A tqdm bar over the named steps of one job, in its log (``tail -f results/logs/<rule>/<wildcards>.log``).

    For jobs whose time goes into a few long library calls (paper A's selection, errors, detection, growth)::

        with runlog.steps(name, ["exact errors", "trials"]) as step:
            step("exact errors"); errs = ...
            step("trials"); trials = ...

    ``step(name)`` closes the running step and starts ``name`` (shown after the bar); leaving the block closes
    the last one, so the bar reads ``n/n`` when the job is done. An unknown step name is an error.
    """
    names = list(names)
    bar = progress(None, total=len(names), desc=desc, mininterval=0.0, unit="step")
    started: list[str] = []

    def step(name: str) -> None:
        if name not in names:
            raise ValueError(f"runlog.steps({desc!r}): unknown step {name!r}; declared: {names}")
        bar.set_postfix_str(name, refresh=not started)
        if started:
            bar.update(1)
        started.append(name)

    try:
        yield step
        if started:
            bar.set_postfix_str("done", refresh=False)
            bar.update(1)
    finally:
        bar.close()


class Ticker:
    """Progress lines from inside a long computation, at most one every ``every`` seconds, in the job's log::

        tick = Ticker("Algorithm 2 (N=1831)")
        tick(lambda: f"window t = {t} of {N}")   # cheap when not due: the message is built only when logged

    Each line reads ``<what>: <message>, <elapsed> s elapsed``. The clock only paces the log; no result
    depends on it.
    """

    def __init__(self, what: str, every: float = 5.0, clock: Callable[[], float] | None = None):
        import time

        self.what, self.every = what, float(every)
        self.clock = clock or time.monotonic
        self.start = self.last = self.clock()

    def __call__(self, message: Callable[[], str] | str) -> bool:
        """Log ``message`` if ``every`` seconds have passed since the last line; True if it was logged."""
        now = self.clock()
        if now - self.last < self.every:
            return False
        self.last = now
        text = message() if callable(message) else message
        logging.getLogger("privanomaly").info("%s: %s, %.0f s elapsed", self.what, text, now - self.start)
        return True

    def time_left(self, done: float, total: float) -> str:
        """``about N s left``: the rest of ``total`` at the rate of the ``done`` so far (an estimate for the log)."""
        spent = self.clock() - self.start
        return f"about {spent * (total - done) / max(done, 1e-9):.0f} s left"
