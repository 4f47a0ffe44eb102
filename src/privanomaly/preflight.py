"""The config check with the workflow's plan: ``python -m privanomaly.preflight [--configfile F ...]``.

:mod:`privanomaly.config.check` checks the files and the schema; it sits at the bottom of the library and
cannot import the planners. This module runs it, then the cross-key checks, so ``make reproduce`` stops on them
before Snakemake starts, with the key named first. ``workflow/rules/config.smk`` (the workflow's config check)
runs the same checks once at DAG build with :func:`check_workflow`, which adds what depends on files (which
datasets the data mirror makes available - ``make`` passes the mirror to Snakemake only -, the catalogue's
captions, the gallery's figures) and returns what it built, the run's :class:`WorkflowPlan` (the data plan, the
papers' sets, the sweeps, the catalogue), which ``workflow/rules/common.smk`` binds: built once; the run's notices
(:func:`notices`: the mirror, the datasets left out, the Scenario-1 outlooks and paper B's CPU estimates, the sweeps
skipped) print once when a run starts (its ``onstart``), never in a dry run
or a cluster job.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from privanomaly.config import check as configcheck
from privanomaly.config.check import ConfigError
from privanomaly.datasets.validation import check_dataset_entry
from privanomaly.paper_a import plan as pa_plan
from privanomaly.paper_b import plan as pb_plan
from privanomaly.datasets.plan import DataPlan
from privanomaly.sweeps.plan import SweepPlan, b_estimates


@dataclass(frozen=True)
class WorkflowPlan:
    """The run's plan, built from the checked config by :func:`check_workflow` (once per DAG build) and bound by
    ``workflow/rules/common.smk``: ``data`` (``PLAN``), ``paper_a`` / ``paper_b`` the papers' dataset sets
    (``PA_SETS``, ``PB_SETS``), ``sweeps`` (``SW``), ``catalogue`` the items of workflow/report/catalogue.yaml
    (``CATALOGUE_ITEMS``; empty when built for the notices only)."""

    data: DataPlan
    paper_a: pa_plan.PaperASets
    paper_b: pb_plan.PaperBSets
    sweeps: SweepPlan
    catalogue: list = field(default_factory=list)


def workflow_plan(config: Mapping[str, Any], data: DataPlan | None = None, catalogue: Iterable = ()) -> WorkflowPlan:
    """The :class:`WorkflowPlan` of a checked ``config`` (``data``: its :class:`DataPlan` when already built)."""
    data = DataPlan(config) if data is None else data
    pa, pb = config["paper_a"], config["paper_b"]
    return WorkflowPlan(data=data, paper_a=pa_plan.sets(pa, data.available(pa["datasets"]), data.unavailable()),
                        paper_b=pb_plan.sets(pb, data.available(list(pb["datasets"]))),
                        sweeps=_sweeps(config, data, data.available), catalogue=list(catalogue))


def _sweeps(config: Mapping[str, Any], data: DataPlan, available: Callable[[Iterable[str]], list[str]]) -> SweepPlan:
    """The sweeps of ``config`` on the datasets ``available`` (:class:`SweepPlan` checks their names and sizes),
    with the claim sweep's name checked (a name that is no paper-A sweep raises naming the key)."""
    sweeps = SweepPlan(config.get("sweeps"), data.check_names, available, config.get("sweep_max_points"),
                       config.get("sweep_points_per_job"))
    sweeps.claims_sweep((config["paper_a"].get("claims") or {}).get("sweep"))
    return sweeps


def check_papers(config: Mapping[str, Any], plan: DataPlan, unavailable: Mapping[str, str]) -> None:
    """The papers' cross-key checks (dataset names in their lists, paper A's and paper B's grids and options):
    :func:`check_workflow` runs them when Snakemake builds the DAG, with the datasets the data mirror leaves
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


def _check_plan(config: Mapping[str, Any], unavailable: Mapping[str, str] | None) -> DataPlan:
    """Each dataset entry, then the papers' cross-key checks with the datasets left ``unavailable`` (None: those
    of the run's data mirror); the run's :class:`DataPlan`."""
    for name, entry in config["datasets"].items():
        check_dataset_entry(name, entry)
    plan = DataPlan(config)
    check_papers(config, plan, plan.unavailable() if unavailable is None else unavailable)
    return plan


def check_plan(config: Mapping[str, Any]) -> None:
    """The plan's checks of :func:`check_workflow` on the merged, schema-checked ``config`` (make's, before
    Snakemake: no mirror), with the sweeps' and the catalogue's; a failing one raises :class:`ConfigError`
    with its message (which names the key)."""
    try:
        plan = _check_plan(config, {})  # which datasets are unavailable depends on the mirror: DAG time
        _sweeps(config, plan, list)
        check_catalogue()
    except ConfigError:
        raise
    except (ValueError, KeyError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise ConfigError(f"invalid configuration:\n  {text}") from None


def check_workflow(config: Mapping[str, Any], report_dir: str | Path) -> WorkflowPlan:
    """The DAG-time checks (``workflow/rules/config.smk``, after the schema): the dataset entries, the papers'
    cross-key checks with what the data mirror leaves unavailable, the sweeps, the ``report`` section, the
    catalogue's captions (``report_dir``: workflow/report) and the gallery's figures. Each raises ``ValueError``
    naming the key. Returns the run's :class:`WorkflowPlan`, with the catalogue it loaded."""
    from privanomaly.report import catalogue, gallery

    data = _check_plan(config, None)
    if "report" not in config:
        raise ValueError("config: missing section 'report' (gallery_width, gallery); see config.yaml")
    items = catalogue.load(Path(report_dir) / "catalogue.yaml")
    catalogue.check_sections(items, report_dir)
    figures = [f for it in items for f in it.files if f.endswith(".png")] + ["sweeps/{sweep}/figures/{figure}.png"]
    gallery.check_known(config["report"]["gallery"], figures)
    return workflow_plan(config, data, items)


def check_rule_scripts(scripts: Iterable[tuple[str, str, str, Path]]) -> None:
    """Stop when the ``script:`` file of a rule does not exist, naming both: ``scripts`` holds (rule, its .smk file,
    its script path as written, the directory that path is relative to) of every rule with a local script
    (``workflow/rules/checks.smk``, once every rule is defined). Snakemake (9) fails on it only when it builds the
    DAG, with a FileNotFoundError traceback of about 80 lines that names neither the rule nor its .smk file."""
    for rule, snakefile, script, basedir in scripts:
        if "{" in script:  # a script path with wildcards is known per job only
            continue
        path = Path(basedir) / script
        if not path.is_file():
            raise ValueError(
                f"the script {script} of rule {rule} ({snakefile}) does not exist ({path.resolve()}); "
                f"correct the path (relative to the directory of {Path(snakefile).name})"
            )


def notices(config: Mapping[str, Any], plan: WorkflowPlan | None = None) -> list[str]:
    """The lines a run prints when it starts: where raw files come from, the datasets the data mirror leaves
    out, paper A's tables without them, the Scenario-1 datasets whose Algorithm 2 is predicted past its work
    guard, every paper-B job's estimated CPU time (Scenario 1, r tuning, Scenario 2, the paper-B sweeps: from its
    table's shape and the config), the sweeps none of whose datasets is available. ``plan``: the run's plan
    (:func:`check_workflow`'s), else built from ``config``."""
    plan = workflow_plan(config) if plan is None else plan
    data, pb, s1 = plan.data, config["paper_b"], plan.paper_b.scenario1
    out = [data.mirror_notice(), *(f"{n}: {why}" for n, why in data.unavailable().items())]
    out += [f"paper_a: {n} left out of the tables ({why})" for n, why in plan.paper_a.missing.items()]
    out += [f"paper_b: {msg}" for msg in pb_plan.scenario1_outlooks(pb, s1, data.parquet)]
    # a table not prepared yet: its shape as the config and a local CSV file tell it (DataPlan.expected_shape)
    out += [f"paper_b: {msg}" for msg in pb_plan.scenario1_estimates(pb, s1, data.parquet, data.expected_shape)]
    out += [f"paper_b: {msg}" for msg in pb_plan.job_estimates(pb, plan.paper_b, data.parquet, data.expected_shape)]
    out += [f"sweeps: {msg}" for msg in b_estimates(plan.sweeps, pb, data.parquet, data.expected_shape)]
    return out + [f"sweeps: {n} skipped (none of its datasets is available)" for n in plan.sweeps.skipped]


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
