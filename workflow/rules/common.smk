# Shared names of the workflow/rules/*.smk files: paths, the catalogue, the dataset plan. No rules here.
# (The library is put on sys.path / PYTHONPATH by config.smk, included before this file.)
import sys
from pathlib import Path

RESULTS = config["results_dir"]
RESOURCES = config["resources_dir"]
LOGS = f"{RESULTS}/logs"
BENCH = f"{RESULTS}/benchmarks"

# The catalogue of outputs (issue 13): the papers' targets and the generic plot/table rule (privanomaly.steps.item_step) read it
from privanomaly.report import catalogue as _catalogue

CATALOGUE_ITEMS = _catalogue.load(f"{workflow.basedir}/workflow/report/catalogue.yaml")


# ---- Datasets (issue 3) and stand-ins (issue 15): privanomaly.plan.DataPlan, bound to the names rules use ----
from privanomaly.plan import DataPlan, wildcard_choice
from privanomaly.datasets.validation import check_dataset_entry
from privanomaly.report.run_config import RECORD_NAME as RUN_CONFIG_RECORD

PLAN = DataPlan(config)
check_dataset_names, unavailable_datasets = PLAN.check_names, PLAN.unavailable
available_datasets, data_targets, run_records = (
    PLAN.available,
    PLAN.targets,
    PLAN.run_records,
)
stand_in_notes, STANDIN_MIRROR = PLAN.stand_in_notes, PLAN.standin_mirror

# What the compute steps (workflow/steps.yaml, steps.smk) name, filled by each file of workflow/rules - paths in file
# patterns, the plan's dataset sets, values and functions of a job's wildcards (privanomaly.steps).
STEP_CONSTANTS = {
    "RESULTS": RESULTS,
    "RESOURCES": RESOURCES,
    "STANDIN_MIRROR": STANDIN_MIRROR,
    "RUN_CONFIG_RECORD": RUN_CONFIG_RECORD,
}
PLAN_SETS = {"data.available": available_datasets()}
STEP_VALUES = PLAN.step_values()


def step_script(scope):
    """The script a step runs (steps.smk). Snakemake evaluates the script path twice - in the loop over the
    steps, where the step is `_s`, and in the job's run function, where `rule` is the name of the job's rule
    and `_s` would be the loop's last step."""
    name = scope.get("rule")
    step = STEP_BY_RULE[name] if isinstance(name, str) else scope["_s"]
    return f"../../scripts/{step.script}"
