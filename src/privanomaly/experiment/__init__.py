"""The experiment core both papers share: reading a prepared dataset and a rule's chosen parameters
(:mod:`.inputs`), and the one verdict record every claims/comparison file, the index and the report use
(:mod:`.verdict`)."""

from privanomaly.experiment.inputs import (
    Dataset, column_error, concat, load_dataset, read_choice, read_csv, read_json, read_output, read_table,
    split_frame,
)
from privanomaly.experiment.verdict import DIFFERS, FAIL, MATCH, NA, PASS, VERDICTS, Verdict, count, number, to_frame

__all__ = [
    "Dataset", "column_error", "concat", "load_dataset", "read_choice", "read_csv", "read_json", "read_output", "read_table",
    "split_frame",
    "DIFFERS", "FAIL", "MATCH", "NA", "PASS", "VERDICTS", "Verdict", "count", "number", "to_frame",
]
