# Helpers of sweeps.smk (issue 14), included by it: constants and functions only (the linter wants
# functions apart from rules). The plan: privanomaly.sweeps.plan.SweepPlan; grids: privanomaly.sweeps.spec.
from snakemake.utils import Paramspace

from privanomaly.sweeps import spec as _sw_spec
from privanomaly.sweeps.plan import SweepPlan

SW_OUT = f"{RESULTS}/sweeps"
SW_CAPTION = "../report/sweep_{}.rst"
SW = SweepPlan(config.get("sweeps"), check_dataset_names, available_datasets)
SWEEPS, SW_A, SW_B = SW.sweeps, SW.a, SW.b
SW_POINTS = {
    n: Paramspace(_sw_spec.point_grid(SWEEPS[n], SW.datasets[n])) for n in SW_A
}
SW_BPOINTS = {n: Paramspace(_sw_spec.b_grid(SWEEPS[n], SW.datasets[n])) for n in SW_B}
# dataset~{dataset}/beta~{beta}/r~{r}/k~{k}/eps~{eps} and dataset~{dataset}/k~{k}/r~{r}
SW_POINT_PATTERN = Paramspace(_sw_spec.point_grid(None, [])).wildcard_pattern
SW_BPOINT_PATTERN = Paramspace(_sw_spec.b_grid(None, [])).wildcard_pattern
for _name in SW.skipped:
    print(
        f"sweeps: {_name} skipped (none of its datasets is available)", file=sys.stderr
    )
sweep_targets = lambda: SW.targets(SW_OUT)
sweep_index_entries, sweep_cap = SW.index_entries, SW.cap
sweep_counts_file = lambda wc: SW.counts_file(
    SW_OUT, wc.sweep, wc.dataset, wc.beta, wc.r
)
claims_sweep_name = lambda: SW.claims_sweep(
    config["paper_a"].get("claims", {}).get("sweep")
)
claims_sweep_table = lambda: [
    f"{SW_OUT}/{n}/sweep.parquet" for n in [claims_sweep_name()] if n
]
sweep_or_scenario1 = lambda s, key: SW.or_scenario1(
    s, key, config["paper_b"]["scenario1"]
)


def sweep_point_files(wc):
    """Every point file of a sweep (paper A: one per grid point; paper B: one per dataset x k x r)."""
    a = wc.sweep in SW_POINTS
    space = (SW_POINTS if a else SW_BPOINTS)[wc.sweep]
    where = "points" if a else "bpoints"
    return expand(
        f"{SW_OUT}/{wc.sweep}/{where}/{{p}}.parquet", p=space.instance_patterns
    )
