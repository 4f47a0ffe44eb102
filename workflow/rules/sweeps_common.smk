# Helpers of sweeps.smk (issue 14), included by it: constants and functions only (the linter wants
# functions apart from rules). Parsing and grids: privanomaly.sweeps.spec.
from snakemake.utils import Paramspace

from privanomaly.sweeps import spec as _sw_spec
from privanomaly.sweeps.counts import sweep_cap as _sweep_cap

SW_OUT = f"{RESULTS}/sweeps"
SW_CAPTION = "../report/sweep_{}.rst"
SWEEPS = _sw_spec.parse_all(config.get("sweeps"))
for _name, _sw in SWEEPS.items():
    check_dataset_names(list(_sw.datasets), f"sweeps.{_name}.datasets")
SW_DATASETS = {n: available_datasets(list(s.datasets)) for n, s in SWEEPS.items()}
SW_A = [n for n, s in SWEEPS.items() if s.kind == "paper_a" and SW_DATASETS[n]]
SW_B = [n for n, s in SWEEPS.items() if s.kind == "paper_b" and SW_DATASETS[n]]
SW_POINTS = {
    n: Paramspace(_sw_spec.point_grid(SWEEPS[n], SW_DATASETS[n])) for n in SW_A
}
SW_BPOINTS = {n: Paramspace(_sw_spec.b_grid(SWEEPS[n], SW_DATASETS[n])) for n in SW_B}
# dataset~{dataset}/beta~{beta}/r~{r}/k~{k}/eps~{eps} and dataset~{dataset}/k~{k}/r~{r}
SW_POINT_PATTERN = Paramspace(_sw_spec.point_grid(None, [])).wildcard_pattern
SW_BPOINT_PATTERN = Paramspace(_sw_spec.b_grid(None, [])).wildcard_pattern
for _name in SWEEPS:
    if _name not in SW_A + SW_B:
        print(
            f"sweeps: {_name} skipped (none of its datasets is available)",
            file=sys.stderr,
        )


def sweep_datasets(sweep):
    return SW_DATASETS[sweep]


def sweep_point_files(wc):
    """Every point file of a sweep (paper A: one per grid point; paper B: one per dataset x k x r)."""
    if wc.sweep in SW_POINTS:
        return expand(
            f"{SW_OUT}/{wc.sweep}/points/{{p}}.parquet",
            p=SW_POINTS[wc.sweep].instance_patterns,
        )
    return expand(
        f"{SW_OUT}/{wc.sweep}/bpoints/{{p}}.parquet",
        p=SW_BPOINTS[wc.sweep].instance_patterns,
    )


def sweep_counts_file(wc):
    key = _sw_spec.ball_key(SWEEPS[wc.sweep], wc.beta, wc.r)
    return f"{SW_OUT}/{wc.sweep}/counts/{wc.dataset}/{key}.parquet"


def sweep_cap(sweep):
    s = SWEEPS[sweep]
    return _sweep_cap(s.beta, s.eps)


def sweep_targets():
    """Tidy table and figures of every sweep with at least one available dataset."""
    out = []
    for n in SW_A + SW_B:
        figs = ["error_vs_eps", "gain"] if n in SW_A else ["sigma_ratio", "top_h"]
        out += [f"{SW_OUT}/{n}/sweep.parquet", f"{SW_OUT}/{n}/sweep.csv"]
        out += [f"{SW_OUT}/{n}/figures/{f}.{e}" for f in figs for e in ("png", "pdf")]
    return out


def sweep_index_entries():
    """Rows of the "Sweeps" section of results/index.md (privanomaly.sweeps.index)."""
    from privanomaly.sweeps import index as _sw_index

    return _sw_index.entries(SWEEPS, SW_DATASETS)


def claims_sweep_name():
    """The paper-A sweep feeding claims A3, A6, A8 (`paper_a.claims.sweep`), or "" if unset or not run."""
    name = config["paper_a"].get("claims", {}).get("sweep")
    if name and name not in SWEEPS:
        raise ValueError(
            f"config paper_a.claims.sweep: {name!r} is not a sweep (known: {', '.join(SWEEPS) or 'none'})"
        )
    if name and SWEEPS[name].kind != "paper_a":
        raise ValueError(
            f"config paper_a.claims.sweep: {name!r} is a {SWEEPS[name].kind} sweep; A3, A6, A8 need a paper_a one"
        )
    return name if name in SW_A else ""


def claims_sweep_table():
    name = claims_sweep_name()
    return [f"{SW_OUT}/{name}/sweep.parquet"] if name else []


def sweep_or_scenario1(sweep, key):
    """Algorithm 2's feasibility guard of a paper-B sweep: its own `key`, else paper_b.scenario1's."""
    own = getattr(SWEEPS[sweep], key)
    return config["paper_b"]["scenario1"][key] if own is None else own
