"""Clear errors for the data layer: bad files, bad dataset entries, unknown dataset names.

The JSON schema (workflow/schemas/config.schema.yaml) checks types and bounds; the checks here cover what
a schema cannot say well (e.g. a mean vector whose length must equal ``dim``) and name the config key.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

FORMATS = ("npz", "mat", "csv", "parquet", "uci_data", "aps_csv", "zip_csv")
GENERATORS = ("gaussian_mixture", "gaussian_outliers")
MISSING_MODES = ("error", "drop", "impute_median")


class DataError(ValueError):
    """A data file or dataset entry is not what the config says it is."""


class ChecksumError(DataError):
    """A file's sha256 differs from the one pinned in the config."""


# The keys of a dataset entry that make its table (read by privanomaly.datasets.builder.build); the others
# (description, homepage, the stand-in note) only document it: a new description reruns neither rule prepare nor
# what reads its table.
BUILD_KEYS = ("files", "format", "read", "label", "preprocess", "generator")


def build_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a ``datasets:`` entry that ``build`` reads (rule prepare's param ``entry``)."""
    return {k: entry[k] for k in BUILD_KEYS if k in entry}


def draws_randomness(entry: Mapping[str, Any]) -> bool:
    """Whether preparing ``entry`` draws random numbers (a ``generator``, or ``preprocess.subsample``): only then
    does its table depend on the config seed (rule prepare's param ``seed``; None otherwise)."""
    return "generator" in entry or bool((entry.get("preprocess") or {}).get("subsample"))


def check_dataset_names(names: Iterable[Any], known: Iterable[str], key: str) -> list[str]:
    """Return ``names`` as a list, or raise naming the first unknown one and its config key.

    ``key`` is the config path of the list, e.g. ``"paper_a.datasets"``; the message reads
    ``paper_a.datasets[2]: unknown dataset 'foo'; known: adult, thyroid``.
    """
    known_sorted = sorted(known)
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise DataError(f"{key}: expected a list of dataset names, got {names!r}")
    out = list(names)
    for i, name in enumerate(out):
        if name not in known_sorted:
            raise DataError(f"{key}[{i}]: unknown dataset {name!r}; known: {', '.join(known_sorted)}")
    return out


def check_dataset_name(name: Any, known: Iterable[str], key: str) -> str:
    """Return ``name`` or raise ``paper_a.fig2.dataset: unknown dataset 'foo'; known: ...`` (a single name)."""
    known_sorted = sorted(known)
    if name not in known_sorted:
        raise DataError(f"{key}: unknown dataset {name!r}; known: {', '.join(known_sorted)}")
    return name


def is_local_file(spec: Mapping[str, Any]) -> bool:
    """A file entry without ``url`` is a local file used in place (absolute or relative to the workdir)."""
    return not spec.get("url")


def check_dataset_entry(name: str, entry: Mapping[str, Any]) -> None:
    """Semantic checks of one ``datasets.<name>`` entry that the schema cannot express; raise ``DataError``."""
    key = f"datasets.{name}"
    has_files = bool(entry.get("files"))
    has_gen = "generator" in entry
    if has_files == has_gen:
        raise DataError(f"{key}: give exactly one of 'files' (a real dataset) or 'generator' (synthetic)")
    if has_files:
        _check_files_entry(key, entry)
    else:
        _check_generator(key, entry["generator"])
    pre = entry.get("preprocess", {}) or {}
    pca = pre.get("pca")
    if pca is not None and pca < 1:
        raise DataError(f"{key}.preprocess.pca: must be a positive integer or null, got {pca!r}")
    if pre.get("missing", "error") not in MISSING_MODES:
        raise DataError(f"{key}.preprocess.missing: {pre.get('missing')!r} is not one of {', '.join(MISSING_MODES)}")


def _check_files_entry(key: str, entry: Mapping[str, Any]) -> None:
    """A dataset read from a file: its format, label column, one file with a path (relative for a download) and
    a text sha256, a zip member, a known text encoding."""
    fmt = entry.get("format")
    if fmt not in FORMATS:
        raise DataError(f"{key}.format: {fmt!r} is not one of {', '.join(FORMATS)}")
    if "label" not in entry or "column" not in entry["label"]:
        raise DataError(f"{key}.label.column: required for a dataset read from files")
    if len(entry["files"]) != 1:
        raise DataError(f"{key}.files: exactly one file is read per dataset, got {len(entry['files'])}")
    for i, spec in enumerate(entry["files"]):
        path = str(spec.get("path", ""))
        if not path:
            raise DataError(f"{key}.files[{i}].path: required")
        sha = spec.get("sha256")
        if isinstance(sha, (int, float)) and not isinstance(sha, bool):
            # unquoted in YAML, a sha256 of only digits (or e.g. 1e5...) is read as a number
            raise DataError(
                f"{key}.files[{i}].sha256: {sha!r} is a number, not a sha256 text; YAML reads an unquoted "
                "sha256 of digits as a number: write it in quotes, sha256: \"<the 64 hex digits>\""
            )
        if spec.get("url") and (path.startswith("/") or ".." in path.split("/")):
            raise DataError(
                f"{key}.files[{i}].path: a downloaded file needs a relative path inside the mirror layout "
                f"(e.g. 'thyroid/38_thyroid.npz'), got {path!r}"
            )
    if fmt == "zip_csv" and not entry.get("read", {}).get("member"):
        raise DataError(f"{key}.read.member: format zip_csv needs the name of the CSV inside the zip")
    encoding = (entry.get("read") or {}).get("encoding")
    if encoding is not None:
        import codecs

        try:
            codecs.lookup(encoding)
        except LookupError:
            raise DataError(f"{key}.read.encoding: unknown text encoding {encoding!r} (e.g. utf-8, latin-1, "
                            "cp1252)") from None


def _check_generator(key: str, gen: Mapping[str, Any]) -> None:
    """A synthetic dataset: a known generator whose vectors have ``dim`` entries, whose box fits float64 and
    whose components each get points."""
    gname = gen.get("name")
    if gname not in GENERATORS:
        raise DataError(f"{key}.generator.name: {gname!r} is not one of {', '.join(GENERATORS)}")
    if gname == "gaussian_outliers":
        dim = gen["dim"]
        for part in ("normal", "anomaly"):
            for field in ("mean", "var"):
                vec = gen[part][field]
                if len(vec) != dim:
                    raise DataError(f"{key}.generator.{part}.{field}: length {len(vec)} differs from dim = {dim}")
    if gname == "gaussian_mixture" and gen["mean_low"] >= gen["mean_high"]:
        raise DataError(f"{key}.generator: mean_low must be < mean_high")
    if gname == "gaussian_mixture":
        margin = float(gen.get("background_margin", 0.0))
        span = (float(gen["mean_high"]) + margin) - (float(gen["mean_low"]) - margin)
        if not math.isfinite(span):  # numpy's uniform draw raises OverflowError naming nothing
            raise DataError(f"{key}.generator: the box [mean_low - background_margin, mean_high + "
                            f"background_margin] = [{gen['mean_low']:g} - {margin:g}, {gen['mean_high']:g} + "
                            f"{margin:g}] is wider than float64 can hold; use a smaller range")
    if gname == "gaussian_mixture" and gen["n_components"] > gen["n_normal"]:
        raise DataError(f"{key}.generator.n_components: {gen['n_components']} components for n_normal = "
                        f"{gen['n_normal']} points (each component needs points; at most n_normal)")


def download_specs(datasets: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """{relpath: file entry} of every file fetched by URL; entries sharing a path must agree on its sha256."""
    out: dict[str, Mapping[str, Any]] = {}
    for name, entry in datasets.items():
        for i, spec in enumerate(entry.get("files") or []):
            if not spec.get("url"):
                continue
            seen = out.setdefault(spec["path"], spec)
            if seen.get("sha256") != spec.get("sha256"):
                raise DataError(
                    f"datasets.{name}.files[{i}].sha256: differs from another entry with path {spec['path']!r}"
                )
    return out
