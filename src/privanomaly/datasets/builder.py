"""A dataset's prepared table and its provenance, from its config entry: read from its raw file (sha256 checked) or
drawn by its generator, then the preprocessing steps (:mod:`privanomaly.datasets.prepare`) and the schema's
checks (:mod:`privanomaly.datasets.schema`). Provenance: source, sha256, rows, dims, #anomalies, the steps with
their parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from privanomaly.seeding import rng as make_rng

from . import labels, loaders, sources, synthetic
from .prepare import preprocess
from .schema import check_degenerate
from .validation import DataError, draws_randomness, is_local_file


def build(
    name: str, entry: Mapping[str, Any], raw_files: Sequence[str], seed: int | None, fit: bool = True
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Load or generate dataset ``name`` per its config ``entry`` (the keys of
    :data:`privanomaly.datasets.validation.BUILD_KEYS`; others are ignored); return (table, provenance).

    ``raw_files`` are the local paths of ``entry['files']`` (raw cache or local file), in the same order.
    ``seed`` is the config seed when the entry draws random numbers (:func:`.validation.draws_randomness`), else
    None: a table that draws none does not depend on it (provenance records ``seed`` null).
    """
    where = f"datasets.{name}."
    if draws_randomness(entry) and seed is None:
        raise ValueError(f"{where[:-1]}: a generator or a subsample draws random numbers: a seed is needed")
    if "generator" in entry:
        features, y, source_prov = _generated(name, entry, seed)
        raw_rows = len(features)
    else:
        features, y, source_prov, raw_rows = _read_raw(name, entry, raw_files)
    prov: dict[str, Any] = {"dataset": name, "source": source_prov}
    raw_dims = features.shape[1]
    source = "" if "generator" in entry else str(raw_files[0])
    out, steps = preprocess(features, y, entry.get("preprocess"), seed, name, source, fit=fit)
    check_degenerate(out, name)
    prov.update(
        raw_rows=int(raw_rows),
        raw_columns=int(raw_dims),
        rows=int(len(out)),
        dims=int(out.shape[1] - 1),
        n_anomalies=int(out["label"].sum()),
        columns=[c for c in out.columns if c != "label"],
        steps=steps,
        seed=seed,
    )
    return out, prov


def _generated(name: str, entry: Mapping[str, Any], seed: int | None) -> tuple[pd.DataFrame, np.ndarray, dict]:
    """(features, labels, provenance source) of a synthetic dataset drawn by its ``generator``."""
    where = f"datasets.{name}."
    gen = dict(entry["generator"])
    try:
        X, y = synthetic.generate(make_rng(seed, "synthetic", name), gen)
    except OverflowError as exc:
        raise DataError(f"{where}generator: its numbers are too large for float64 ({exc}); use smaller means, "
                        "variances or ranges") from exc
    if not np.isfinite(X).all():
        raise DataError(f"{where}generator: drew non-finite values (a mean plus its spread overflows float64); "
                        "use smaller means, variances or ranges")
    features = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    return features, y, {"generator": gen, "seed_keys": [seed, "synthetic", name]}


def _damage_hints(name: str, spec: Mapping[str, Any], path: str) -> tuple[str, str]:
    """(what to do on a sha256 mismatch, what to do on a file that cannot be read) for raw file ``path``."""
    where = f"datasets.{name}."
    if is_local_file(spec):
        return (f"the local file is not the one pinned: put the right file at {path}, or, if the file changed on "
                f"purpose, set {where}files[0].sha256 to its new sha256 (or remove the key)",
                f"the local file is damaged: replace {path} with a good copy (and update {where}files[0].sha256)")
    return (f"delete {path} so that it is fetched again (if a fresh download differs too, the source changed: "
            f"check {where}files[0].sha256)",
            f"delete {path} so that it is fetched again, and check {where}files[0].sha256")


def _read_raw(name: str, entry: Mapping[str, Any], raw_files: Sequence[str]
              ) -> tuple[pd.DataFrame, np.ndarray, dict, int]:
    """(features, labels, provenance source, raw rows) of a dataset read from its first raw file, its sha256
    checked (downloaded files were verified by the download rule, local files were not: both are checked
    here, so that provenance records the hash of the bytes actually read)."""
    where = f"datasets.{name}."
    if len(raw_files) != len(entry["files"]):
        raise DataError(f"{where}files: {len(entry['files'])} configured, {len(raw_files)} given")
    spec, path = entry["files"][0], raw_files[0]
    if not sources.file_present(path, f"{where}files[0]"):
        raise DataError(f"{where}files[0]: {path} not found")
    sha_hint, fix = _damage_hints(name, spec, path)
    got = sources.verify_sha256(path, spec.get("sha256"), what=f"{where}files[0] {path}", hint=sha_hint)
    table = loaders.load_table(path, entry["format"], entry.get("read"), entry["label"]["column"], where=where, fix=fix)
    if len(table) == 0:  # the label check would say only that no row matches anomaly_values
        raise DataError(f"{where}files[0]: {path} has no data rows (a header, or nothing but blank or skipped "
                        "lines); put the data in the file")
    features, y = labels.split_label(table, entry["label"], where, str(path))
    label_name = next(str(c) for c in table.columns if str(c) not in map(str, features.columns))
    for key in ("keep_columns", "drop_columns"):
        if label_name in map(str, (entry.get("preprocess") or {}).get(key) or []):
            raise DataError(f"{where}preprocess.{key}: {label_name!r} is the label column ({where}label.column), "
                            f"never a feature; remove it from {key}")
    source = {"path": spec["path"], "url": spec.get("url"), "sha256": got, "format": entry["format"],
              "read": dict(entry.get("read") or {}), "label": dict(entry["label"])}
    if "preamble_lines" in table.attrs:
        source["preamble_lines"] = table.attrs["preamble_lines"]
    return features, y, source, len(table)
