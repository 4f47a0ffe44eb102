"""Logging for the thin rule scripts: send stdout/stderr and the ``logging`` module to the rule's log file."""

from __future__ import annotations

import contextlib
import logging
import sys
from pathlib import Path
from typing import Iterator


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
