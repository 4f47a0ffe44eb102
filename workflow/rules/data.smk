# Data layer (issue 3): raw files -> results/data/{dataset}.parquet (+ .json provenance) -> summary. Its steps
# (download, prepare, data_summary) are in workflow/steps.yaml; the plan is privanomaly.plan.DataPlan.
for _name, _entry in config["datasets"].items():
    check_dataset_entry(_name, _entry)

print(PLAN.mirror_notice(), file=sys.stderr)
for _name, _why in unavailable_datasets().items():
    print(f"{_name}: {_why}", file=sys.stderr)


# A run killed mid-write (SIGKILL, power loss) leaves hidden temporary files (privanomaly.io.atomic_path:
# `.<name>.<host>-<pid>.*.tmp*`), e.g. a mirror copy as large as the file. The next run removes those of dead
# processes on this machine - never those of a live concurrent run sharing resources_dir.
onstart:
    from privanomaly.io import remove_stale_temporaries

    for _root in (RESULTS, f"{RESOURCES}/raw"):
        for _p in remove_stale_temporaries(_root):
            print(f"removed {_p} (left by a killed run)", file=sys.stderr)
