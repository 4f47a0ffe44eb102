"""Moved to :mod:`privanomaly.run_config` (the run record belongs to the workflow, not to the report); this
name re-exports it for the workflow files that still import it from here."""

from privanomaly.run_config import *  # noqa: F401,F403
