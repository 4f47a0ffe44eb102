"""The dataset side of the workflow's plan, from the config alone (``workflow/rules/common.smk`` binds it).

Which datasets are configured, which can be built in this run (``data_mirror``: a downloaded file neither in
the mirror nor in the raw cache makes its dataset unavailable), where their files live, which are generated
stand-ins (scale runs) and what every run target also writes. No Snakemake here: the rule files call
these through one :class:`DataPlan` made from ``config``.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Mapping

from privanomaly.datasets import sources, validation
from privanomaly.config.effective import RECORD_NAME as RUN_CONFIG_RECORD


def wildcard_choice(values: Iterable[Any]) -> str:
    """A wildcard_constraints regex matching exactly one of ``values`` (matching nothing if empty)."""
    return "|".join(re.escape(str(v)) for v in values) or "(?!)"


class DataPlan:
    """Datasets of ``config`` (``datasets:``, ``data_mirror``); files under ``results`` and ``resources``."""

    def __init__(self, config: Mapping[str, Any]):
        self.config = config
        self.datasets: Mapping[str, Mapping[str, Any]] = config["datasets"]
        self.results = config["results_dir"]
        self.resources = config["resources_dir"]
        self.standin_mirror = f"{self.resources}/standin_mirror"
        for key in ("results_dir", "resources_dir"):
            sources.check_output_dir(config[key], key)

    def names(self) -> list[str]:
        """Every dataset configured under ``datasets:``, in config order."""
        return list(self.datasets)

    def check_names(self, names: Iterable[Any], key: str) -> list[str]:
        """``names`` as a list; an unknown one raises naming ``key[i]`` (``paper_a.datasets[2]: unknown ...``)."""
        return validation.check_dataset_names(names, self.datasets, key)

    def check_name(self, name: Any, key: str) -> str:
        """``name``; an unknown one raises naming ``key`` (``paper_a.fig2.dataset: unknown dataset 'foo'; ...``)."""
        return validation.check_dataset_name(name, self.datasets, key)

    def entry(self, name: str) -> Mapping[str, Any]:
        """The config entry ``datasets.<name>`` (an unknown name raises, listing the known ones)."""
        return self.datasets[self.check_name(name, "dataset")]

    def parquet(self, name: str) -> str:
        """Path of the prepared table of dataset ``name`` (float64 features + int8 ``label``)."""
        return f"{self.results}/data/{name}.parquet"

    @cached_property
    def _unavailable(self) -> dict[str, str]:
        mirror = self.config.get("data_mirror")
        if mirror:
            sources.check_mirror_dir(mirror)
        out = {}
        for name, entry in self.datasets.items():
            ok, why = sources.availability(entry.get("files", []), mirror, self.resources, where=f"datasets.{name}.")
            if not ok:
                out[name] = why
        return out

    def mirror_notice(self) -> str:
        """One line for the start of a run saying where raw files come from: the mirror, or - when
        ``data_mirror`` is unset or empty (``--config data_mirror=``) - their canonical URLs, so download mode
        is never silent."""
        mirror = self.config.get("data_mirror")
        if mirror:
            return f"data_mirror: raw files are copied from {mirror} (sha256 checked)"
        return ("data_mirror is not set (null or empty): every raw file not yet under "
                f"{self.resources}/raw is downloaded from its canonical URL (sha256 checked); "
                "set --config data_mirror=DIR (make: DATA_MIRROR=DIR) to copy from a local mirror")

    def unavailable(self) -> dict[str, str]:
        """{name: one-line reason} of the datasets whose raw file cannot be obtained in this run (only with
        ``data_mirror``: without one every file is attempted for download)."""
        return self._unavailable

    def available(self, names: Iterable[str] | None = None) -> list[str]:
        """The given names (default: all configured) that can be built in this run, order kept."""
        names = self.names() if names is None else list(names)
        return [n for n in names if n not in self._unavailable]

    @cached_property
    def _downloads(self) -> dict[str, Mapping[str, Any]]:
        return validation.download_specs(self.datasets)

    def downloads(self) -> dict[str, Mapping[str, Any]]:
        """{relpath: file entry} of every raw file fetched by URL (rule ``download``)."""
        return self._downloads

    def expected_shape(self, name: str) -> tuple[int, int] | None:
        """(N, d) the prepared table of ``name`` will have, told before ``prepare`` runs where the config and a
        local CSV file tell it (:func:`privanomaly.datasets.expected_shape.expected_shape`), else None."""
        from privanomaly.datasets.expected_shape import expected_shape

        return expected_shape(self.entry(name), self.raw_files(name))

    def raw_files(self, name: str) -> list[str]:
        """Input of the ``prepare`` step: raw cache path (or local path) of each file of dataset ``name``."""
        return [sources.raw_path(spec, self.resources) for spec in self.entry(name).get("files", [])]

    def raw_sha256(self, name: str) -> list[str | None]:
        """The content of dataset ``name``'s raw files (one sha256 per file; the pinned one for a file not yet
        fetched), for rule ``prepare`` to take as a param: a raw file whose content changed - also when it
        was restored with an older mtime - reruns ``prepare``. Cached by (path, size, mtime_ns) in
        ``{resources_dir}/sha256_cache.json`` (:func:`privanomaly.run.provenance.raw_sha256`)."""
        from privanomaly.run import provenance

        files = self.entry(name).get("files", [])
        cache = Path(self.resources) / provenance.SHA256_CACHE
        return provenance.raw_sha256(files, self.raw_files(name), cache)

    def summary_files(self) -> list[str]:
        """The data summary tables (rule ``data_summary``)."""
        return [f"{self.results}/data/{f}" for f in ("summary.csv", "summary.md", "unavailable.csv")]

    def run_records(self) -> list[str]:
        """What every run target also writes: the data summary and the run's effective configuration."""
        return [*self.summary_files(), f"{self.results}/{RUN_CONFIG_RECORD}"]

    def targets(self) -> list[str]:
        """Prepared table and provenance of every available dataset, then the data summary tables."""
        tables = [f"{self.results}/data/{n}.{ext}" for n in self.available() for ext in ("parquet", "json")]
        return tables + self.summary_files()

    def stand_in_notes(self, names: Iterable[str] | None = None) -> dict[str, str]:
        """{dataset: note} of the given datasets (default: all) whose raw file is a generated stand-in."""
        names = self.names() if names is None else names
        return {n: self.datasets[n]["stand_in"]["note"] for n in names if self.datasets[n].get("stand_in")}

    def standin_files(self) -> dict[str, str]:
        """{relpath: stand-in generator} of every stand-in raw file (written to the stand-in mirror)."""
        return {
            spec["path"]: entry["stand_in"]["generator"]
            for entry in self.datasets.values()
            if entry.get("stand_in")
            for spec in entry.get("files", [])
        }

    def standin_mirror_links(self) -> list[str]:
        """Raw files of the other datasets that the stand-in mirror links to in the real ``data_mirror``."""
        mirror, standins = self.config.get("data_mirror"), self.standin_files()
        if not mirror or not standins:
            return []
        return [rel for rel in self.downloads() if rel not in standins and (Path(mirror) / rel).is_file()]

    def unavailable_rows(self) -> list[dict[str, str]]:
        """One row {dataset, reason} per dataset unavailable in this run (rule ``data_summary``)."""
        return [{"dataset": n, "reason": why} for n, why in self.unavailable().items()]
