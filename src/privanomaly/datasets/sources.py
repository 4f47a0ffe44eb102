"""Raw files: download from the canonical URL or copy from a local mirror, always checking sha256.

Every raw file has a *relpath* in the mirror layout (e.g. ``thyroid/38_thyroid.npz``, the layout of
``../shared/datasets``). The pipeline stores it at ``{resources_dir}/raw/<relpath>``. A file is written to a
temporary sibling, its sha256 checked, and only then renamed into place: a failed or killed transfer
never leaves a file that looks complete.
"""

from __future__ import annotations

import http.client
import os
import shutil
import stat
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from privanomaly.io import atomic_path
from privanomaly.run.provenance import sha256_file

from .validation import ChecksumError, DataError, is_local_file

USER_AGENT = "privanomaly-data/0.1 (+https://github.com/; reproducibility pipeline)"


def verify_sha256(path: str | os.PathLike, expected: str | None, what: str | None = None, hint: str = "") -> str:
    """Return the file's sha256; raise ``ChecksumError`` (expected vs got, + ``hint``) if it differs from ``expected``."""
    got = sha256_file(path)
    if expected and got.lower() != expected.lower():
        raise ChecksumError(
            f"{what or path}: sha256 mismatch — expected {expected.lower()}, got {got} "
            f"({Path(path).stat().st_size} bytes){'; ' + hint if hint else ''}"
        )
    return got


def file_present(path: str | os.PathLike, what: str = "") -> bool:
    """``True`` if ``path`` is a readable regular file, ``False`` only if nothing at all is there.

    Anything else raises ``DataError`` naming the path: a directory, a symlink loop or a dangling symlink, a
    path through a regular file, permission denied, another read error. An input that exists but cannot be
    read is never treated as absent (it would silently drop its dataset from every table).
    """
    p = Path(path)
    label = f"{what}: " if what else ""
    try:
        st = os.stat(p)
    except FileNotFoundError:
        if os.path.lexists(p):
            raise DataError(
                f"{label}{p} is a symbolic link to {os.readlink(p)!r}, which does not exist; fix or remove the link"
            ) from None
        return False
    except OSError as exc:  # ELOOP (symlink loop), ENOTDIR, EACCES on a parent, ...
        raise DataError(f"{label}{p} exists but cannot be read ({exc.strerror or exc}); fix or remove it") from exc
    if stat.S_ISDIR(st.st_mode):
        raise DataError(f"{label}{p} is a directory, not a file; put the file itself there")
    if not stat.S_ISREG(st.st_mode):
        raise DataError(f"{label}{p} is not a regular file (a device, socket or pipe); put the file itself there")
    try:
        with open(p, "rb") as fh:
            fh.read(1)
    except OSError as exc:
        raise DataError(f"{label}{p} exists but cannot be read ({exc.strerror or exc}); fix its permissions") from exc
    return True


def check_mirror_dir(mirror: str | os.PathLike) -> Path:
    """The mirror directory as a Path; raise a clear ``DataError`` if it does not exist."""
    root = Path(mirror)
    if not root.is_dir():
        what = "is not a directory (it is a file)" if root.exists() else "does not exist"
        raise DataError(
            f"data_mirror: directory {str(mirror)!r} {what} (set data_mirror to the directory holding "
            f"the raw files, e.g. ../shared/datasets, or to null to download from the canonical URLs)"
        )
    return root


def check_output_dir(path: str | os.PathLike, key: str) -> None:
    """``results_dir`` / ``resources_dir`` (``key``): a directory, or a path that can become one - not a file
    (nor below one), which would fail every job with NotADirectoryError."""
    p = Path(path)
    for q in (p, *p.parents):
        if q.exists():
            if not q.is_dir():
                where = "is a file" if q == p else f"is below the file {str(q)!r}"
                raise DataError(f"{key}: {str(path)!r} {where}, not a directory; set {key} to a directory")
            return


def mirror_path(mirror: str | os.PathLike, relpath: str) -> Path:
    """Where ``relpath`` lives in the mirror (the mirror directory must exist)."""
    return check_mirror_dir(mirror) / relpath


def copy_from_mirror(mirror: str | os.PathLike, relpath: str, dest: str | os.PathLike, sha256: str | None) -> str:
    """Copy ``<mirror>/<relpath>`` to ``dest`` atomically after checking its sha256; return the sha256."""
    src = mirror_path(mirror, relpath)
    if not file_present(src, relpath):
        raise DataError(f"{relpath}: not found in data_mirror {str(mirror)!r} (looked for {src})")
    with atomic_path(dest) as tmp:
        shutil.copyfile(src, tmp)
        got = verify_sha256(tmp, sha256, what=f"{relpath} (copied from {src})", hint="the file was not kept")
    return got


def download_url(url: str, dest: str | os.PathLike, sha256: str | None, timeout: float = 60.0) -> str:
    """Download ``url`` to ``dest`` atomically after checking its sha256; return the sha256.

    On a mismatch nothing is left at ``dest`` and ``ChecksumError`` names the URL, expected and got.
    """
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with atomic_path(dest) as tmp:
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp, open(tmp, "wb") as out:
                shutil.copyfileobj(resp, out, length=1 << 20)
                announced, received = resp.headers.get("Content-Length"), out.tell()
        except (OSError, http.client.HTTPException) as exc:  # URLError, HTTPError, timeouts; IncompleteRead
            raise DataError(f"{url}: download failed ({exc}); set data_mirror to use a local copy") from exc
        # a connection closed early ends the body without an error: only its announced length tells
        if announced is not None and announced.isdigit() and int(announced) != received:
            raise DataError(
                f"{url}: download incomplete ({received} of {announced} bytes received); the file was not kept - "
                "run again, or set data_mirror to use a local copy"
            )
        got = verify_sha256(tmp, sha256, what=url, hint="the file was not kept")
    return got


def fetch(
    relpath: str,
    dest: str | os.PathLike,
    url: str | None,
    sha256: str | None,
    mirror: str | os.PathLike | None = None,
    timeout: float = 60.0,
) -> dict[str, Any]:
    """Bring one raw file to ``dest``: from ``mirror`` if given, else from ``url``; return provenance."""
    if mirror:
        got = copy_from_mirror(mirror, relpath, dest, sha256)
        origin = str(Path(mirror) / relpath)
    else:
        if not url:
            raise DataError(f"{relpath}: no url configured and data_mirror is null; cannot obtain the file")
        got = download_url(url, dest, sha256, timeout=timeout)
        origin = url
    return {"relpath": relpath, "origin": origin, "sha256": got, "bytes": Path(dest).stat().st_size}


def raw_path(spec: Mapping[str, Any], resources_dir: str) -> str:
    """Path the pipeline reads a file entry from: the raw cache for downloaded files, else the local path."""
    if is_local_file(spec):
        return str(spec["path"])
    return f"{resources_dir}/raw/{spec['path']}"


def availability(
    files: list[Mapping[str, Any]], mirror: str | None, resources_dir: str, where: str = ""
) -> tuple[bool, str]:
    """Whether every file of a dataset can be obtained in this run, and if not, why (one line).

    With ``mirror`` set, a downloaded file is available when it is in the raw cache or in the mirror.
    Without a mirror every file is attempted for download (always "available"). A local file (no ``url``)
    must exist: a missing one raises ``DataError`` (a mistyped path must not drop the dataset silently).
    Only a downloaded file that is genuinely absent makes a dataset unavailable: one that exists but cannot
    be read (a directory, a symlink loop, permission denied) raises ``DataError`` naming the path
    (``file_present``).
    """
    for i, spec in enumerate(files):
        try:
            ok, why = _file_availability(spec, mirror, resources_dir)
        except DataError as exc:
            raise DataError(f"{where}files[{i}]: {exc}" if where else str(exc)) from exc
        if not ok:
            return ok, why
    return True, ""


def _file_availability(spec: Mapping[str, Any], mirror: str | None, resources_dir: str) -> tuple[bool, str]:
    """``availability`` of one file entry."""
    rp = raw_path(spec, resources_dir)
    if is_local_file(spec):
        if not file_present(rp, "local data file"):
            # a file without url cannot be fetched: its absence is a wrong path, never an offline dataset
            raise DataError(
                f"local data file {rp} does not exist (looked for {Path(rp).resolve()}); this file has no url "
                "to fetch it from: fix its path (absolute, or relative to the directory Snakemake runs in), "
                "put the file there, or add a url"
            )
        return True, ""
    if file_present(rp, "raw cache"):
        return True, ""
    if mirror and not file_present(Path(mirror) / spec["path"], "data_mirror"):
        return False, (
            f"not in mirror {mirror} and not cached; skipped — run with internet (data_mirror: null) "
            f"to include it"
        )
    return True, ""
