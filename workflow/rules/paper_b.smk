# Paper B - Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers" (issue 7): every
# figure and table from {RESULTS}/data/{dataset}.parquet, under {RESULTS}/paper_b/. Its compute steps (tune r,
# tables, figure data, scenarios 1-2, timing, comparison) are in workflow/steps.yaml, its figures in the
# catalogue. Readings (issue 18): each variant (paper's r, printed exponent) writes the same files under
# {RESULTS}/paper_b/<reading>/ - wildcard pb_reading is that prefix ("" = ours).
PB = config["paper_b"]

from privanomaly.paper_b import readings as _pb_readings
from privanomaly.paper_b import workflow as _pb_wf

_pb_wf.check_config(PB)
check_dataset_names(list(PB["datasets"]), "paper_b.datasets")
# the dataset/method sets the catalogue's paper-B items expand over (privanomaly.paper_b.workflow.sets)
PB_SETS = _pb_wf.sets(PB, available_datasets(list(PB["datasets"])))
PB_METHOD_REGEX = (
    "paper|fast"  # the smooth bounds a Scenario-1 table or figure is computed with
)
PB_READINGS = [_pb_readings.OURS, *_pb_readings.variants(list(PB.get("readings", [])))]
STEP_CONSTANTS.update(PB_OUT=f"{RESULTS}/paper_b")
STEP_CONSTANTS.update(PB_PAPER_R_PREFIX=_pb_readings.R_PREFIX["paper"])
STEP_VALUES.update(_pb_wf.step_values(PB, PB_SETS, RESULTS, f"{RESULTS}/paper_b"))
PLAN_SETS.update(PB_SETS)

# Every final paper-B file: the catalogue's paper-B items over PB_SETS; called by `rule all` in the Snakefile.
paper_b_targets = lambda: [
    f"{RESULTS}/{f}" for f in _catalogue.paper_files(CATALOGUE_ITEMS, "B", PB_SETS)
]


wildcard_constraints:
    pb_dataset="[A-Za-z][A-Za-z0-9_]*",
    pb_method=PB_METHOD_REGEX,
    pb_reading=_pb_readings.regex(PB_READINGS),


rule paper_b_all:
    """Everything of paper B from the data: `snakemake --cores 2 paper_b_all`."""
    input:
        paper_b_targets(),
        run_records(),
    localrule: True
