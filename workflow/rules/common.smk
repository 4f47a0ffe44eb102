# Shared by every file of workflow/rules - path constants, this run's plan (the library's planners bound to
# this config) and the get_* input/param functions of the rules. No rules here. Library on sys.path: config.smk.
import os
from os.path import relpath
from pathlib import Path

from privanomaly import mechanisms as mech_registry
from privanomaly.codedigest import script_digest
from privanomaly.configplan import check_papers
from privanomaly.datasets.validation import (
    build_entry,
    check_dataset_entry,
    draws_randomness,
)
from privanomaly.paper_a import workflow_checks as pa_plan
from privanomaly.paper_b import readings as pb_readings
from privanomaly.paper_b import workflow as pb_plan
from privanomaly.plan import DataPlan, wildcard_choice
from privanomaly.privacy import price_plan
from privanomaly.provenance import config_sha256, git_commit
from privanomaly.report import catalogue
from privanomaly.report import gallery
from privanomaly.run_config import RECORD_NAME as RUN_CONFIG_RECORD, finished_message
from privanomaly.runlog import skip_collection_at_exit
from privanomaly.sweeps.plan import SweepPlan

# Snakemake's own process (every run, dry-run and cluster job step) ends without the final garbage
# collections over its modules and DAG: ~0.2 s CPU per start (runlog.skip_collection_at_exit).
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
CATALOGUE = f"{workflow.basedir}/workflow/report/catalogue.yaml"
CATALOGUE_ITEMS = catalogue.load(CATALOGUE)
catalogue.check_sections(CATALOGUE_ITEMS, f"{workflow.basedir}/workflow/report")


# ---- Datasets: privanomaly.plan.DataPlan ----
for _name, _entry in config["datasets"].items():
    check_dataset_entry(_name, _entry)
PLAN = DataPlan(config)
STANDIN_MIRROR = PLAN.standin_mirror
print(PLAN.mirror_notice(), file=sys.stderr)
for _name, _why in PLAN.unavailable().items():
    print(f"{_name}: {_why}", file=sys.stderr)


def one_file(pattern, **wildcards):
    """`pattern` (e.g. rules.prepare.output.parquet) with its wildcards filled: one path."""
    return expand(pattern, **wildcards)[0]


def get_download_url(wildcards):
    """The canonical URL of a raw file (rule download)."""
    return PLAN.downloads()[wildcards.relpath]["url"]


def get_download_sha256(wildcards):
    """The pinned sha256 of a raw file, None if the entry pins none (rule download)."""
    return PLAN.downloads()[wildcards.relpath].get("sha256")


def get_raw_files(wildcards):
    """The raw files of a dataset, in the raw cache or at their local path (rule prepare), marked ancient - their
    content reruns prepare through get_raw_sha256, a new mtime on the same bytes (a copy, a restore) nothing.

    Not ancient while the prepared table is missing: Snakemake (9.27) drops a job whose ancient input's producer
    reruns (a download whose params or code changed) even when the job's own output is missing, and ends the
    run with exit 0 without that output (snakemake/snakemake#4166).
    """
    files = PLAN.raw_files(wildcards.dataset)
    table = Path(PLAN.parquet(wildcards.dataset))
    return (
        ancient(files)
        if table.exists() and table.with_suffix(".json").exists()
        else files
    )


def get_raw_sha256(wildcards):
    """The content (sha256) of a dataset's raw files: a file restored with an older mtime reruns prepare."""
    return PLAN.raw_sha256(wildcards.dataset)


def get_dataset_entry(wildcards):
    """The config entry datasets.<dataset> as rule prepare reads it (without its description or homepage)."""
    return build_entry(PLAN.entry(wildcards.dataset))


def library_code(script):
    """Param `library` of the jobs of scripts/<script>.py, the digest of the privanomaly modules the script can
    run (privanomaly.codedigest). Editing one of them reruns exactly the jobs that import it; Snakemake's own
    code trigger sees the script file only."""
    return script_digest(Path(workflow.basedir) / "scripts" / f"{script}.py")


def get_prepare_seed(wildcards):
    """The config seed if preparing the dataset draws random numbers (a generator or a subsample), else None:
    a new seed reruns only the tables it changes."""
    return config["seed"] if draws_randomness(PLAN.entry(wildcards.dataset)) else None


def job_dataset(wildcards, caller):
    """The job's dataset: its wildcard pa_dataset, pb_dataset or dataset (`caller` names the input function)."""
    for name in ("pa_dataset", "pb_dataset", "dataset"):
        if name in wildcards.keys():
            return wildcards[name]
    raise ValueError(f"{caller}: the job has no dataset wildcard ({dict(wildcards)})")


def get_data_table(wildcards):
    """The prepared table of the job's dataset, from rule prepare."""
    return one_file(
        rules.prepare.output.parquet,
        dataset=job_dataset(wildcards, "get_data_table"),
    )


def get_data_provenance(wildcards):
    """The provenance JSON of the job's dataset (what its preprocessing was fitted on), from rule prepare."""
    return one_file(
        rules.prepare.output.provenance,
        dataset=job_dataset(wildcards, "get_data_provenance"),
    )


# Rules whose k-NN searches run in parallel (paper_a_select, paper_a_records, paper_a_growth) take 2 threads
# when the run has at least 4 cores (or none set: a cluster); on 2 local cores a 2-thread job would wait until
# both are free, i.e. behind every long single-thread job such as the audit.
KNN_THREADS = 2 if (workflow.resource_settings.cores or 4) >= 4 else 1


# the papers' cross-key checks (the same function make's config check runs before Snakemake)
check_papers(config, PLAN, PLAN.unavailable())


# ---- Paper A: privanomaly.paper_a.workflow_checks ----
# the dataset sets of paper A; the catalogue names them too
PA_SETS = pa_plan.sets(PA, PLAN.available(PA["datasets"]), PLAN.unavailable())
# scale runs only (.scale/config.yaml): {dataset: "stand-in data: ..."} carried by every table/figure/claim
PA_STAND_IN = PLAN.stand_in_notes(PA_SETS["paper_a.selected"])
for _name, _why in PA_SETS["paper_a.missing"].items():
    print(f"paper_a: {_name} left out of the tables ({_why})", file=sys.stderr)


def get_paper_a_betas(wildcards):
    """The beta grid of a dataset's (beta, r) selection (Figures 2-3's dataset has its own)."""
    return pa_plan.betas(PA, wildcards.pa_dataset)


def get_records_eps_min(wildcards):
    """The smallest eps a mechanism runs at on the dataset's record table: where its ball counts may be capped."""
    return pa_plan.eps_min(PA, wildcards.pa_dataset)


# ---- Paper B: privanomaly.paper_b.workflow; {pb_reading} = "" (ours) or a reading's prefix ----
PB_SETS = pb_plan.sets(PB, PLAN.available(list(PB["datasets"])))
PB_METHOD_REGEX = "paper|fast"  # the smooth bounds of a Scenario-1 table or figure
# before any job: a Scenario-1 dataset whose Algorithm 2 is predicted past its work guard
for _msg in pb_plan.scenario1_outlooks(PB, PB_SETS["paper_b.scenario1"], PLAN.parquet):
    print(f"paper_b: {_msg}", file=sys.stderr)
for _msg in pb_plan.scenario1_estimates(PB, PB_SETS["paper_b.scenario1"], PLAN.parquet):
    print(f"paper_b: {_msg}", file=sys.stderr)
PB_READINGS_PLAN = pb_plan.readings_plan(PB_OUT, PB, PB_SETS)
PB_PAPER_R = PB["paper_reported"].get("r", {})


def get_tuning_space(wildcards):
    """The space paper B's r is tuned in for a dataset (full, or as configured in paper_b.tuning.space)."""
    return PB["tuning"]["space"].get(wildcards.pb_dataset, "full")


def get_paper_r(wildcards):
    """The paper's printed r of a dataset (paper_b.paper_reported.r), None if it prints none."""
    return PB_PAPER_R.get(wildcards.pb_dataset)


def get_scenario1_bound(wildcards):
    """What the job's smooth bound reads: Algorithm 2's guard for its dataset, or the fast bound's exact_max."""
    return pb_plan.scenario1_bound(PB, wildcards.pb_dataset, wildcards.pb_method)


def get_choice(wildcards):
    """The r of the job's reading: our tuning or the paper's printed r (rules paper_b_tune_r, paper_b_paper_r)."""
    return pb_plan.choice_file(PB_OUT, wildcards.pb_reading, wildcards.pb_dataset)


def reading_datasets(name):
    """A param function: the datasets of paper-B set `name` that the job's reading computes."""
    return lambda wc: pb_plan.reading_datasets(PB, PB_SETS, name, wc.pb_reading)


def get_tables_data(wildcards):
    """The prepared tables of the datasets of Tables 1-2 of the job's reading."""
    names = pb_plan.reading_datasets(
        PB, PB_SETS, "paper_b.table_sets", wildcards.pb_reading
    )
    return expand(rules.prepare.output.parquet, dataset=names)


def get_tables_choices(wildcards):
    """The r choices of the datasets of Tables 1-2 of the job's reading."""
    names = pb_plan.reading_datasets(
        PB, PB_SETS, "paper_b.table_sets", wildcards.pb_reading
    )
    return [pb_plan.choice_file(PB_OUT, wildcards.pb_reading, d) for d in names]


def get_tables_subcategory(wildcards):
    """The report subcategory of Tables 1-2 of the job's reading."""
    return pb_plan.tables_subcategory(wildcards.pb_reading)


def get_exponent(wildcards):
    """The exponential mechanism's exponent of the job's reading (standard, or the paper's printed one)."""
    return pb_readings.by_prefix(wildcards.pb_reading).exponent


# ---- Sweeps: privanomaly.sweeps.plan.SweepPlan (paper A: chunks, privanomaly.sweeps.partition; paper B: one job per dataset) ----
SW = SweepPlan(
    config.get("sweeps"),
    PLAN.check_names,
    PLAN.available,
    config.get("sweep_max_points"),
    config.get("sweep_points_per_job"),
)
SW_CLAIMS = PA.get("claims", {}).get("sweep")
for _name in SW.skipped:
    print(
        f"sweeps: {_name} skipped (none of its datasets is available)", file=sys.stderr
    )


def sweep_setting(field):
    """A param function: the job's sweep's setting `field` (privanomaly.sweeps.plan.SweepPlan.setting)."""
    return lambda wc: SW.setting(wc.sweep, field, PB["scenario1"])


def get_sweep_group(wildcards):
    """The cluster group of a sweep's job: the part of its paper (a paper-A sweep feeds paper A's claims)."""
    return "paper_a" if wildcards.sweep in SW.a else "paper_b"


def get_sweep_ball_keys(wildcards):
    """The (beta, r) ball keys of the job's paper-A sweep: one count table each in a dataset's counts file."""
    return SW.ball_keys(wildcards.sweep)


def get_chunk_points(wildcards):
    """The [eps, beta, r, k] points of the job's chunk (privanomaly.sweeps.partition)."""
    return SW.chunk_points(wildcards.sweep, wildcards.part)


# a paper-A sweep job's batch: a dataset name, or the names of the datasets sharing its jobs joined by '+'
BATCH_WILDCARD = "[A-Za-z][A-Za-z0-9_]*([+][A-Za-z][A-Za-z0-9_]*)*"


def get_batch_datasets(wildcards):
    """The datasets of the job's batch (privanomaly.sweeps.plan.SweepPlan.batch_datasets), in the sweep's order."""
    return SW.batch_datasets(wildcards.sweep, wildcards.batch)


def get_batch_tables(wildcards):
    """The prepared table of each dataset of the job's batch, from rule prepare."""
    return [
        one_file(rules.prepare.output.parquet, dataset=d)
        for d in get_batch_datasets(wildcards)
    ]


def get_batch_provenance(wildcards):
    """The provenance JSON of each dataset of the job's batch, from rule prepare."""
    return [
        one_file(rules.prepare.output.provenance, dataset=d)
        for d in get_batch_datasets(wildcards)
    ]


def get_sweep_points(wildcards):
    """Every row file of a sweep (paper A: its chunks; paper B: one per dataset)."""
    if wildcards.sweep in SW.a:
        return [
            one_file(
                rules.sweep_chunk.output.rows,
                sweep=wildcards.sweep,
                batch=b,
                part=p,
            )
            for b, p in SW.chunks(wildcards.sweep)
        ]
    return [
        one_file(rules.sweep_b_dataset.output.rows, sweep=wildcards.sweep, dataset=d)
        for d in SW.datasets[wildcards.sweep]
    ]


def get_claims_sweep_table(wildcards):
    """The tidy table of the sweep feeding paper A's claims A3, A6, A8 (paper_a.claims.sweep), if it runs."""
    return SW.claims_table(SW_OUT, SW_CLAIMS)


def get_standin_generator(wildcards):
    """The generator of a stand-in raw file (datasets.<name>.stand_in.generator)."""
    return PLAN.standin_files()[wildcards.relpath]


def get_mirror_source(wildcards):
    """The real data_mirror's file a stand-in mirror entry links to."""
    return os.path.abspath(os.path.join(config["data_mirror"], wildcards.relpath))


# ---- Catalogue items with a plot: or table: section: one rule each (report.smk) ----
PLAN_SETS = {
    "data.available": PLAN.available(),
    **PA_SETS,
    "paper_a.missing": list(PA_SETS["paper_a.missing"]),
    **PB_SETS,
}
ITEM_WILDCARDS = {"dataset": wildcard_choice(PLAN.names()), "method": PB_METHOD_REGEX}
ITEM_STAND_IN = {"A": PA_STAND_IN}  # paper B's datasets are all mirrored: no stand-ins


def item_outputs(item):
    """{suffix: path} of an item's files; the first (PNG of a plot, CSV of a table) is in the report."""
    first, *rest = item.files
    return {
        Path(first).suffix.lstrip("."): report(
            f"{RESULTS}/{first}",
            caption=f"../report/{item.plot.caption}",
            category=f"Paper {item.paper}",
            subcategory=item.plot.subcategory,
        ),
        **{Path(f).suffix.lstrip("."): f"{RESULTS}/{f}" for f in rest},
    }


def item_params(item):
    """The registered function's params of an item (per job when a config key holds a wildcard)."""
    if catalogue.per_job(item.plot):
        return lambda wc: catalogue.plot_params(config, item.plot, PLAN_SETS, wc)
    return catalogue.plot_params(config, item.plot, PLAN_SETS)


def item_log(item, root, suffix):
    """Log or benchmark of an item's job: `all`, or its wildcards (`{dataset}_{method}`)."""
    names = dict.fromkeys(catalogue.WILDCARD.findall(item.files[0]))
    return f"{root}/{item.rule}/{'_'.join(f'{{{n}}}' for n in names) or 'all'}{suffix}"


# ---- The price of honest tuning: privanomaly.honest_tuning, one job per paper ----
def get_price_datasets(wildcards):
    """The datasets of a paper's price table: paper A's table datasets, paper B's Tables 1-2 datasets."""
    return price_plan.datasets_of(wildcards.paper, PLAN_SETS)


def get_price_tables(wildcards):
    """The prepared tables of a paper's price table."""
    return expand(rules.prepare.output.parquet, dataset=get_price_datasets(wildcards))


def get_price_provenance(wildcards):
    """The provenance of those tables (what preprocessing was fitted on)."""
    return expand(
        rules.prepare.output.provenance, dataset=get_price_datasets(wildcards)
    )


def get_price_settings(wildcards):
    """The keys of the paper's config section the price table reads (its tuning protocol)."""
    return price_plan.paper_settings(wildcards.paper, config)


# ---- Report: index, gallery, provenance ----
if "report" not in config:
    raise ValueError(
        "config: missing section 'report' (gallery_width, gallery); see config.yaml"
    )
GALLERY_DIR = gallery.gallery_dir(RESULTS)


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
        f"{RESULTS}/{f}" for f in catalogue.paper_files(CATALOGUE_ITEMS, "B", PB_SETS)
    ]


# the registry the privacy audit checks: {name: digest of its source} (a param of rule privacy_audit)
AUDITED_MECHANISMS = mech_registry.fingerprint()


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
        for d, m in PB_SETS["paper_b.scenario1_jobs"]
        if d in stand_ins
    ]
    return tables + [t for t in sweep_targets() if "/scaleB/" in t]


def paper_targets():
    """Every final file of both papers and of the privacy audit."""
    return [*paper_a_targets(), *paper_b_targets(), *audit_targets()]


REPORT_BUILT = catalogue.relative_targets(paper_targets(), RESULTS)
REPORT_MATCH = catalogue.match_targets(CATALOGUE_ITEMS, REPORT_BUILT)
# paper -> its claims file (paper_a/claims.md: PASS/FAIL, paper_b/comparison.md: MATCH/DIFFERS) in this run
REPORT_CLAIMS = catalogue.claims_files(REPORT_BUILT, RESULTS)
# {gallery thumbnail (in RESULTS): figure} of the configured gallery figures this run builds
gallery.check_known(
    config["report"]["gallery"],
    [f for it in CATALOGUE_ITEMS for f in it.files if f.endswith(".png")]
    + ["sweeps/{sweep}/figures/{figure}.png"],
)
REPORT_GALLERY = gallery.sources(config["report"]["gallery"], REPORT_BUILT, RESULTS)


def get_gallery_figure(wildcards):
    """The figure a gallery thumbnail is made from."""
    return REPORT_GALLERY[f"{GALLERY_DIR}/{wildcards.name}.png"]


def get_config(wildcards):
    """The run's effective configuration (config.yaml + overlays + --config), as a param."""
    return dict(config)


def get_dataset_provenance(wildcards):
    """The provenance JSON of every available dataset (rule provenance)."""
    return sorted(t for t in data_targets() if str(t).endswith(".json"))


def report_targets():
    """Provenance, the index, the README gallery and the recorded configuration."""
    return [
        *run_records(),
        f"{RESULTS}/provenance.json",
        f"{RESULTS}/index.md",
        *REPORT_GALLERY,
    ]
