"""Run provenance: what produced ``results/``: Python and package versions, the config hash, the sha256 of
every raw dataset file read, and the git commit of the code.

Everything here is deterministic for a given environment, config, data and commit (no timestamps, no host
names), so two runs of the same code on the same data give the same ``provenance.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

KEY_PACKAGES: tuple[str, ...] = (
    "privanomaly",
    "numpy",
    "scipy",
    "pandas",
    "pyarrow",
    "scikit-learn",
    "matplotlib",
    "networkx",
    "miniball",
    "pyod",
    "snakemake",
    "jsonschema",
    "pyyaml",
)
"""Distributions whose versions are recorded (the ones whose behaviour can change a number or a file)."""


def package_versions(names: Iterable[str] = KEY_PACKAGES) -> dict[str, str | None]:
    """Installed version of each distribution (``None`` if it is not installed)."""
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def canonical_json(obj: Any) -> str:
    """The canonical text of a JSON-like object: sorted keys, no whitespace, non-JSON values as ``str``."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def config_sha256(config: Mapping[str, Any]) -> str:
    """sha256 of the resolved config (after ``--configfile`` / ``--config`` merges), key-order independent."""
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a mapping, got {type(config).__name__}")
    return hashlib.sha256(canonical_json(_plain(config)).encode("utf-8")).hexdigest()


def _plain(obj: Any) -> Any:
    """Snakemake's config is a dict subclass with extras; turn it (recursively) into plain dicts/lists."""
    if isinstance(obj, Mapping):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def git_commit(repo_dir: str | os.PathLike) -> str:
    """``git rev-parse HEAD`` of the checkout at ``repo_dir``, with ``+dirty`` if tracked files were modified;
    ``"unknown"`` when ``repo_dir`` is not a git checkout or git is not installed."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(repo_dir), *args], capture_output=True, text=True, timeout=20, check=True
        ).stdout.strip()

    try:
        head = git("rev-parse", "--verify", "HEAD")
        top = git("rev-parse", "--show-toplevel")
        if Path(top).resolve() != Path(repo_dir).resolve():
            return "unknown"  # repo_dir is not itself a checkout, just inside another one
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if len(head) != 40:
        return "unknown"
    return head + ("+dirty" if dirty else "")


def dataset_record(prov: Mapping[str, Any]) -> dict[str, Any]:
    """The provenance facts of one dataset from its ``results/data/<name>.json``: the raw file's sha256 (or the
    generator and seed keys of a synthetic set), and the shape of the prepared table."""
    src = prov.get("source", {}) or {}
    rec: dict[str, Any] = {
        "rows": prov.get("rows"),
        "dims": prov.get("dims"),
        "n_anomalies": prov.get("n_anomalies"),
    }
    if "sha256" in src:
        rec.update(kind="file", path=src.get("path"), url=src.get("url"), sha256=src["sha256"])
    elif "generator" in src:
        rec.update(kind="synthetic", generator=src["generator"], seed_keys=src.get("seed_keys"))
    else:
        rec.update(kind="unknown")
    for key in ("available", "reason"):
        if key in prov:
            rec[key] = prov[key]
    return rec


def dataset_records(json_paths: Iterable[str | os.PathLike]) -> dict[str, dict[str, Any]]:
    """``{dataset: dataset_record}`` for each provenance JSON (name from ``"dataset"``, else the file stem)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(map(str, json_paths)):
        try:
            prov = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: cannot read dataset provenance JSON ({exc})") from exc
        if not isinstance(prov, Mapping):
            raise ValueError(f"{path}: dataset provenance must be a JSON object, got {type(prov).__name__}")
        name = str(prov.get("dataset") or Path(path).stem)
        rec = dataset_record(prov)
        rec["provenance_file"] = Path(path).name
        out[name] = rec
    return out


def collect(
    config: Mapping[str, Any],
    dataset_jsons: Iterable[str | os.PathLike],
    commit: str,
) -> dict[str, Any]:
    """The whole ``provenance.json`` document."""
    return {
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
        },
        "platform": {"system": platform.system(), "machine": platform.machine()},
        "packages": package_versions(),
        "config_sha256": config_sha256(config),
        "seed": config.get("seed"),
        "git_commit": commit,
        "datasets": dataset_records(dataset_jsons),
    }


# ------------------------------------------------------------------ content tracking of raw files (DAG time)
# Snakemake decides reruns by modification time: a raw file restored from a backup (``cp -p``) with an older
# mtime leaves the prepared table stale. The sha256 of each raw file, given to rule ``prepare`` as a param,
# makes a change of content a change of the job (Snakemake reruns a job whose params changed). Hashing is
# cached by (path, size, mtime_ns), in memory and in a JSON file under resources_dir, so a DAG build hashes
# only new or touched files.

SHA256_CACHE = "sha256_cache.json"  # under resources_dir


def sha256_file(path: str | os.PathLike, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            h.update(block)
    return h.hexdigest()
_MEMO: dict[tuple[str, int, int], str] = {}


def _stat_key(path: str | os.PathLike) -> tuple[str, int, int]:
    p = Path(path).resolve()
    st = p.stat()
    return str(p), int(st.st_size), int(st.st_mtime_ns)


def cached_sha256(path: str | os.PathLike, cache_file: str | os.PathLike | None = None) -> str:
    """sha256 of the file at ``path``, computed once per (path, size, mtime_ns): remembered in this process and,
    with ``cache_file``, in that JSON file across processes (rewritten atomically when it gains an entry)."""
    key = _stat_key(path)
    if key in _MEMO:
        return _MEMO[key]
    disk: dict[str, list] = {}
    if cache_file is not None and Path(cache_file).is_file():
        try:
            disk = json.loads(Path(cache_file).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            disk = {}  # a damaged cache is only a cache: rebuilt below
        if not isinstance(disk, dict):
            disk = {}  # valid JSON of another shape (e.g. `null`): damaged too
    hit = disk.get(key[0])
    if isinstance(hit, list) and len(hit) == 3 and hit[:2] == [key[1], key[2]]:
        _MEMO[key] = str(hit[2])
        return _MEMO[key]
    digest = sha256_file(path)
    _MEMO[key] = digest
    if cache_file is not None:
        from privanomaly import io

        disk[key[0]] = [key[1], key[2], digest]
        try:
            Path(cache_file).parent.mkdir(parents=True, exist_ok=True)
            io.write_text(cache_file, json.dumps(disk, sort_keys=True, indent=0) + "\n")
        except OSError:
            pass  # resources_dir not writable (a shared, read-only raw cache): only the next build hashes again
    return digest


def raw_sha256(files: Iterable[Mapping[str, Any]], paths: Iterable[str | os.PathLike],
               cache_file: str | os.PathLike | None = None) -> list[str | None]:
    """The content of a dataset's raw files, one entry per file of its ``files:`` list (``paths``: where the
    run reads each, :meth:`privanomaly.datasets.plan.DataPlan.raw_files`): the sha256 of the file when it is there,
    else the sha256 pinned in the config (a file still to be downloaded is checked against it), else None.

    A generated dataset has no files: ``[]``."""
    out: list[str | None] = []
    for spec, path in zip(files, paths):
        out.append(cached_sha256(path, cache_file) if Path(path).is_file() else spec.get("sha256"))
    return out
