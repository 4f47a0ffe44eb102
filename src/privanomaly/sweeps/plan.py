"""The plan of the sweeps of a run (``workflow/rules/common.smk`` binds it): which configured sweeps run
on which available datasets, their targets, the sweep feeding paper A's claims, per-sweep settings. The grid
itself is :mod:`privanomaly.sweeps.spec`, its split into jobs :mod:`privanomaly.sweeps.partition`; no Snakemake here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from privanomaly.sweeps import index, partition
from privanomaly.sweeps.counts import sweep_cap
from privanomaly.sweeps.spec import Ball, GridPoint, Sweep, balls, parse_all


def grid_size(sw: Sweep) -> int:
    """Grid points of a sweep, without building its grid: datasets x β x r x k x ε (paper B: no β, x δ)."""
    n = len(sw.datasets) * max(len(sw.beta), 1) * len(sw.r_values) * len(sw.k) * len(sw.eps)
    n *= len(sw.delta) if sw.kind == "paper_b" else 1
    return int(n)


class SweepPlan:
    """The sweeps of config ``sweeps:`` with the datasets they run on in this run.

    ``check_names(names, key)`` raises on a name that is not a configured dataset; ``available(names)``
    keeps those that can be built in this run (:class:`privanomaly.datasets.plan.DataPlan`).
    """

    def __init__(self, sweeps_cfg: Mapping | None, check_names: Callable[[list, str], list],
                 available: Callable[[Iterable[str]], list[str]], max_points: int | None = None,
                 points_per_job: int | None = None):
        self.sweeps: dict[str, Sweep] = parse_all(sweeps_cfg)
        self.points_per_job = partition.DEFAULT_POINTS_PER_JOB if points_per_job is None else int(points_per_job)
        if self.points_per_job < 1:
            raise ValueError(f"config sweep_points_per_job: expected an integer >= 1, got {points_per_job!r}")
        for name, sw in self.sweeps.items():
            check_names(list(sw.datasets), f"sweeps.{name}.datasets")
            check_names([d for b in sw.batches for d in b], f"sweeps.{name}.batches")
            if max_points is not None and grid_size(sw) > max_points:
                raise ValueError(
                    f"config sweeps.{name}: its grid has {grid_size(sw):,} points, more than sweep_max_points = "
                    f"{max_points:,}; shrink its grids or raise sweep_max_points (the DAG of a sweep grows with "
                    "its points)")
        self.datasets = {n: available(list(s.datasets)) for n, s in self.sweeps.items()}
        # paper A: the datasets of each counts/chunk job (partition.dataset_batches: a batch, or one dataset)
        self.batches = {n: partition.dataset_batches(s, self.datasets[n])
                        for n, s in self.sweeps.items() if s.kind == "paper_a"}
        runs = [n for n in self.sweeps if self.datasets[n]]
        self.a = [n for n in runs if self.sweeps[n].kind == "paper_a"]  # paper-A sweeps that run
        self.b = [n for n in runs if self.sweeps[n].kind == "paper_b"]
        self.skipped = [n for n in self.sweeps if n not in runs]  # none of its datasets available

    def targets(self, out: str, names: Iterable[str] | None = None) -> list[str]:
        """Tidy table (Parquet + CSV) and figures of every sweep that runs (or of those of ``names``), under
        ``out`` (results/sweeps)."""
        files = []
        for n in (m for m in self.a + self.b if names is None or m in names):
            files += [f"{out}/{n}/sweep.parquet", f"{out}/{n}/sweep.csv"]
            files += [f"{out}/{n}/figures/{f}.{e}" for f in index.figures(self.sweeps[n]) for e in ("png", "pdf")]
        return files

    def target_rules(self) -> dict[str, str]:
        """{rule name: sweep} of the target rule of each sweep that runs: ``sweep_<name>`` builds that sweep alone
        (the config schema keeps sweep names off the workflow's own ``sweep_*`` rules)."""
        return {f"sweep_{n}": n for n in self.a + self.b}

    @staticmethod
    def figures() -> list[str]:
        """Every figure name a sweep can have (``privanomaly.sweeps.index.FIGURES``, both kinds): the values of
        rule sweep_plot's ``figure`` wildcard."""
        return list(dict.fromkeys(f for names in index.FIGURES.values() for f in names))

    def index_entries(self) -> list[dict]:
        """Rows of the "Sweeps" section of results/index.md."""
        return index.entries(self.sweeps, self.datasets)

    def cap(self, sweep: str) -> int:
        """The ball-count cap of a paper-A sweep (:func:`privanomaly.sweeps.counts.sweep_cap`, at the smallest
        ``noise_share`` of its mechanisms)."""
        from privanomaly import mechanisms  # the registry: each mechanism's noise_share

        sw = self.sweeps[sweep]
        return sweep_cap(sw.beta, sw.eps, noise_share=mechanisms.smallest_noise_share(sw.mechanisms))

    def balls(self, sweep: str) -> list[Ball]:
        """The (β, r) count tables of a paper-A sweep (:func:`privanomaly.sweeps.spec.balls`), each in its
        datasets' counts file."""
        return balls(self.sweeps[sweep])

    def chunks(self, sweep: str) -> list[tuple[str, int]]:
        """(batch, part) of every chunk of a paper-A sweep (:mod:`privanomaly.sweeps.partition`; a batch is
        a dataset, or datasets computed in the same jobs: :meth:`batch_datasets`)."""
        parts = range(len(partition.chunks(self.sweeps[sweep], self.points_per_job)))
        return [(b, p) for b in self.batches[sweep] for p in parts]

    def batch_datasets(self, sweep: str, batch: str) -> list[str]:
        """The datasets of the counts/chunk jobs of ``batch`` of a paper-A sweep, in the sweep's order."""
        try:
            return list(self.batches[sweep][batch])
        except KeyError:
            raise ValueError(f"sweep {sweep}: no job batch {batch!r} (it has {list(self.batches.get(sweep, {}))})") from None

    def chunk_points(self, sweep: str, part: int) -> list[GridPoint]:
        """The (ε, β, r, k) points of chunk ``part`` of every dataset of a paper-A sweep."""
        return partition.chunk(self.sweeps[sweep], int(part), self.points_per_job)

    def claims_sweep(self, name: str | None) -> str:
        """The paper-A sweep feeding claims A1, A3, A6, A8, A10 (config ``paper_a.claims.sweep``), "" if unset or not
        run; a name that is not a paper-A sweep is an error naming the key."""
        if name and name not in self.sweeps:
            raise ValueError(
                f"config paper_a.claims.sweep: {name!r} is not a sweep (known: {', '.join(self.sweeps) or 'none'}); "
                "name a paper_a sweep, or set paper_a.claims.sweep: null (claims A1, A3, A6, A8, A10 then read the tables)")
        if name and self.sweeps[name].kind != "paper_a":
            raise ValueError(f"config paper_a.claims.sweep: {name!r} is a {self.sweeps[name].kind} sweep; "
                             "A1, A3, A6, A8, A10 need a paper_a one")
        return name if name in self.a else ""

    def or_scenario1(self, sweep: str, key: str, scenario1: Mapping[str, Any]) -> Any:
        """Algorithm 2's feasibility guard of a paper-B sweep: its own ``key``, else paper_b.scenario1's."""
        own = getattr(self.sweeps[sweep], key)
        return scenario1[key] if own is None else own

    def run_datasets(self, sweep: str) -> list[str]:
        """The datasets ``sweep`` runs on in this run - its table's -, for the report's captions (which otherwise
        see only the configured list, unavailable datasets included)."""
        return list(self.datasets[sweep])

    def _fields(self, sweep: str, names: tuple[str, ...]) -> dict[str, Any]:
        sw = self.sweeps[sweep]
        return {n: list(v) if isinstance(v, tuple) else v for n in names for v in [getattr(sw, n)]}

    def counts_settings(self, sweep: str) -> dict[str, Any]:
        """Rule sweep_counts's settings of a paper-A sweep: its metric, absent points and ball-count cap."""
        return {**self._fields(sweep, ("metric", "n_absent")), "cap": self.cap(sweep)}

    def chunk_settings(self, sweep: str) -> dict[str, Any]:
        """Rule sweep_chunk's settings of a paper-A sweep: its mechanisms and ball-count cap."""
        return {**self._fields(sweep, ("mechanisms",)), "cap": self.cap(sweep)}

    def b_settings(self, sweep: str, scenario1: Mapping[str, Any]) -> dict[str, Any]:
        """Rule sweep_b_dataset's settings of a paper-B sweep: its grids, bounds, mechanisms and Algorithm 2's
        guard (:meth:`or_scenario1`: paper_b.scenario1's unless the sweep has one)."""
        names = ("k", "radii", "eps", "delta", "conventions", "methods", "mechanisms", "h", "subspace_dims",
                 "max_subspaces")
        return {**self._fields(sweep, names), "max_work": self.or_scenario1(sweep, "max_work", scenario1)}

    def table_settings(self, sweep: str) -> dict[str, Any]:
        """Rule sweep_collect's settings: the sweep's kind (its rows' columns) and the kind of its r."""
        return self._fields(sweep, ("kind", "r_kind"))

    def growth_points(self, name: str | None, dataset: str) -> list[Ball]:
        """The (β, r) points of the claim sweep ``name`` (:meth:`claims_sweep`) where claim A4 reads a growth
        curve of ``dataset`` (rule paper_a_growth); none when the sweep is unset or does not run on ``dataset``."""
        sweep = self.claims_sweep(name)
        if not sweep or dataset not in self.datasets[sweep]:
            return []
        sw = self.sweeps[sweep]
        return [Ball(beta=int(b), **r) for b in sw.beta for r in sw.radii]

    def claims_table(self, out: str, name: str | None) -> list[str]:
        """The tidy table of the sweep feeding claims A1, A3, A6, A8, A10 (:meth:`claims_sweep`), or none."""
        return [f"{out}/{n}/sweep.parquet" for n in [self.claims_sweep(name)] if n]


def b_estimates(plan: SweepPlan, pb: Mapping[str, Any], parquet: Callable[[str], str], expected=None) -> list[str]:
    """DAG-time outlook of rule sweep_b_dataset: one line per paper-B sweep and dataset with its estimated CPU time
    from the prepared table's shape (``parquet(dataset)``), paper B's k-free settings ``pb`` and the sweep's grids,
    summed over its (k, r) points (:func:`privanomaly.paper_b.cost.sweep_point_seconds`); a table not prepared
    yet says so. Nothing is decided by it."""
    from privanomaly.paper_b import cost, scenario1
    from privanomaly.paper_b.released_bound import known_shape

    out = []
    for name in plan.b:
        s = plan.b_settings(name, pb["scenario1"])
        s = {**s, "max_work": None if s["max_work"] is None else int(s["max_work"])}
        deltas = list(s["delta"]) if isinstance(s["delta"], (list, tuple)) else [s["delta"]]
        for d in plan.run_datasets(name):
            shape, note = known_shape(parquet(d), d, expected)
            if shape is None:
                out.append(f"sweep {name} {d}: estimated once its table is prepared")
                continue
            total: float | None = 0.0
            for k in (int(x) for x in s["k"]):
                betas = sorted({b for dl in deltas for b in scenario1.scenario1_betas(*shape, k, list(s["eps"]), dl,
                                                                                      list(s["conventions"]))})
                for radius in s["radii"]:
                    point = cost.sweep_point_seconds(*shape, k, s, betas, radius["r_kind"] != "value")
                    total = None if total is None or point is None else total + point
            n = len(s["k"]) * len(s["radii"])
            out.append(f"sweep {name} {d}: " + cost.say(total, f"{n} (k, r) points, N = {shape[0]:,}, d = {shape[1]}")
                       + note)
    return out
