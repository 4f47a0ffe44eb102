# Helpers of sweeps.smk (issue 14), included by it: constants and functions only (the linter wants
# functions apart from rules). The plan: privanomaly.sweeps.plan.SweepPlan; grids: privanomaly.sweeps.spec.
from snakemake.utils import Paramspace

from privanomaly.sweeps import spec as _sw_spec
from privanomaly.sweeps.plan import SweepPlan

SW_OUT = f"{RESULTS}/sweeps"
SW = SweepPlan(
    config.get("sweeps"),
    check_dataset_names,
    available_datasets,
    config.get("sweep_max_points"),
)
SW_SPACES = {
    n: Paramspace(_sw_spec.point_grid(SW.sweeps[n], SW.datasets[n])) for n in SW.a
}
SW_SPACES.update(
    {n: Paramspace(_sw_spec.b_grid(SW.sweeps[n], SW.datasets[n])) for n in SW.b}
)
for _name in SW.skipped:
    print(
        f"sweeps: {_name} skipped (none of its datasets is available)", file=sys.stderr
    )
sweep_targets = lambda: SW.targets(SW_OUT)
STEP_VALUES.update(
    SW.step_values(SW_OUT, PB["scenario1"], PA.get("claims", {}).get("sweep"))
)
# dataset~{dataset}/beta~{beta}/r~{r}/k~{k}/eps~{eps} and dataset~{dataset}/k~{k}/r~{r}
STEP_CONSTANTS.update(
    SW_OUT=SW_OUT,
    SW_POINT_PATTERN=Paramspace(_sw_spec.point_grid(None, [])).wildcard_pattern,
    SW_BPOINT_PATTERN=Paramspace(_sw_spec.b_grid(None, [])).wildcard_pattern,
)


def sweep_point_files(wc):
    """Every point file of a sweep (paper A: one per grid point; paper B: one per dataset x k x r)."""
    where = "points" if wc.sweep in SW.a else "bpoints"
    return expand(
        f"{SW_OUT}/{wc.sweep}/{where}/{{p}}.parquet",
        p=SW_SPACES[wc.sweep].instance_patterns,
    )


STEP_VALUES["sweeps.point_files"] = sweep_point_files
