# Included first by the Snakefile: the library on the path, then the config checked (issue 16).
#
# privanomaly.configcheck.check_config re-reads every config file of the run (workflow.configfiles) with a
# strict YAML loader (duplicate keys are errors naming file and line), validates the merged config against
# workflow/schemas/config.schema.yaml with the key path (and file:line) first, runs the checks a schema
# cannot express, and fills schema defaults (snakemake.utils.validate). YAML syntax errors and empty
# --configfile files stop Snakemake before this runs: `python -m privanomaly.configcheck --configfile F`
# names their file and line (make reproduce/test run it first; docs/troubleshooting.md).
import os
import sys
from pathlib import Path

# The library is importable here and in every job (jobs inherit the environment, also under --use-conda
# or on a cluster), even where `pip install -e .` was not run.
_SRC = str(Path(workflow.basedir) / "src")
sys.path.insert(0, _SRC)
# (update(), not os.environ[...] = ...: the linter reads a subscript as a *required* variable; this one is set)
os.environ.update(
    PYTHONPATH=os.pathsep.join(p for p in (_SRC, os.environ.get("PYTHONPATH")) if p)
)

from privanomaly.configcheck import check_config

# workflow.configfiles lists the --configfile files before config.yaml; they override it, so they go last.
_OVERLAYS = [str(f) for f in workflow.overwrite_configfiles]
check_config(
    config,
    Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml",
    [str(f) for f in workflow.configfiles if str(f) not in _OVERLAYS] + _OVERLAYS,
)
