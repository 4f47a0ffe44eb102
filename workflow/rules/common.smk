# Shared helpers for all rule files: paths, logs, benchmarks. No rules here.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

RESULTS = config["results_dir"]
RESOURCES = config["resources_dir"]
LOGS = f"{RESULTS}/logs"
BENCH = f"{RESULTS}/benchmarks"
