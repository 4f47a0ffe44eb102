# Data layer (issue 3): raw files -> results/data/{dataset}.parquet (+ .json provenance) -> summary.
#
#   download   {RESOURCES}/raw/<relpath>       canonical URL, or <data_mirror>/<relpath>; sha256 checked
#   prepare    {RESULTS}/data/{dataset}.parquet + .json   parse, missing, columns, standardise, PCA, subsample
#   data_summary  {RESULTS}/data/summary.csv/.md, unavailable.csv
#
# data_targets() and the helpers used here and by other rule files live in common.smk (the linter wants
# functions apart from rules): dataset_names(), dataset_cfg(name), dataset_parquet(name),
# check_dataset_names(names, key), available_datasets(names), unavailable_datasets(), data_targets().
for _name, _entry in config["datasets"].items():
    check_dataset_entry(_name, _entry)

for _name, _why in unavailable_datasets().items():
    print(f"{_name}: {_why}", file=sys.stderr)


# A run killed mid-write (SIGKILL, power loss) leaves hidden temporary files (privanomaly.io.atomic_path:
# `.<name>.<host>-<pid>.*.tmp*`), e.g. a mirror copy as large as the file. The next run removes those of dead
# processes on this machine - never those of a live concurrent run sharing resources_dir.
onstart:
    from privanomaly.io import remove_stale_temporaries

    for _root in (RESULTS, f"{RESOURCES}/raw"):
        for _p in remove_stale_temporaries(_root):
            print(f"removed {_p} (left by a killed run)", file=sys.stderr)


# The mirror directory is read from snakemake.config in the script, not passed as a param: switching
# between mirror and download yields the same sha256-checked bytes and must not trigger reruns.
rule download:
    output:
        f"{RESOURCES}/raw/{{relpath}}",
    log:
        f"{LOGS}/download/{{relpath}}.log",
    benchmark:
        f"{BENCH}/download/{{relpath}}.tsv"
    wildcard_constraints:
        relpath=wildcard_choice(data_downloads()),
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        url=lambda wc: data_downloads()[wc.relpath]["url"],
        sha256=lambda wc: data_downloads()[wc.relpath].get("sha256"),
    script:
        "../../scripts/download.py"


rule prepare:
    input:
        dataset_raw_files,
    output:
        parquet=f"{RESULTS}/data/{{dataset}}.parquet",
        provenance=f"{RESULTS}/data/{{dataset}}.json",
    log:
        f"{LOGS}/prepare/{{dataset}}.log",
    benchmark:
        f"{BENCH}/prepare/{{dataset}}.tsv"
    wildcard_constraints:
        dataset=wildcard_choice(dataset_names()),
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=20,
    params:
        entry=lambda wc: dataset_cfg(wc.dataset),
        seed=config["seed"],
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
    log:
        f"{LOGS}/data_summary/summary.log",
    benchmark:
        f"{BENCH}/data_summary/summary.tsv"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        unavailable=[
            {"dataset": name, "reason": why}
            for name, why in unavailable_datasets().items()
        ],
    script:
        "../../scripts/data_summary.py"
