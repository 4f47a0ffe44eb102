# Shared helpers for the workflow/rules/*.smk files: paths, logs, benchmarks. No rules here.
# (The library is put on sys.path / PYTHONPATH by config.smk, included before this file.)
import os
import sys
from pathlib import Path

RESULTS = config["results_dir"]
RESOURCES = config["resources_dir"]
LOGS = f"{RESULTS}/logs"
BENCH = f"{RESULTS}/benchmarks"

# The catalogue of outputs (issue 13): paper A's targets and the generic plot rule (plots.smk) read it
from privanomaly.report import catalogue as _catalogue

CATALOGUE_ITEMS = _catalogue.load(f"{workflow.basedir}/workflow/report/catalogue.yaml")


# ---- Datasets (issue 3): names, entries, availability. Rule files use these to refer to datasets. ----
import re as _re

from privanomaly.datasets import sources as _data_sources
from privanomaly.datasets import validation as _data_validation
from privanomaly.datasets.validation import check_dataset_entry


def dataset_names():
    """Every dataset configured under `datasets:`, in config order."""
    return list(config["datasets"])


def check_dataset_names(names, key):
    """Return `names` as a list; raise before any job runs if one is not a configured dataset.

    `key` is the config path of the list, used in the message, e.g.
    check_dataset_names(config["paper_a"]["datasets"], "paper_a.datasets") ->
    "paper_a.datasets[2]: unknown dataset 'foo'; known: adult, ...".
    """
    return _data_validation.check_dataset_names(names, config["datasets"], key)


def check_dataset_name(name, key):
    """Return `name`; raise before any job runs if it is not a configured dataset (for single-name keys).

    check_dataset_name(config["paper_a"]["fig2"]["dataset"], "paper_a.fig2.dataset") ->
    "paper_a.fig2.dataset: unknown dataset 'foo'; known: adult, ...".
    """
    return _data_validation.check_dataset_name(name, config["datasets"], key)


def dataset_cfg(name):
    """The config entry `datasets.<name>` (an unknown name raises, listing the known ones)."""
    check_dataset_name(name, "dataset")
    return config["datasets"][name]


def dataset_parquet(name):
    """Path of the prepared table of dataset `name` (float64 features + int8 `label`)."""
    return f"{RESULTS}/data/{name}.parquet"


_UNAVAILABLE_DATASETS = None


def unavailable_datasets():
    """{name: one-line reason} for datasets whose raw file cannot be obtained in this run.

    Only with `data_mirror` set: a downloaded file that is neither in the mirror nor in the raw cache makes
    its dataset unavailable (credit card, APS). Without a mirror every file is attempted for download.
    """
    global _UNAVAILABLE_DATASETS
    if _UNAVAILABLE_DATASETS is None:
        mirror = config.get("data_mirror")
        if mirror:
            _data_sources.check_mirror_dir(mirror)
        result = {}
        for name, entry in config["datasets"].items():
            ok, why = _data_sources.availability(
                entry.get("files", []), mirror, RESOURCES, where=f"datasets.{name}."
            )
            if not ok:
                result[name] = why
        _UNAVAILABLE_DATASETS = result
    return _UNAVAILABLE_DATASETS


def available_datasets(names=None):
    """The given dataset names (default: all configured) that can be built in this run, order kept.

    Downstream rules expand over `available_datasets(check_dataset_names(names, key))` so that the DAG
    still builds when a dataset is unavailable offline.
    """
    names = dataset_names() if names is None else list(names)
    unavailable = unavailable_datasets()
    return [n for n in names if n not in unavailable]


def wildcard_choice(values):
    """A wildcard_constraints regex matching exactly one of `values` (matching nothing if empty)."""
    return "|".join(_re.escape(str(v)) for v in values) or "(?!)"


_DATA_DOWNLOADS = None


def data_downloads():
    """{relpath: file entry} of every raw file fetched by URL (rule `download`), from config `datasets`."""
    global _DATA_DOWNLOADS
    if _DATA_DOWNLOADS is None:
        _DATA_DOWNLOADS = _data_validation.download_specs(config["datasets"])
    return _DATA_DOWNLOADS


def dataset_raw_files(wildcards):
    """Input of the `prepare` step: raw cache path (or local path) of each file of the dataset."""
    return [
        _data_sources.raw_path(spec, RESOURCES)
        for spec in dataset_cfg(wildcards.dataset).get("files", [])
    ]


from privanomaly.report.run_config import RECORD_NAME as RUN_CONFIG_RECORD


def run_records():
    """What every run target (all, paper_a_all, paper_b_all) also writes: the data summary and the run's
    effective configuration (issue 17; rules data_summary and effective_config)."""
    return [
        f"{RESULTS}/data/summary.csv",
        f"{RESULTS}/data/summary.md",
        f"{RESULTS}/data/unavailable.csv",
        f"{RESULTS}/{RUN_CONFIG_RECORD}",
    ]


def data_targets():
    """Prepared tables and provenance of every available dataset, plus the data summary tables."""
    return [
        *expand(
            f"{RESULTS}/data/{{dataset}}.{{ext}}",
            dataset=available_datasets(),
            ext=["parquet", "json"],
        ),
        f"{RESULTS}/data/summary.csv",
        f"{RESULTS}/data/summary.md",
        f"{RESULTS}/data/unavailable.csv",
    ]


# ---- Stand-in data of scale runs (issue 15; .scale/config.yaml, workflow/rules/standins.smk) ----
STANDIN_MIRROR = f"{RESOURCES}/standin_mirror"


def stand_in_notes(names=None):
    """{dataset: note} of the given datasets (default: all) whose raw file is a generated stand-in."""
    names = dataset_names() if names is None else names
    return {
        n: config["datasets"][n]["stand_in"]["note"]
        for n in names
        if config["datasets"][n].get("stand_in")
    }


def standin_files():
    """{relpath: stand-in generator} of every stand-in raw file (written to STANDIN_MIRROR)."""
    return {
        spec["path"]: entry["stand_in"]["generator"]
        for entry in config["datasets"].values()
        if entry.get("stand_in")
        for spec in entry.get("files", [])
    }


def standin_mirror_links():
    """Raw files of the other datasets that the stand-in mirror links to in the real data_mirror."""
    mirror = config.get("data_mirror")
    if not mirror or not standin_files():
        return []
    return [
        rel
        for rel in data_downloads()
        if rel not in standin_files() and (Path(mirror) / rel).is_file()
    ]
