# Helpers of plots.smk (issue 13: `plot:` and `table:` sections), included by it: constants and functions only
# (the linter wants functions apart from rules). The catalogue items come from common.smk (CATALOGUE_ITEMS).

# the plan's sets a {d} input expands over (catalogue `datasets`) or a `sets` param names (missing: the names)
PLAN_SETS.update({**PA_SETS, **PB_SETS})
PLAN_SETS["paper_a.missing"] = list(PA_SETS["paper_a.missing"])
# {dataset: stand-in note} per paper (scale runs only), stamped where the catalogue says `stand_in: true`
PLOT_STAND_IN = {"A": PA_STAND_IN}
PLOT_ITEMS = [it for it in CATALOGUE_ITEMS if it.plot is not None]
# what a file wildcard of a plot item may match: a configured dataset, a smooth bound of paper B
PLOT_WILDCARDS = {"dataset": wildcard_choice(PLAN.names()), "method": "paper|fast"}


def plot_wildcards(item):
    """The wildcard constraints of a plot item's rule (those of its files' wildcards)."""
    return {n: PLOT_WILDCARDS[n] for n in _catalogue.WILDCARD.findall(item.files[0])}


def plot_params(item):
    """The plot function's params: config values (filled per job if a key uses wildcards) and literals."""
    if item.plot.per_job:
        return lambda wc: _catalogue.plot_params(
            config, item.plot, dict(wc.items()), PLAN_SETS
        )
    return _catalogue.plot_params(config, item.plot, None, PLAN_SETS)


def plot_inputs(item):
    """{name: path or per-dataset list of paths} of a catalogue plot item."""
    return {
        name: (
            expand(f"{RESULTS}/{path}", d=PLAN_SETS[item.plot.datasets])
            if _catalogue.EXPAND in path
            else f"{RESULTS}/{path}"
        )
        for name, path in item.plot.inputs
    }


def plot_outputs(item):
    """{suffix: path} of an item's files; the first (PNG of a plot, CSV of a table) is the report item."""
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


def plot_job_name(item):
    """Log/benchmark file name of one job: "all", or its wildcards ("{dataset}_{method}")."""
    names = _catalogue.WILDCARD.findall(item.files[0])
    return "_".join(f"{{{n}}}" for n in names) or "all"
