# Included first by the Snakefile: the library on the path, the configuration of a report run replaced by the
# one its run recorded, then the config checked.
#
# `snakemake --report` builds the report of the run that is in results/: when the run recorded its
# configuration (rule effective_config -> {results_dir}/effective_config.yaml), that record replaces the
# configuration of the report's command line before anything else reads it (privanomaly.config.effective).
#
# privanomaly.config.check.check_config re-reads every config file of the run (workflow.configfiles) with a
# strict YAML loader (duplicate keys are errors naming file and line), validates the merged config against
# workflow/schemas/config.schema.yaml with the key path (and file:line) first, runs the checks a schema
# cannot express, and fills schema defaults (snakemake.utils.validate). YAML syntax errors and empty
# --configfile files stop Snakemake before this runs: `python -m privanomaly.config.check --configfile F`
# names their file and line (make reproduce/test run it first; docs/troubleshooting.md). Then the plan's
# cross-key checks (privanomaly.preflight.check_workflow), which return the run's plan (RUN_PLAN); the run's notices print once when it starts
# (data.smk's onstart: never in a dry run or a cluster job's step).
import sys
from pathlib import Path

# The workflow's own files (config.yaml, schemas, scripts, the catalogue) resolve from this file's place, also
# when the workflow is a module of another one: workflow.basedir is then the user's directory.
WORKFLOW_ROOT = Path(
    workflow.current_basedir.get_path_or_uri(secret_free=True)
).parents[1]

# Where the library comes from: docs/CONVENTIONS.md "How a job finds the library".
sys.path.insert(0, str(WORKFLOW_ROOT / "src"))

from privanomaly.config import effective as run_config
from privanomaly.config.check import check_config, under_defaults
from privanomaly.preflight import check_workflow

# workflow.configfiles lists the --configfile files before config.yaml; they override it, so they go last.
# As a module (`config: config`) the user's config is put over this workflow's config.yaml (under_defaults).
_OVERLAYS = [str(f) for f in workflow.overwrite_configfiles]
_CONFIG_FILES = under_defaults(
    config,
    WORKFLOW_ROOT / "config.yaml",
    [str(f) for f in workflow.configfiles if str(f) not in _OVERLAYS] + _OVERLAYS,
)
run_config.use_recorded_for_report(config)
check_config(
    config,
    WORKFLOW_ROOT / "workflow" / "schemas" / "config.schema.yaml",
    _CONFIG_FILES,
)
# the plan's cross-key checks (privanomaly.preflight, as make's config check), with what the mirror leaves out;
# what they built is the run's plan, bound by common.smk (built once per DAG build)
RUN_PLAN = check_workflow(config, WORKFLOW_ROOT / "workflow" / "report")
