"""Data layer: raw files (download / mirror copy, sha256), loaders, synthetic generators, preprocessing.

* :mod:`.sources`    — fetch a raw file from its canonical URL or a local mirror, verify sha256, atomically.
* :mod:`.loaders`    — parse .npz / .mat / .csv / .parquet / UCI .data / APS csv / zipped csv; split the label.
* :mod:`.synthetic`  — paper A's Gaussian mixture and paper B's Synthetic 1/2 generators.
* :mod:`.prepare`    — missing values, column selection, standardise, PCA, seeded stratified subsample.
* :mod:`.validation` — clear errors (``DataError``, ``ChecksumError``) and config checks.

Output schema (docs/CONVENTIONS.md): float64 feature columns plus ``label`` int8 (1 = anomaly/outlier).
"""

from .loaders import load_table, split_label
from .prepare import build, check_schema, preprocess
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
