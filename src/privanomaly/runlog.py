"""Logging for the thin rule scripts: send stdout/stderr and the ``logging`` module to the rule's log file."""

from __future__ import annotations

import contextlib
import logging
import sys
from pathlib import Path
from typing import Callable, Iterator, Sequence


@contextlib.contextmanager
def log_to(path: str | Path | None) -> Iterator[logging.Logger]:
    """Redirect output of the enclosed block to ``path`` (appending); yields a logger.

    Exceptions are logged with their traceback and re-raised, so Snakemake marks the job failed and the
    log says why.
    """
    logger = logging.getLogger("privanomaly")
    if path is None:
        logging.basicConfig(level=logging.INFO)
        yield logger
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8", buffering=1) as fh:
        handler = logging.StreamHandler(fh)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        try:
            with contextlib.redirect_stdout(fh), contextlib.redirect_stderr(fh):
                yield logger
        except BaseException:
            logger.exception("job failed")
            raise
        finally:
            logger.removeHandler(handler)


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
