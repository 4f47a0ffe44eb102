# `snakemake --report` builds the report of the run that is in results/ (issue 17): when the run recorded its
# configuration (rule effective_config -> {results_dir}/effective_config.yaml), that record replaces the
# configuration of the report's command line before anything else reads it. Included first by the Snakefile.
import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(workflow.basedir) / "src"))
from privanomaly.report import run_config as _run_config

_run_config.use_recorded_for_report(config)
