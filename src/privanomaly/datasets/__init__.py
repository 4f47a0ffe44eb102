"""Data layer: raw files (download / mirror copy, sha256), loaders, synthetic generators, preprocessing.

* :mod:`.sources`    — fetch a raw file from its canonical URL or a local mirror, verify sha256, atomically.
* :mod:`.loaders`    — parse .npz / .mat / .csv / .parquet / UCI .data / APS csv / zipped csv.
* :mod:`.rawtext`    — a raw file's text: plain, gzip'd or a zip member, decoded, without a BOM.
* :mod:`.labels`     — split the label column off a raw table (which values mean anomaly).
* :mod:`.synthetic`  — paper A's Gaussian mixture and paper B's Synthetic 1/2 generators.
* :mod:`.prepare`    — missing values, column selection, standardise, PCA, seeded stratified subsample.
* :mod:`.builder`    — a dataset's prepared table and provenance from its config entry (raw file or generator).
* :mod:`.schema`     — the data schema's checks, and the prepared datasets no analysis can use.
* :mod:`.user_file`  — a user's data file read as the pipeline reads its datasets (the Python API's ``load``).
* :mod:`.validation` — clear errors (``DataError``, ``ChecksumError``) and config checks.

Output schema (docs/CONVENTIONS.md): float64 feature columns plus ``label`` int8 (1 = anomaly/outlier).

The names of :mod:`.loaders`, :mod:`.labels`, :mod:`.prepare`, :mod:`.builder` and :mod:`.schema` (pandas) are
imported on first use, so a job that only
fetches raw files (:mod:`.sources`) does not import pandas.
"""

from typing import Any

from .sources import availability, fetch, raw_path, sha256_file, verify_sha256
from .synthetic import gaussian_mixture, gaussian_outliers, generate
from .validation import ChecksumError, DataError, check_dataset_entry, check_dataset_name, check_dataset_names

__all__ = [
    "ChecksumError",
    "DataError",
    "availability",
    "build",
    "check_dataset_entry",
    "check_dataset_name",
    "check_dataset_names",
    "check_schema",
    "fetch",
    "gaussian_mixture",
    "gaussian_outliers",
    "generate",
    "load_table",
    "preprocess",
    "raw_path",
    "sha256_file",
    "split_label",
    "verify_sha256",
]

_LAZY = {"load_table": "loaders", "split_label": "labels", "build": "builder", "check_schema": "schema",
         "preprocess": "prepare"}


def __getattr__(name: str) -> Any:
    """``load_table`` (:mod:`.loaders`), ``split_label`` (:mod:`.labels`), ``build`` (:mod:`.builder`),
    ``check_schema`` (:mod:`.schema`), ``preprocess`` (:mod:`.prepare`), imported when first asked for."""
    where = _LAZY.get(name)
    if where == "loaders":
        from . import loaders as module
    elif where == "labels":
        from . import labels as module
    elif where == "prepare":
        from . import prepare as module
    elif where == "builder":
        from . import builder as module
    elif where == "schema":
        from . import schema as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(module, name)
