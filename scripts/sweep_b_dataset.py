"""Rule sweep_b_dataset: paper B on one dataset at every (k, r) - sigma_Global vs sigma_Smooth, top-h P/R."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.privacy import scope
from privanomaly.sweeps import sigma

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    prov = scope.read_provenance(snakemake.input.provenance)
    # the safety timeout is not a param (rule sweep_b_dataset): it fails the job, never changes the rows
    # p.settings: privanomaly.sweeps.plan.SweepPlan.b_settings
    settings = {**dict(p.items()), **p.settings,
                "timeout": snakemake.config["paper_b"]["scenario1"].get("timeout_seconds"),
                # the key a skipped Algorithm-2 cell tells to raise: the sweep's own (its default is scenario1's)
                "guard_key": f"sweeps.{snakemake.wildcards.sweep}.max_work"}
    try:
        rows = sigma.dataset_rows(X, y, snakemake.wildcards.dataset, settings["k"], settings["radii"], settings,
                                  prov, log)
    except ValueError as exc:  # e.g. a k the dataset has too few records for: name the sweep
        raise ValueError(f"config sweeps.{snakemake.wildcards.sweep}: {exc}") from exc
    log.info("%s: %d rows", snakemake.wildcards.dataset, len(rows))
    io.write_table(rows, snakemake.output.rows)
