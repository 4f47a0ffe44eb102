# Shared by every file of workflow/rules - path constants, this run's plan (the library's planners bound to
# this config), the targets and the helpers of several rule files; the get_* functions of the rules are in
# inputs.smk. No rules, no checks, no notices here: the config check (config.smk, privanomaly.preflight) runs
# those. Library on sys.path: config.smk.
import os
from os.path import relpath
from pathlib import Path

from privanomaly import mechanisms as mech_registry
from privanomaly.run.code_digest import module_digest, script_digest
from privanomaly.paper_a import plan as pa_plan
from privanomaly.paper_b import plan as pb_plan
from privanomaly.datasets.plan import wildcard_choice
from privanomaly.run.provenance import config_sha256, git_commit
from privanomaly.report import catalogue
from privanomaly.report import gallery
from privanomaly.report import latex
from privanomaly.config.effective import (
    RECORD_NAME as RUN_CONFIG_RECORD,
    finished_message,
)
from privanomaly.run.log import skip_collection_at_exit

# Snakemake's own process (every run, dry-run and cluster job step) ends without the final garbage
# collections over its modules and DAG: ~0.2 s CPU per start (run.log.skip_collection_at_exit).
skip_collection_at_exit()

RESULTS = config["results_dir"]
RESOURCES = config["resources_dir"]
LOGS = f"{RESULTS}/logs"
BENCH = f"{RESULTS}/benchmarks"
PA = config["paper_a"]
PB = config["paper_b"]
PA_WORK = f"{RESULTS}/paper_a/work"
PB_OUT = f"{RESULTS}/paper_b"
SW_OUT = f"{RESULTS}/sweeps"
CATALOGUE = f"{WORKFLOW_ROOT}/workflow/report/catalogue.yaml"

# ---- The run's plan, built by the config check (config.smk: RUN_PLAN = privanomaly.preflight.WorkflowPlan):
# privanomaly.datasets.plan, paper_a.plan, paper_b.plan, sweeps.plan and the catalogue ----
CATALOGUE_ITEMS = RUN_PLAN.catalogue
PLAN = RUN_PLAN.data
STANDIN_MIRROR = PLAN.standin_mirror
PA_SETS = RUN_PLAN.paper_a
# scale runs only (.scale/config.yaml): {dataset: "stand-in data: ..."} carried by every table/figure/claim
PA_STAND_IN = PLAN.stand_in_notes(PA_SETS.selected)
PB_SETS = RUN_PLAN.paper_b
PB_READINGS_PLAN = pb_plan.readings_plan(PB_OUT, PB, PB_SETS)
PB_METHOD_REGEX = "paper|fast"  # the smooth bounds of a Scenario-1 table or figure
SW = RUN_PLAN.sweeps
SW_CLAIMS = SW.claims_sweep(PA.get("claims", {}).get("sweep"))  # "" if none runs
# the sets by the names the catalogue's `datasets`, `sets`, `expand` and `when` use (report.smk)
CATALOGUE_SETS = {
    "data.available": PLAN.available(),
    **PA_SETS.named(),
    **PB_SETS.named(),
}
ITEM_WILDCARDS = {"dataset": wildcard_choice(PLAN.names()), "method": PB_METHOD_REGEX}
ITEM_STAND_IN = {"A": PA_STAND_IN}  # paper B's datasets are all mirrored: no stand-ins
# a paper-A sweep job's batch: a dataset name, or the names of the datasets sharing its jobs joined by '+'
BATCH_WILDCARD = "[A-Za-z][A-Za-z0-9_]*([+][A-Za-z][A-Za-z0-9_]*)*"
# the registry the privacy audit checks: {name: digest of its source} (a param of rule privacy_audit)
AUDITED_MECHANISMS = mech_registry.fingerprint()
GALLERY_DIR = gallery.gallery_dir(RESULTS)
# Rules whose k-NN searches run in parallel (paper_a_select, paper_a_records, paper_a_growth) take 2 threads
# when the run has at least 4 cores (or none set: a cluster); on 2 local cores a 2-thread job would wait until
# both are free, i.e. behind every long single-thread job such as the audit.
KNN_THREADS = 2 if (workflow.resource_settings.cores or 4) >= 4 else 1


def one_file(pattern, **wildcards):
    """`pattern` (e.g. rules.prepare.output.parquet) with its wildcards filled: one path."""
    return expand(pattern, **wildcards)[0]


def library_code(script):
    """Param `library` of the jobs of scripts/<script>.py, the digest of the privanomaly modules the script can
    run (privanomaly.run.code_digest). Editing one of them reruns exactly the jobs that import it; Snakemake's own
    code trigger sees the script file only."""
    path = WORKFLOW_ROOT / "scripts" / f"{script}.py"
    # a misspelt name: say which, not a FileNotFoundError traceback
    if not path.is_file():
        raise ValueError(
            f"library_code({script!r}): no script {path} - the name of the rule's script, misspelt?"
        )
    return script_digest(path)


# ---- Targets (rule all) ----
def data_targets():
    """Prepared table and provenance of every available dataset, then the data summary tables."""
    return PLAN.targets()


def run_records():
    """What every run target also writes: the data summary and the run's effective configuration."""
    return PLAN.run_records()


def paper_a_targets():
    """Every final paper-A file: the files of the catalogue's paper-A items."""
    return [f"{RESULTS}/{f}" for f in catalogue.paper_files(CATALOGUE_ITEMS, "A")]


def paper_b_targets():
    """Every final paper-B file: the files of the catalogue's paper-B items over paper B's sets."""
    return [
        f"{RESULTS}/{f}"
        for f in catalogue.paper_files(CATALOGUE_ITEMS, "B", PB_SETS.named())
    ]


def audit_targets():
    """The privacy audit's table (CSV + Markdown)."""
    return [f"{RESULTS}/audit/privacy_audit.{ext}" for ext in ("csv", "md")]


def sweep_targets():
    """The tidy table and figures of every sweep that runs."""
    return SW.targets(SW_OUT)


def scale_paper_b_targets():
    """Paper B at real size in a scale run: the Scenario-1 tables of the stand-in datasets (their configured
    bound: the fast one in .scale/config.yaml) and the sweep `scaleB` when the overlay defines it.
    """
    stand_ins = set(PLAN.stand_in_notes())
    tables = [
        f"{PB_OUT}/tables/scenario1_{d}_{m}.csv"
        for d, m in PB_SETS.scenario1_jobs
        if d in stand_ins
    ]
    return tables + [t for t in sweep_targets() if "/scaleB/" in t]


def paper_targets():
    """Every final file of both papers and of the privacy audit."""
    return [*paper_a_targets(), *paper_b_targets(), *audit_targets()]


def tex_targets():
    """The LaTeX copy (rule table_tex) of every CSV table among the final files of the data, papers and sweeps."""
    return latex.tex_paths([*data_targets(), *paper_targets(), *sweep_targets()])


REPORT_BUILT = catalogue.relative_targets(paper_targets(), RESULTS)
REPORT_MATCH = catalogue.match_targets(CATALOGUE_ITEMS, REPORT_BUILT)
# paper -> its claims file (paper_a/claims.md: PASS/FAIL, paper_b/comparison.md: MATCH/DIFFERS) in this run
REPORT_CLAIMS = catalogue.claims_files(REPORT_BUILT, RESULTS)
# {gallery thumbnail (in RESULTS): figure} of the configured gallery figures this run builds
REPORT_GALLERY = gallery.sources(config["report"]["gallery"], REPORT_BUILT, RESULTS)


def report_targets():
    """Provenance, the index, the README gallery and the recorded configuration."""
    return [
        *run_records(),
        f"{RESULTS}/provenance.json",
        f"{RESULTS}/index.md",
        *REPORT_GALLERY,
    ]


def job_dataset(wildcards, caller):
    """The job's dataset: its wildcard pa_dataset, pb_dataset or dataset (`caller` names the input function)."""
    for name in ("pa_dataset", "pb_dataset", "dataset"):
        if name in wildcards.keys():
            return wildcards[name]
    raise ValueError(f"{caller}: the job has no dataset wildcard ({dict(wildcards)})")


def get_data_table(wildcards):
    """The prepared table of the job's dataset, from rule prepare."""
    dataset = job_dataset(wildcards, "get_data_table")
    return one_file(rules.prepare.output.parquet, dataset=dataset)


def get_data_provenance(wildcards):
    """The provenance JSON of the job's dataset (what its preprocessing was fitted on), from rule prepare."""
    dataset = job_dataset(wildcards, "get_data_provenance")
    return one_file(rules.prepare.output.provenance, dataset=dataset)
