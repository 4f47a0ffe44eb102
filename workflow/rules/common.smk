# Shared helpers for the workflow/rules/*.smk files: paths, logs, benchmarks. No rules here.
# (The library is put on sys.path / PYTHONPATH by config.smk, included before this file.)
import sys
from pathlib import Path

RESULTS = config["results_dir"]
RESOURCES = config["resources_dir"]
LOGS = f"{RESULTS}/logs"
BENCH = f"{RESULTS}/benchmarks"

# The catalogue of outputs (issue 13): paper A's targets and the generic plot rule (plots.smk) read it
from privanomaly.report import catalogue as _catalogue

CATALOGUE_ITEMS = _catalogue.load(f"{workflow.basedir}/workflow/report/catalogue.yaml")


# ---- Datasets (issue 3) and stand-ins (issue 15): privanomaly.plan.DataPlan, bound to the names rules use ----
from privanomaly.plan import DataPlan, wildcard_choice
from privanomaly.datasets.validation import check_dataset_entry
from privanomaly.report.run_config import RECORD_NAME as RUN_CONFIG_RECORD

PLAN = DataPlan(config)
dataset_names, dataset_cfg, dataset_parquet = PLAN.names, PLAN.entry, PLAN.parquet
check_dataset_names, check_dataset_name = PLAN.check_names, PLAN.check_name
unavailable_datasets, available_datasets = PLAN.unavailable, PLAN.available
data_downloads, data_targets, run_records = (
    PLAN.downloads,
    PLAN.targets,
    PLAN.run_records,
)
dataset_raw_files = lambda wc: PLAN.raw_files(wc.dataset)
stand_in_notes, standin_files = PLAN.stand_in_notes, PLAN.standin_files
standin_mirror_links, STANDIN_MIRROR = PLAN.standin_mirror_links, PLAN.standin_mirror
