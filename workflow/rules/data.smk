# Data layer (issue 3): raw files -> results/data/{dataset}.parquet (+ .json provenance) -> summary.
#
#   download   {RESOURCES}/raw/<relpath>       canonical URL, or <data_mirror>/<relpath>; sha256 checked
#   prepare    {RESULTS}/data/{dataset}.parquet + .json   parse, missing, columns, standardise, PCA, subsample
#   data_summary  {RESULTS}/data/summary.csv/.md, unavailable.csv
#
# Helpers used by other rule files live in common.smk: dataset_names(), dataset_cfg(name),
# dataset_parquet(name), check_dataset_names(names, key), available_datasets(names), unavailable_datasets().
import re

from privanomaly.datasets.sources import raw_path as _raw_path
from privanomaly.datasets.validation import check_dataset_entry as _check_dataset_entry

for _name, _entry in config["datasets"].items():
    _check_dataset_entry(_name, _entry)

for _name, _why in unavailable_datasets().items():
    print(f"{_name}: {_why}", file=sys.stderr)


def _downloads():
    """{relpath: file entry} of every file fetched by URL; entries sharing a path must agree on sha256."""
    out = {}
    for name, entry in config["datasets"].items():
        for i, spec in enumerate(entry.get("files", [])):
            if not spec.get("url"):
                continue
            seen = out.setdefault(spec["path"], spec)
            if seen.get("sha256") != spec.get("sha256"):
                raise ValueError(
                    f"datasets.{name}.files[{i}].sha256: differs from another entry with path {spec['path']!r}"
                )
    return out


DATA_DOWNLOADS = _downloads()


def _alternation(values):
    return "|".join(re.escape(v) for v in values) or "(?!)"


def _dataset_inputs(wildcards):
    return [_raw_path(spec, RESOURCES) for spec in dataset_cfg(wildcards.dataset).get("files", [])]


def data_targets():
    """Prepared tables and provenance of every available dataset, plus the summary tables."""
    names = available_datasets()
    return [
        *expand(f"{RESULTS}/data/{{dataset}}.{{ext}}", dataset=names, ext=["parquet", "json"]),
        f"{RESULTS}/data/summary.csv",
        f"{RESULTS}/data/summary.md",
        f"{RESULTS}/data/unavailable.csv",
    ]


# The mirror directory is read from snakemake.config in the script, not passed as a param: switching
# between mirror and download yields the same sha256-checked bytes and must not trigger reruns.
rule download:
    output:
        f"{RESOURCES}/raw/{{relpath}}",
    params:
        url=lambda wc: DATA_DOWNLOADS[wc.relpath]["url"],
        sha256=lambda wc: DATA_DOWNLOADS[wc.relpath].get("sha256"),
    wildcard_constraints:
        relpath=_alternation(DATA_DOWNLOADS),
    log:
        f"{LOGS}/download/{{relpath}}.log",
    benchmark:
        f"{BENCH}/download/{{relpath}}.tsv"
    localrule: True
    script:
        "../../scripts/download.py"


rule prepare:
    input:
        _dataset_inputs,
    output:
        parquet=f"{RESULTS}/data/{{dataset}}.parquet",
        provenance=f"{RESULTS}/data/{{dataset}}.json",
    params:
        entry=lambda wc: dataset_cfg(wc.dataset),
        seed=config["seed"],
    wildcard_constraints:
        dataset=_alternation(dataset_names()),
    log:
        f"{LOGS}/prepare/{{dataset}}.log",
    benchmark:
        f"{BENCH}/prepare/{{dataset}}.tsv"
    script:
        "../../scripts/prepare.py"


rule data_summary:
    input:
        expand(f"{RESULTS}/data/{{dataset}}.json", dataset=available_datasets()),
    output:
        csv=report(
            f"{RESULTS}/data/summary.csv",
            caption="../report/data_summary.rst",
            category="Data",
            subcategory="Datasets",
        ),
        md=f"{RESULTS}/data/summary.md",
        unavailable=report(
            f"{RESULTS}/data/unavailable.csv",
            caption="../report/data_unavailable.rst",
            category="Data",
            subcategory="Datasets",
        ),
    params:
        unavailable=[
            {"dataset": name, "reason": why} for name, why in unavailable_datasets().items()
        ],
    log:
        f"{LOGS}/data_summary/summary.log",
    benchmark:
        f"{BENCH}/data_summary/summary.tsv"
    script:
        "../../scripts/data_summary.py"
