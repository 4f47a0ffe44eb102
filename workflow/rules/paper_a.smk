# Paper A - Asif, Papakonstantinou, Vaidya, "How to Accurately and Privately Identify Anomalies" (CCS'19),
# issue 6: every figure and table from {RESULTS}/data/{dataset}.parquet, under {RESULTS}/paper_a/. Its compute
# steps (select -> records -> errors, detection, growth, figure data, claims) are in workflow/steps.yaml, its
# figures and tables in workflow/report/catalogue.yaml. `snakemake paper_a_all` builds all of it.
PA = config["paper_a"]

from privanomaly.paper_a import workflow_checks as _pa_checks

check_dataset_names(PA["datasets"], "paper_a.datasets")
check_dataset_names([PA["fig2"]["dataset"]], "paper_a.fig2.dataset")
check_dataset_names([PA["compiler"]["dataset"]], "paper_a.compiler.dataset")
_pa_checks.check_config(PA, unavailable_datasets())

# dataset sets of paper A (privanomaly.paper_a.workflow_checks.sets); the catalogue names them too
PA_SETS = _pa_checks.sets(
    PA, available_datasets(PA["datasets"]), unavailable_datasets()
)
# scale runs only (.scale/config.yaml): {dataset: "stand-in data: ..."} carried by every table/figure/claim
PA_STAND_IN = stand_in_notes(PA_SETS["paper_a.selected"])
STEP_VALUES.update(_pa_checks.step_values(PA, PA_SETS, PA_STAND_IN))
# the sets steps and catalogue items expand over ({d}) or pass as params (missing: the names)
PLAN_SETS.update(PA_SETS, **{"paper_a.missing": list(PA_SETS["paper_a.missing"])})
STEP_CONSTANTS.update(
    PA_WORK=f"{RESULTS}/paper_a/work", PA_FIG2_DATA=PA["fig2"]["dataset"]
)

for _n, _why in PA_SETS["paper_a.missing"].items():
    print(f"paper_a: {_n} left out of the tables ({_why})", file=sys.stderr)


wildcard_constraints:
    pa_dataset="[A-Za-z][A-Za-z0-9_]*",


# Every final paper-A file: the files of the catalogue's paper-A items; called by `rule all` in the Snakefile.
paper_a_targets = lambda: [
    f"{RESULTS}/{f}" for f in _catalogue.paper_files(CATALOGUE_ITEMS, "A")
]


rule paper_a_all:
    """Everything of paper A: `snakemake --cores 8 paper_a_all`."""
    input:
        paper_a_targets(),
        run_records(),
    localrule: True
