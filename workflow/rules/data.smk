# Data: raw files -> results/data/{dataset}.parquet (+ .json provenance) -> summary. The plan of which datasets
# are configured and available, and where their files live, is privanomaly.datasets.plan.DataPlan (PLAN, common.smk).


# When a run starts (Snakemake keeps one onstart: this is the workflow's): its notices (privanomaly.preflight.
# notices: where raw files come from, the datasets left out, the Scenario-1 outlooks, the sweeps skipped), then
# the stale temporaries. A run killed mid-write (SIGKILL, power loss) leaves hidden temporary files
# (privanomaly.io.atomic_path: `.<name>.<host>-<pid>.*.tmp*`), e.g. a mirror copy as large as the file. The
# next run removes those of dead processes on this machine - never those of a live concurrent run sharing
# resources_dir.
onstart:
    from privanomaly.io import remove_stale_temporaries
    from privanomaly.preflight import notices

    print("\n".join(notices(config, RUN_PLAN)), file=sys.stderr)
    for _root in (RESULTS, f"{RESOURCES}/raw"):
        for _p in remove_stale_temporaries(_root):
            print(f"removed {_p} (left by a killed run)", file=sys.stderr)


# The mirror directory is read from snakemake.config in the script, not passed as a param: switching
# between mirror and download yields the same sha256-checked bytes and must not trigger reruns.
rule download:
    """A raw file from its canonical URL, or from data_mirror; sha256 checked (the mirror is not a param)."""
    output:
        raw=f"{RESOURCES}/raw/{{relpath}}",
    log:
        f"{LOGS}/download/{{relpath}}.log",
    benchmark:
        f"{BENCH}/download/{{relpath}}.tsv"
    wildcard_constraints:
        relpath=wildcard_choice(PLAN.downloads()),
    localrule: True
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("download"),
        url=get_download_url,
        sha256=get_download_sha256,
    script:
        "../../scripts/download.py"


rule prepare:
    """Parse, missing values, columns, standardise, PCA, subsample; writes the table and its provenance."""
    input:
        raw=get_raw_files,
    output:
        parquet=f"{RESULTS}/data/{{dataset}}.parquet",
        provenance=f"{RESULTS}/data/{{dataset}}.json",
    log:
        f"{LOGS}/prepare/{{dataset}}.log",
    benchmark:
        f"{BENCH}/prepare/{{dataset}}.tsv"
    wildcard_constraints:
        dataset=wildcard_choice(PLAN.names()),
    group:
        "data"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=20,
    params:
        library=library_code("prepare"),
        entry=get_dataset_entry,
        seed=get_prepare_seed,
        raw_sha256=get_raw_sha256,
    script:
        "../../scripts/prepare.py"


# The raw-scale table of the end-to-end private mode (privanomaly.price.released_path): the rows of rule
# prepare's table in the same order, before any step fitted on statistics (median imputation, standardisation,
# PCA: recorded as deferred, fitted on the public part only). Only the price tables' datasets need it.
rule prepare_raw:
    """The raw-scale table: parse, missing (drop), columns, subsample; fitted steps deferred to the public part."""
    input:
        raw=get_raw_files,
    output:
        parquet=f"{RESULTS}/privacy/raw/{{dataset}}.parquet",
        provenance=f"{RESULTS}/privacy/raw/{{dataset}}.json",
    log:
        f"{LOGS}/prepare_raw/{{dataset}}.log",
    benchmark:
        f"{BENCH}/prepare_raw/{{dataset}}.tsv"
    wildcard_constraints:
        dataset=wildcard_choice(PLAN.names()),
    group:
        "data"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=8000,
        runtime=20,
    params:
        library=library_code("prepare_raw"),
        entry=get_dataset_entry,
        seed=get_prepare_seed,
        raw_sha256=get_raw_sha256,
    script:
        "../../scripts/prepare_raw.py"


rule data_summary:
    """One row per dataset (rows, columns, anomalies, sha256) and the datasets unavailable in this run."""
    input:
        provenance=expand(rules.prepare.output.provenance, dataset=PLAN.available()),
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
    group:
        "data"
    conda:
        "../../envs/privanomaly.yaml"
    params:
        library=library_code("data_summary"),
        unavailable=PLAN.unavailable_rows(),
    script:
        "../../scripts/data_summary.py"
