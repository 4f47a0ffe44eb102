"""The config check with the workflow's plan: ``python -m privanomaly.preflight [--configfile F ...]``.

:mod:`privanomaly.config.check` checks the files and the schema; it sits at the bottom of the library and
cannot import the planners. This module runs it, then the cross-key checks that ``workflow/rules/common.smk``
runs when Snakemake builds the DAG - the same functions, on the merged config - so ``make reproduce`` stops
on them before Snakemake starts, with the key named first. Checks that depend on files (which datasets the
data mirror makes available - ``make`` passes the mirror to Snakemake only -, the Scenario-1 outlooks that
read prepared tables) stay at DAG time.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from privanomaly.config import check as configcheck
from privanomaly.config.check import ConfigError
from privanomaly.datasets.validation import check_dataset_entry
from privanomaly.paper_a import plan as pa_plan
from privanomaly.paper_b import plan as pb_plan
from privanomaly.datasets.plan import DataPlan
from privanomaly.sweeps.plan import SweepPlan


def check_papers(config: Mapping[str, Any], plan: DataPlan, unavailable: Mapping[str, str]) -> None:
    """The papers' cross-key checks (dataset names in their lists, paper A's and paper B's grids and options):
    what ``common.smk`` runs when Snakemake builds the DAG, with the datasets the data mirror leaves
    ``unavailable``, and :func:`check_plan` before it (none: that depends on the mirror). Each raises
    ``ValueError`` naming the key."""
    pa, pb = config["paper_a"], config["paper_b"]
    plan.check_names(pa["datasets"], "paper_a.datasets")
    plan.check_names([pa["fig2"]["dataset"]], "paper_a.fig2.dataset")
    plan.check_names([pa["compiler"]["dataset"]], "paper_a.compiler.dataset")
    plan.check_names(pa["claims"].get("paper_datasets", []), "paper_a.claims.paper_datasets")
    pa_plan.check_config(pa, unavailable)
    pb_plan.check_config(pb)
    plan.check_names(list(pb["datasets"]), "paper_b.datasets")


def check_plan(config: Mapping[str, Any]) -> None:
    """Run the DAG-time checks of ``common.smk`` on the merged, schema-checked ``config``; a failing one
    raises :class:`ConfigError` with its message (which names the key)."""
    try:
        for name, entry in config["datasets"].items():
            check_dataset_entry(name, entry)
        plan = DataPlan(config)
        check_papers(config, plan, {})  # which datasets are unavailable depends on the mirror: DAG time
        sweeps = SweepPlan(config.get("sweeps"), plan.check_names, list, config.get("sweep_max_points"),
                           config.get("sweep_points_per_job"))
        sweeps.claims_sweep((config["paper_a"].get("claims") or {}).get("sweep"))  # a name that is no sweep
        check_catalogue()
    except ConfigError:
        raise
    except (ValueError, KeyError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise ConfigError(f"invalid configuration:\n  {text}") from None


def check_catalogue(report_dir: str | Path = Path("workflow") / "report") -> None:
    """The catalogue's plot/table sections (``workflow/report/catalogue.yaml``, from the checkout ``make`` runs
    in): captions that exist and functions that are registered - the latter imports the plotting modules, so
    it runs here, once before Snakemake, not at every DAG build (which checks the captions only)."""
    from privanomaly.report import catalogue, figures

    path = Path(report_dir) / "catalogue.yaml"
    if path.is_file():
        catalogue.check_sections(catalogue.load(path), report_dir, figures.names())


def main(argv: list[str] | None = None) -> int:
    """``python -m privanomaly.preflight [--configfile F ...]``: the files, the schema and the plan's checks."""
    return configcheck.main(argv, plan_check=check_plan, prog="python -m privanomaly.preflight")


if __name__ == "__main__":
    sys.exit(main())
