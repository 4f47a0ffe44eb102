"""Atomic output helpers: every file is written to a temporary sibling and renamed into place.

A job killed half-way therefore never leaves a file that Snakemake (or a reader) would take as complete.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # pandas only for the type hints: a job that writes no table does not import it
    import pandas as pd


TEMP_TAG = ".tmp"


def _host() -> str:
    """This machine's short host name (no dots: it is one field of a temporary file's name)."""
    return socket.gethostname().split(".")[0] or "localhost"


def _temp_prefix(target: Path) -> str:
    """``.<name>.<host>-<pid>.``: a temporary file names the process that writes it (see ``stale_temporaries``)."""
    return f".{target.name}.{_host()}-{os.getpid()}."


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by someone else
        return True
    return True


def stale_temporaries(directory: str | os.PathLike, name: str | None = None) -> list[Path]:
    """Hidden temporary files in ``directory`` left by a writer that no longer runs (e.g. killed by SIGKILL).

    Only files this module names ``.<name>.<host>-<pid>.<random>.tmp<suffix>`` are considered, and only when
    ``<host>`` is this machine and process ``<pid>`` is gone: a file being written by a live process (a
    concurrent run sharing ``resources_dir``) or on another node of a cluster is never touched. ``name``
    restricts the search to the temporaries of one target file.
    """
    d = Path(directory)
    host = _host()
    pattern = re.compile(r"^\.(?P<name>.+)\.(?P<host>[^.]*)-(?P<pid>\d+)\.[^.]+\.tmp(\.[^.]*)?$")
    out = []
    try:
        entries = list(d.iterdir())
    except FileNotFoundError:
        return []
    for p in entries:
        m = pattern.match(p.name)
        if not m or m["host"] != host or (name is not None and m["name"] != name):
            continue
        if not p.is_symlink() and p.is_file() and not _pid_alive(int(m["pid"])):
            out.append(p)
    return sorted(out)


def remove_stale_temporaries(root: str | os.PathLike) -> list[Path]:
    """Delete every stale temporary file (``stale_temporaries``) under ``root``, recursively; return them."""
    removed = []
    for dirpath, _dirs, _files in os.walk(root):
        for p in stale_temporaries(dirpath):
            p.unlink(missing_ok=True)
            removed.append(p)
    return removed


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` only if the block succeeds.

    On an exception the temporary file is removed and an existing ``path`` keeps its old content. A process
    killed inside the block (SIGKILL) can leave only a hidden ``.<name>.<host>-<pid>.*.tmp<suffix>`` sibling,
    never a partial ``path``; the next write of ``path`` deletes such leftovers of dead writers
    (``stale_temporaries``). The rename is atomic because the temporary file is in the same directory.
    """
    target = Path(path)
    if target.is_dir():  # os.replace would fail only after the whole write, naming the temporary file
        raise IsADirectoryError(f"{target}: is a directory, not a file; give a file path to write")
    target.parent.mkdir(parents=True, exist_ok=True)
    for old in stale_temporaries(target.parent, target.name):
        old.unlink(missing_ok=True)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=TEMP_TAG + target.suffix, dir=target.parent)
    except OSError as exc:  # a read-only directory or file system: name the output, not the temporary file
        raise type(exc)(exc.errno, f"cannot write {target}: its directory {target.parent} does not take new files "
                                   f"({exc.strerror}); make it writable or set results_dir to a writable directory"
                        ) from exc
    os.close(fd)
    tmp = Path(tmp_name)
    # mkstemp creates the file 0600; give the result the permissions a plain open() would (0666 & ~umask).
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    try:
        yield tmp
        if not tmp.exists():
            raise FileNotFoundError(f"{target}: the writer did not create the temporary file {tmp}")
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as indented, key-sorted JSON atomically (byte-stable across runs)."""
    write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=_json_default) + "\n")


def _json_default(o: Any) -> Any:
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def write_table(df: pd.DataFrame, path: str | os.PathLike, float_format: str = "%.10g") -> None:
    """Write a tidy table atomically; the format follows the suffix (.csv, .parquet, .md).

    CSV floats use a fixed ``float_format`` so that equal numbers give byte-identical files.
    """
    target = Path(path)
    with atomic_path(target) as tmp:
        if target.suffix == ".csv":
            df.to_csv(tmp, index=False, float_format=float_format, lineterminator="\n")
        elif target.suffix == ".parquet":
            df.to_parquet(tmp, index=False)
        elif target.suffix == ".md":
            tmp.write_text(to_markdown(df) + "\n", encoding="utf-8")
        else:
            raise ValueError(f"{target}: unsupported table suffix {target.suffix!r} (expected .csv, .parquet or .md)")


def to_markdown(df: pd.DataFrame, float_digits: int = 4) -> str:
    """Render ``df`` as a GitHub-flavoured Markdown table without needing ``tabulate``."""

    def fmt(v: Any) -> str:
        if isinstance(v, float):
            if v != v:  # NaN
                return "—"
            return f"{v:.{float_digits}g}"
        return text(v)

    def text(v: Any) -> str:
        return " ".join(str(v).replace("|", "\\|").split("\n"))  # a line break would end the table row

    header = "| " + " | ".join(text(c) for c in df.columns) + " |"
    rule = "| " + " | ".join("---" for _ in df.columns) + " |"
    rows = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def save_figure(fig: Any, *paths: str | os.PathLike, dpi: int = 150) -> None:
    """Save a matplotlib figure to each path (PNG/PDF by suffix) atomically, with stable metadata."""
    for path in paths:
        target = Path(path)
        with atomic_path(target) as tmp:
            fmt = target.suffix.lstrip(".")
            metadata = {"CreationDate": None} if fmt == "pdf" else ({"Software": None} if fmt == "png" else None)
            fig.savefig(tmp, format=fmt, dpi=dpi, bbox_inches="tight", metadata=metadata)
