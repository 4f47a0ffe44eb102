"""The shape (N, d) a dataset's prepared table will have, before ``prepare`` has run: from a generator's config,
or from a local CSV file's header and line count with the entry's column and preprocessing options. Read by the
run's start-up outlook only (paper B's CPU estimates, :func:`privanomaly.preflight.notices`); nothing is decided by
it. N is an upper bound where ``preprocess.missing: drop`` may drop rows."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any


def expected_shape(entry: Mapping[str, Any], raw_files: list[str]) -> tuple[int, int] | None:
    """(N, d) of the prepared table of the dataset ``entry`` (whose raw files are ``raw_files``), or None when it
    cannot be told without reading the data (another format, a file not fetched yet, an unreadable header)."""
    pre = entry.get("preprocess") or {}
    if "generator" in entry:
        g = entry["generator"]
        if not all(isinstance(g.get(k), int) for k in ("dim", "n_normal", "n_anomaly")):
            return None
        n, d = g["n_normal"] + g["n_anomaly"], g["dim"]
    elif entry.get("format") == "csv" and len(raw_files) == 1 and Path(raw_files[0]).is_file():
        shape = _csv_shape(Path(raw_files[0]), entry)
        if shape is None:
            return None
        n, d = shape
    else:
        return None
    if pre.get("pca"):
        d = min(d, int(pre["pca"]))
    sub = pre.get("subsample")
    if isinstance(sub, Mapping):
        n = min(n, int(sub.get("n_normal", 0)) + int(sub.get("n_anomaly", 0)))
    return n, d


def _csv_shape(path: Path, entry: Mapping[str, Any]) -> tuple[int, int] | None:
    """(data lines, feature columns) of a CSV file with a header row: the columns less the label column, the
    kept or the dropped ones applied."""
    read = entry.get("read") or {}
    # a header row, single-character separator and one record per line: other layouts are left to prepare
    if any(read.get(k) not in (None, 0) for k in ("member", "skiprows", "names", "comment", "header_prefix")) \
            or "header" in read or len(read.get("sep", ",")) != 1 or str(path).endswith(".gz"):
        return None
    lines, last = 0, b"\n"
    with path.open("rb") as fh:
        header = fh.readline().decode("utf-8", "replace").strip()
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            lines, last = lines + chunk.count(b"\n"), chunk[-1:]
    lines += last != b"\n"  # a last line without its newline
    cols = [c.strip().strip('"') for c in header.split(read.get("sep", ","))]
    if len(cols) < 2:
        return None
    pre = entry.get("preprocess") or {}
    label = (entry.get("label") or {}).get("column")
    keep = pre.get("keep_columns")
    feats = [c for c in (keep if keep else cols) if c != label and c not in (pre.get("drop_columns") or [])]
    return lines, len(feats) - (0 if keep or label in cols else 1)  # a label named otherwise is a column too
