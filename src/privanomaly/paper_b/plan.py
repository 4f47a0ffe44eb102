"""Paper B's side of the workflow's plan (workflow/rules/common.smk and paper_b.smk): config cross-checks, the
dataset sets of the catalogue, the readings and where their r lives, the inputs of the comparison (no Snakemake
here)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from privanomaly.outliers import CONVENTIONS
from privanomaly.paper_b import readings as _readings


def check_config(pb: dict) -> None:
    """Every dataset a paper_b list names must be a key of paper_b.datasets; conventions must be known."""
    known = set(pb["datasets"])
    lists = {
        "paper_b.tables.table1": pb["tables"]["table1"],
        "paper_b.tables.table2": pb["tables"]["table2"],
        "paper_b.scenario1.datasets": pb["scenario1"]["datasets"],
        "paper_b.scenario2.datasets": pb["scenario2"]["datasets"],
        "paper_b.timing.datasets": pb["timing"]["datasets"],
        "paper_b.tuning.space": list(pb["tuning"]["space"]),
    }
    for key, names in lists.items():
        for i, name in enumerate(names):
            if name not in known:
                raise ValueError(
                    f"config {key}[{i}]: {name!r} is not a key of paper_b.datasets (known: {', '.join(sorted(known))})"
                )
    _readings.variants(list(pb.get("readings", [])))
    check_methods_by_dataset(pb)
    grid = pb["tuning"]["r_grid"]
    if grid["min"] > grid["max"]:
        raise ValueError(f"config paper_b.tuning.r_grid: min = {grid['min']} is larger than max = {grid['max']}; "
                         "the candidate radii run from min up to max")
    methods = pb["scenario1"]["methods"]
    for i, name in enumerate(pb.get("readings_methods", [])):
        if name not in methods:
            raise ValueError(f"config paper_b.readings_methods[{i}]: {name!r} is not in paper_b.scenario1.methods "
                             f"{methods} (the other readings' Figs. 3-4 draw bounds Scenario 1 computes); "
                             "add it to paper_b.scenario1.methods or remove it from paper_b.readings_methods")
    fig2 = pb["fig2"]
    if fig2["plot_k"] not in fig2["k_values"]:
        raise ValueError(f"config paper_b.fig2.plot_k: {fig2['plot_k']} is not one of paper_b.fig2.k_values "
                         f"{fig2['k_values']} (the figure draws the construction of one computed k)")
    for i, name in enumerate(pb["scenario1"]["conventions"]):
        if name not in CONVENTIONS:
            raise ValueError(
                f"config paper_b.scenario1.conventions[{i}]: unknown {name!r}; known: {', '.join(CONVENTIONS)}"
            )


def scenario1_methods(pb: dict, dataset: str) -> list[str]:
    """The smooth-bound methods of ``dataset`` in Scenario 1: ``paper_b.scenario1.methods_by_dataset[dataset]``
    if set, else ``paper_b.scenario1.methods`` (a public, per-dataset choice made before the run)."""
    s1 = pb["scenario1"]
    return list((s1.get("methods_by_dataset") or {}).get(dataset, s1["methods"]))


def scenario1_jobs(pb: dict, datasets: list[str]) -> list[tuple[str, str]]:
    """(dataset, method) of every Scenario-1 table of ``datasets``: the per-dataset methods, not a product."""
    return [(d, m) for d in datasets for m in scenario1_methods(pb, d)]


def scenario1_max_work(pb: dict, dataset: str) -> int | None:
    """Algorithm 2's guard for ``dataset``: ``max_work_by_dataset[dataset]`` if set (null = none), else ``max_work``."""
    s1 = pb["scenario1"]
    by = s1.get("max_work_by_dataset") or {}
    return by[dataset] if dataset in by else s1["max_work"]


def scenario1_guard_key(pb: dict, dataset: str) -> str:
    """The config key that sets Algorithm 2's guard for ``dataset`` (:func:`scenario1_max_work`): what a skipped
    row tells to raise."""
    by = pb["scenario1"].get("max_work_by_dataset") or {}
    return f"paper_b.scenario1.max_work_by_dataset.{dataset}" if dataset in by else "paper_b.scenario1.max_work"


def scenario1_bound(pb: dict, dataset: str, method: str) -> dict:
    """What the smooth bound of one Scenario-1 table reads (rule paper_b_scenario1's params): Algorithm 2
    (``paper``) its work guard for ``dataset`` (:func:`scenario1_max_work`), the key that set it
    (:func:`scenario1_guard_key`) and ``skip_infeasible`` (rows past the guard say skipped); the fast bound its
    ``exact_max`` (``paper_b.fast_exact_max``). A setting of one bound never reruns the other bound's tables, nor
    one dataset's guard another dataset's."""
    if method == "paper":
        return {"max_work": scenario1_max_work(pb, dataset), "guard_key": scenario1_guard_key(pb, dataset),
                "skip_infeasible": bool(pb["scenario1"]["skip_infeasible"])}
    if method == "fast":
        return {"fast_exact_max": int(pb["fast_exact_max"])}
    raise ValueError(f"paper_b.scenario1: method must be 'paper' or 'fast', got {method!r}")


def scenario1_outlooks(pb: dict, datasets: list[str], parquet) -> list[str]:
    """DAG-time warnings: one line per Scenario-1 dataset running Algorithm 2 (method ``paper``) whose prepared
    table (``parquet(dataset)``, when it exists) predicts :class:`~privanomaly.paper_b.released_bound.
    AlgorithmTooCostly` (:func:`~privanomaly.paper_b.released_bound.algorithm2_outlook`)."""
    from privanomaly.paper_b.released_bound import file_outlook

    out = []
    for d in datasets:
        if "paper" not in scenario1_methods(pb, d):
            continue
        look = file_outlook(parquet(d), pb["k"], scenario1_max_work(pb, d), d)
        if look is not None and look.verdict == "likely too costly":
            out.append(look.message)
    return out


def scenario1_estimates(pb: dict, datasets: list[str], parquet, expected=None) -> list[str]:
    """DAG-time outlook: one line per Scenario-1 job (dataset, method) with its estimated CPU time from the
    prepared table's shape (N, d), k and the config (:func:`~privanomaly.paper_b.released_bound.job_estimate`);
    a table not prepared yet says so. Printed before the run; nothing is decided by it."""
    from privanomaly.paper_b.released_bound import job_estimate, known_shape
    from privanomaly.paper_b.scenario1 import scenario1_betas

    s1, out = pb["scenario1"], []
    for d, method in scenario1_jobs(pb, datasets):
        shape, note = known_shape(parquet(d), d, expected)
        if shape is None:
            out.append(f"scenario1 {d} ({method}): estimated once its table is prepared")
            continue
        betas = scenario1_betas(shape[0], shape[1], pb["k"], list(s1["eps"]), pb["delta"], list(s1["conventions"]))
        out.append(f"scenario1 {d} ({method}): " + job_estimate(*shape, pb["k"], method, betas,
                                                               scenario1_max_work(pb, d)) + note)
    return out


def job_estimates(pb: dict, sets: "PaperBSets", parquet, expected=None) -> list[str]:
    """DAG-time outlook of paper B's other long jobs (:mod:`privanomaly.paper_b.cost`, from each prepared table's
    shape, k and the config's grids): rule paper_b_tune_r of every dataset that reads a tuned r, rule
    paper_b_scenario2 of every Scenario-2 dataset; one line per kind names the datasets whose table is not prepared
    yet. Nothing is decided by it."""
    from privanomaly.paper_b import cost
    from privanomaly.paper_b.released_bound import known_shape

    s2, grid, out, later = pb["scenario2"], pb["tuning"]["r_grid"], [], {}
    jobs = [("tune_r", d) for d in dict.fromkeys(sets.table_sets + sets.scenario1 + sets.scenario2)]
    for kind, d in jobs + [("scenario2", d) for d in sets.scenario2]:
        shape, note = known_shape(parquet(d), d, expected)
        if shape is None:
            later.setdefault(kind, []).append(d)
        elif kind == "tune_r":
            secs = cost.tune_r_seconds(*shape, pb["k"], int(grid["num"]))
            out.append(f"tune_r {d}: " + cost.say(secs, f"k-NN radii, N = {shape[0]:,}, d = {shape[1]}") + note)
        else:
            n_cells = len(s2["h"]) * len(s2["eps"])
            secs = cost.scenario2_seconds(*shape, pb["k"], int(s2["subspace_dim"]), n_cells, int(s2["n_trials"]))
            out.append(f"scenario2 {d}: " + cost.say(secs, f"top-h over {n_cells} cells, N = {shape[0]:,}, "
                                                           f"d = {shape[1]}") + note)
    return out + [f"{kind} {', '.join(names)}: estimated once the table is prepared" for kind, names in later.items()]


def check_methods_by_dataset(pb: dict) -> None:
    """Every dataset ``paper_b.scenario1.methods_by_dataset`` / ``max_work_by_dataset`` names is a Scenario-1 one."""
    s1 = pb["scenario1"]
    for key in ("methods_by_dataset", "max_work_by_dataset"):
        for name in s1.get(key) or {}:
            if name not in s1["datasets"]:
                raise ValueError(f"config paper_b.scenario1.{key}.{name}: {name!r} is not in paper_b.scenario1.datasets "
                                 f"({', '.join(s1['datasets'])})")


@dataclass(frozen=True)
class ReadingSets:
    """The sets of a variant reading (:mod:`privanomaly.paper_b.readings`), written under ``paper_b/<reading>/``
    for the datasets with a printed r (``paper_reported.r``): Tables 1-2 and Figs. 3-4 only for readings that
    compute them (:attr:`Reading.r_only`), Figs. 3-4 with the smooth bounds ``readings_methods``. A reading that
    is not configured has empty sets."""

    scenario1: list[str]
    scenario2: list[str]
    tables: list[str]
    methods: list[str]


@dataclass(frozen=True)
class PaperBSets:
    """The dataset and method sets of paper B in this run (:func:`sets`); the catalogue's ``expand``/``when``
    name them ``paper_b.<field>`` and ``paper_b.<field>@<reading>`` (:meth:`named`)."""

    datasets: list[str]
    scenario1: list[str]
    scenario2: list[str]
    timing: list[str]
    table1: list[str]
    table2: list[str]
    table_sets: list[str]  # Tables 1-2's datasets, each once
    methods: list[str]
    scenario1_jobs: list[tuple[str, str]]  # (dataset, method) of every Scenario-1 table, expanded jointly
    readings: dict[str, ReadingSets]  # every variant reading by name

    def named(self) -> dict[str, list]:
        """{``paper_b.<field>``: values, ``paper_b.<field>@<reading>``: values}: the names the catalogue uses (its
        targets are :func:`privanomaly.report.catalogue.paper_files` over these)."""
        out = {f"paper_b.{f.name}": list(getattr(self, f.name)) for f in fields(self) if f.name != "readings"}
        for name, rs in self.readings.items():
            out.update({f"paper_b.{f.name}@{name}": list(getattr(rs, f.name)) for f in fields(rs)})
        return out


def sets(pb: dict, available: list[str]) -> PaperBSets:
    """The sets of paper B (:class:`PaperBSets`) from config ``paper_b`` and the datasets ``available`` in this
    run."""
    ds = [n for n in pb["datasets"] if n in available]
    keep = lambda names: [n for n in names if n in ds]  # noqa: E731
    table1, table2, s1 = keep(pb["tables"]["table1"]), keep(pb["tables"]["table2"]), keep(pb["scenario1"]["datasets"])
    s2, table_sets = keep(pb["scenario2"]["datasets"]), list(dict.fromkeys(table1 + table2))
    methods = list(pb["scenario1"]["methods"])
    configured = _readings.variants(list(pb.get("readings", [])))
    paper_r = pb["paper_reported"].get("r", {})
    readings = {}
    for rd in (r for r in _readings.READINGS.values() if r is not _readings.OURS):
        with_r = lambda names: _readings.with_r(rd, names, paper_r) if rd in configured else []  # noqa: E731
        readings[rd.name] = ReadingSets(scenario1=with_r(s1) if rd.r_only else [], scenario2=with_r(s2),
                                        tables=with_r(table_sets) if rd.r_only else [],
                                        methods=list(pb.get("readings_methods", methods)))
    return PaperBSets(datasets=ds, scenario1=s1, scenario2=s2, timing=keep(pb["timing"]["datasets"]), table1=table1,
                      table2=table2, table_sets=table_sets, methods=methods, scenario1_jobs=scenario1_jobs(pb, s1),
                      readings=readings)


def reading_inputs(
    out: str,
    rd: _readings.Reading,
    s1_jobs: list[tuple[str, str]],
    s2: list[str],
    table_sets: list[str],
    paper_r: dict[str, float],
) -> dict:
    """The tables rule ``paper_b_comparison`` reads for one reading: {tables: [table1, table2] (or [] when no
    table dataset has the reading's r), choices: {dataset: json},
    scenario1: [csv] (one per (dataset, method) of ``s1_jobs``), scenario2: {dataset: csv}, subspaces: {dataset:
    csv}}. Tables 1-2 and Figs. 3-4 come
    from the reading with the same r and our exponent (they do not use the exponent)."""
    src = _readings.r_source_reading(rd)
    keep = lambda names: _readings.with_r(rd, names, paper_r)  # noqa: E731
    tab, r_tab = f"{out}/{rd.prefix}tables", f"{out}/{src.prefix}tables"
    return {
        "tables": [f"{r_tab}/table1.csv", f"{r_tab}/table2.csv"] if keep(table_sets) else [],
        "choices": {d: f"{out}/{rd.r_prefix}tuning/{d}.json" for d in keep(table_sets)},
        "scenario1": [f"{r_tab}/scenario1_{d}_{m}.csv" for d, m in s1_jobs if d in keep([d])],
        "scenario2": {d: f"{tab}/scenario2_pr_{d}.csv" for d in keep(s2)},
        "subspaces": {d: f"{tab}/scenario2_subspaces_{d}.csv" for d in keep(s2)},
    }


def flat_files(inputs: dict) -> list[str]:
    """Every path of a :func:`reading_inputs` dict (for the rule's declared input), in a stable order."""
    out: list[str] = []
    for v in inputs.values():
        vals = v.values() if isinstance(v, dict) else (v if isinstance(v, list) else [v])
        out += [x for x in vals if x not in out]
    return out


def readings_plan(out: str, pb: dict, sets: PaperBSets) -> dict[str, dict]:
    """``params.readings`` of rule ``paper_b_comparison``: per reading (ours first, then config
    ``paper_b.readings``) what it is and the tables it reads (:func:`reading_inputs`, under ``out``), over the
    dataset sets of :func:`sets`. Figs. 3-4 of the other readings use the smooth bounds ``readings_methods``."""
    methods, paper_r = sets.methods, pb["paper_reported"].get("r", {})
    plan = {}
    for rd in [_readings.OURS, *_readings.variants(list(pb.get("readings", [])))]:
        plan[rd.name or "ours"] = {
            "prefix": rd.prefix,
            "r": rd.r,
            "exponent": rd.exponent,
            "label": rd.label,
            "short": rd.short,
            "shares": _readings.r_source_reading(rd).name if not rd.r_only else None,
            "inputs": reading_inputs(out, rd,
                                     sets.scenario1_jobs if rd is _readings.OURS else
                                     [(d, m) for d in sets.scenario1 for m in pb.get("readings_methods", methods)],
                                     sets.scenario2, sets.table_sets, paper_r),
        }
    # our accuracy at the paper's printed r (the comparison's note on Tables 1-2) comes from the paper's-r record
    # (rule paper_b_paper_r), not from our tuning's: a printed r reruns none of the tables of our tuned r
    plan["ours"]["inputs"]["at_paper_r"] = {
        d: f"{out}/{_readings.R_PREFIX['paper']}tuning/{d}.json"
        for d in sets.table_sets if paper_r.get(d) is not None}
    return plan


def readings(pb: dict) -> list[_readings.Reading]:
    """The readings this run computes: ours first, then config ``paper_b.readings``."""
    return [_readings.OURS, *_readings.variants(list(pb.get("readings", [])))]


def r_readings_regex(pb: dict) -> str:
    """The ``pb_reading`` prefixes of the readings with an r of their own (Tables 1-2, Scenario 1): a regex."""
    return _readings.regex([rd for rd in readings(pb) if rd.r_only])


def reading_datasets(pb: dict, datasets: list[str], prefix: str) -> list[str]:
    """The ``datasets`` (a set of :class:`PaperBSets`) that the reading with ``prefix`` computes: all of them for
    our r, those with a printed r (``paper_reported.r``) for the paper's."""
    return _readings.with_r(_readings.by_prefix(prefix), datasets, pb["paper_reported"].get("r", {}))


def choice_file(out: str, prefix: str, dataset: str) -> str:
    """Where the r of the reading with ``prefix`` lives for ``dataset``, under ``out`` (results/paper_b): our
    tuning (rule paper_b_tune_r) or the paper's printed r (rule paper_b_paper_r)."""
    return f"{out}/{_readings.by_prefix(prefix).r_prefix}tuning/{dataset}.json"


def tables_subcategory(prefix: str) -> str:
    """The report subcategory of Tables 1-2 of the reading with ``prefix``."""
    return "Tables 1-2" + _readings.by_prefix(prefix).suffix


def readings_files(plan: dict[str, dict]) -> list[str]:
    """Every table of every reading of a :func:`readings_plan` (rule ``paper_b_comparison``'s input)."""
    return list(dict.fromkeys(f for rd in plan.values() for f in flat_files(rd["inputs"])))
