# The get_* input and param functions of the rules, one section per rule file; each binds a planner of the
# library (PLAN, PA_SETS, PB_SETS, SW: common.smk) to a job's wildcards. No rules, no checks here.
from privanomaly.datasets.validation import build_entry, draws_randomness
from privanomaly.paper_b import readings as pb_readings
from privanomaly.price import plan as price_plan


# ---- data.smk ----
def get_download_url(wildcards):
    """The canonical URL of a raw file (rule download)."""
    return PLAN.downloads()[wildcards.relpath]["url"]


def get_download_sha256(wildcards):
    """The pinned sha256 of a raw file, None if the entry pins none (rule download)."""
    return PLAN.downloads()[wildcards.relpath].get("sha256")


def get_raw_files(wildcards):
    """The raw files of a dataset (rule prepare), marked ancient once its table exists - their content reruns
    prepare through get_raw_sha256, a new mtime on the same bytes nothing. Not ancient while the table is
    missing: Snakemake (9.27) drops a job whose ancient input's producer reruns even when the job's own output
    is missing, and ends the run with exit 0 without that output (snakemake/snakemake#4166).
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


def get_prepare_seed(wildcards):
    """The config seed if preparing the dataset draws random numbers (a generator or a subsample), else None:
    a new seed reruns only the tables it changes."""
    return config["seed"] if draws_randomness(PLAN.entry(wildcards.dataset)) else None


# ---- paper_a.smk ----
def get_paper_a_betas(wildcards):
    """The beta grid of a dataset's (beta, r) selection (Figures 2-3's dataset has its own)."""
    return pa_plan.betas(PA, wildcards.pa_dataset)


def get_records_eps_min(wildcards):
    """The smallest eps a mechanism runs at on the dataset's record table: where its ball counts may be capped."""
    return pa_plan.eps_min(PA, wildcards.pa_dataset)


def get_claims_sweep_table(wildcards):
    """The tidy table of the sweep feeding paper A's claims A1, A3, A6, A8, A10 (paper_a.claims.sweep), if it runs."""
    return SW.claims_table(SW_OUT, SW_CLAIMS)


# ---- paper_b.smk ----
def get_tuning_space(wildcards):
    """The space paper B's r is tuned in for a dataset (full, or as configured in paper_b.tuning.space)."""
    return PB["tuning"]["space"].get(wildcards.pb_dataset, "full")


def get_paper_r(wildcards):
    """The paper's printed r of a dataset (paper_b.paper_reported.r), None if it prints none."""
    return PB["paper_reported"].get("r", {}).get(wildcards.pb_dataset)


def get_scenario1_bound(wildcards):
    """What the job's smooth bound reads: Algorithm 2's guard for its dataset, or the fast bound's exact_max."""
    return pb_plan.scenario1_bound(PB, wildcards.pb_dataset, wildcards.pb_method)


def get_choice(wildcards):
    """The r of the job's reading: our tuning or the paper's printed r (rules paper_b_tune_r, paper_b_paper_r)."""
    return pb_plan.choice_file(PB_OUT, wildcards.pb_reading, wildcards.pb_dataset)


def reading_datasets(names):
    """A param function: the datasets of `names` (a set of PB_SETS) that the job's reading computes."""
    return lambda wc: pb_plan.reading_datasets(PB, names, wc.pb_reading)


def get_tables_data(wildcards):
    """The prepared tables of the datasets of Tables 1-2 of the job's reading."""
    names = pb_plan.reading_datasets(PB, PB_SETS.table_sets, wildcards.pb_reading)
    return expand(rules.prepare.output.parquet, dataset=names)


def get_tables_choices(wildcards):
    """The r choices of the datasets of Tables 1-2 of the job's reading."""
    names = pb_plan.reading_datasets(PB, PB_SETS.table_sets, wildcards.pb_reading)
    return [pb_plan.choice_file(PB_OUT, wildcards.pb_reading, d) for d in names]


def get_tables_subcategory(wildcards):
    """The report subcategory of Tables 1-2 of the job's reading."""
    return pb_plan.tables_subcategory(wildcards.pb_reading)


def get_exponent(wildcards):
    """The exponential mechanism's exponent of the job's reading (standard, or the paper's printed one)."""
    return pb_readings.by_prefix(wildcards.pb_reading).exponent


# ---- sweeps.smk ----
def get_sweep_group(wildcards):
    """The cluster group of a sweep's job: the part of its paper (a paper-A sweep feeds paper A's claims)."""
    return "paper_a" if wildcards.sweep in SW.a else "paper_b"


def get_sweep_balls(wildcards):
    """The (beta, r) count tables of the job's paper-A sweep, as records (privanomaly.sweeps.spec.Ball)."""
    return SW.balls(wildcards.sweep)


def get_sweep_counts_settings(wildcards):
    """Rule sweep_counts's settings of the job's sweep: metric, absent points, ball-count cap."""
    return SW.counts_settings(wildcards.sweep)


def get_sweep_chunk_settings(wildcards):
    """Rule sweep_chunk's settings of the job's sweep: mechanisms, ball-count cap."""
    return SW.chunk_settings(wildcards.sweep)


def get_sweep_b_settings(wildcards):
    """Rule sweep_b_dataset's settings of the job's sweep: grids, bounds, mechanisms, Algorithm 2's guard."""
    return SW.b_settings(wildcards.sweep, PB["scenario1"])


def get_sweep_table_settings(wildcards):
    """Rule sweep_collect's settings of the job's sweep: its kind and the kind of its r."""
    return SW.table_settings(wildcards.sweep)


def get_sweep_datasets(wildcards):
    """The datasets the job's sweep runs on in this run (its table's), for the captions."""
    return SW.run_datasets(wildcards.sweep)


def get_chunk_points(wildcards):
    """The (eps, beta, r, k) points of the job's chunk, as records (privanomaly.sweeps.partition)."""
    return SW.chunk_points(wildcards.sweep, wildcards.part)


def get_batch_datasets(wildcards):
    """The datasets of the job's batch (privanomaly.sweeps.plan.SweepPlan.batch_datasets), in the sweep's order."""
    return SW.batch_datasets(wildcards.sweep, wildcards.batch)


def get_batch_tables(wildcards):
    """The prepared table of each dataset of the job's batch, from rule prepare."""
    return expand(rules.prepare.output.parquet, dataset=get_batch_datasets(wildcards))


def get_batch_provenance(wildcards):
    """The provenance JSON of each dataset of the job's batch, from rule prepare."""
    names = get_batch_datasets(wildcards)
    return expand(rules.prepare.output.provenance, dataset=names)


def get_sweep_points(wildcards):
    """Every row file of a sweep (paper A: its chunks; paper B: one per dataset)."""
    if wildcards.sweep in SW.a:
        rows, chunks = rules.sweep_chunk.output.rows, SW.chunks(wildcards.sweep)
        return [
            one_file(rows, sweep=wildcards.sweep, batch=b, part=p) for b, p in chunks
        ]
    rows, names = rules.sweep_b_dataset.output.rows, SW.datasets[wildcards.sweep]
    return [one_file(rows, sweep=wildcards.sweep, dataset=d) for d in names]


# ---- privacy.smk ----
def get_price_datasets(wildcards):
    """The datasets of a paper's price table: paper A's table datasets, paper B's Tables 1-2 datasets."""
    return price_plan.datasets_of(wildcards.paper, PA_SETS, PB_SETS)


def get_price_tables(wildcards):
    """The prepared tables of a paper's price table."""
    return expand(rules.prepare.output.parquet, dataset=get_price_datasets(wildcards))


def get_price_provenance(wildcards):
    """The provenance of those tables (what preprocessing was fitted on)."""
    names = get_price_datasets(wildcards)
    return expand(rules.prepare.output.provenance, dataset=names)


def get_price_raw(wildcards):
    """The raw-scale tables of those datasets (written by prepare_raw), the end-to-end rows' records."""
    return expand(
        rules.prepare_raw.output.parquet, dataset=get_price_datasets(wildcards)
    )


def get_price_raw_provenance(wildcards):
    """Their provenance (which fitted steps are deferred to the public part)."""
    return expand(
        rules.prepare_raw.output.provenance, dataset=get_price_datasets(wildcards)
    )


def get_price_settings(wildcards):
    """The keys of the paper's config section the price table reads (its tuning protocol)."""
    return price_plan.paper_settings(wildcards.paper, config)


# ---- report.smk ----
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
        return lambda wc: catalogue.plot_params(config, item.plot, CATALOGUE_SETS, wc)
    return catalogue.plot_params(config, item.plot, CATALOGUE_SETS)


def item_log(item, root, suffix):
    """Log or benchmark of an item's job: `all`, or its wildcards (`{dataset}_{method}`)."""
    names = dict.fromkeys(catalogue.WILDCARD.findall(item.files[0]))
    return f"{root}/{item.rule}/{'_'.join(f'{{{n}}}' for n in names) or 'all'}{suffix}"


def get_gallery_figure(wildcards):
    """The figure a gallery thumbnail is made from."""
    return REPORT_GALLERY[f"{GALLERY_DIR}/{wildcards.name}.png"]


def get_config(wildcards):
    """The run's effective configuration (config.yaml + overlays + --config), as a param."""
    return dict(config)


def get_dataset_provenance(wildcards):
    """The provenance JSON of every available dataset (rule provenance)."""
    return sorted(t for t in data_targets() if str(t).endswith(".json"))


# ---- standins.smk ----
def get_standin_generator(wildcards):
    """The generator of a stand-in raw file (datasets.<name>.stand_in.generator)."""
    return PLAN.standin_files()[wildcards.relpath]


def get_mirror_source(wildcards):
    """The real data_mirror's file a stand-in mirror entry links to."""
    return os.path.abspath(os.path.join(config["data_mirror"], wildcards.relpath))
