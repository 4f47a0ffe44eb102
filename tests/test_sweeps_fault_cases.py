"""Fault cases a researcher hits with a sweep, each a clear error naming what was asked and what was expected
(or a correct result): paper B's k larger than a dataset allows when r is read off the data, and a sweep
description spread over several lines in results/index.md."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly.sweeps import counts, index, sigma, spec


def _xy(n: int = 6):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 2)), np.zeros(n, np.int8)


@pytest.mark.parametrize("r_kind", ["fraction", "quantile"])
def test_paper_b_k_too_large_for_the_data_names_k_not_beta(r_kind):
    X, _ = _xy(6)
    with pytest.raises(ValueError) as exc:
        counts.resolve_r_paper_b(X, r_kind, 0.5, 6)
    msg = str(exc.value)
    assert "k = 6" in msg and "(k+1)-NN" in msg and "7 records" in msg and "has 6" in msg
    assert "β" not in msg  # paper B has no β: the user set k


def test_paper_b_k_too_large_works_with_an_absolute_r():
    """With r given as a value nothing is read off the (k+1)-NN distances: k >= N is a legitimate point
    (every record has fewer than k others, so all N are outliers)."""
    X, y = _xy(6)
    s = {"eps": [1.0], "delta": 0.01, "conventions": ["printed"], "methods": ["fast"], "h": [], "subspace_dims": [],
         "max_subspaces": 100, "max_work": 1000, "fast_exact_max": 1000, "timeout": None,
         "true_subspace": {"rule": "labelled_outlier", "min_outliers": 1}, "sensitivity": 1.0}
    rows = sigma.dataset_rows(X, y, "d", [6], spec.radii("value", [0.5]), s, None)
    assert rows["true_count"].tolist() == [6.0]


def test_dataset_rows_names_the_dataset_when_k_is_too_large():
    X, y = _xy(6)
    with pytest.raises(ValueError, match=r"dataset d \(6 records\).*k = 6"):
        sigma.dataset_rows(X, y, "d", [6], spec.radii("fraction", [0.1]), {}, None)


def test_a_description_over_several_lines_stays_one_row_of_the_index():
    sw = spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": ["sp"], "eps": [1.0], "k": [1],
                          "beta": [2], "r": {"value": [1.0]}, "description": "first line\nsecond | line\n"})
    text = index.render(index.entries({"s": sw}, {"s": ["d"]}))
    rows = [line for line in text.splitlines() if line.startswith("| `s`")]
    assert len(rows) == 1 and "first line second \\| line |" in rows[0]


def test_the_sweep_report_rules_know_the_datasets_their_table_has():
    """A sweep listing an unavailable dataset runs on the others: its table and figure rules carry those (param
    ``datasets``), so their captions can state the table's datasets rather than the configured list."""
    import re
    from pathlib import Path

    from privanomaly.sweeps.plan import SweepPlan

    cfg = {"a": {"kind": "paper_a", "datasets": ["gone", "thyroid"], "mechanisms": ["sp"], "eps": [1.0], "k": [1],
                 "beta": [5], "r": {"fraction": [0.05]}}}
    plan = SweepPlan(cfg, lambda names, key: names, lambda names: [n for n in names if n != "gone"])
    assert plan.run_datasets("a") == ["thyroid"]
    smk = (Path(__file__).resolve().parents[1] / "workflow" / "rules" / "sweeps.smk").read_text()
    for rule in ("sweep_collect", "sweep_plot"):
        block = re.search(rf"rule {rule}:(.*?)(?=\nrule |\Z)", smk, re.S).group(1)
        assert "datasets=get_sweep_datasets," in block, rule


def test_a_paper_b_radius_of_zero_is_refused_before_the_dag():
    """Paper B's outlier count needs r > 0 (it raised "radius r must be > 0" inside the job, after the DAG);
    paper A's r = 0 is a valid ball (the record's own copies) and stays allowed."""
    base = {"kind": "paper_b", "datasets": ["d"], "eps": [1.0], "k": [2]}
    with pytest.raises(ValueError, match=r"sweeps\.s\.r\.value: paper B's radius must be > 0.*\[0\.0, 1\.0\]"):
        spec.parse("s", {**base, "r": {"value": [0.0, 1.0]}})
    assert spec.parse("s", {**base, "r": {"value": [0.5]}}).r_values == (0.5,)
    a = spec.parse("a", {"kind": "paper_a", "datasets": ["d"], "mechanisms": ["sp"], "eps": [1.0], "k": [1],
                         "beta": [2], "r": {"value": [0.0]}})
    assert a.r_values == (0.0,)


def test_grid_values_are_stated_in_full_in_the_scope_columns_and_the_index():
    """Two grid values that agree to six digits are two points: the rows' scope text and index.md state each
    as the config gives it (format :g made 0.1234567 and 0.1234568 both "0.123457")."""
    from privanomaly.privacy import scope

    assert scope.sweep_r("value", 0.1234567).public_inputs == ("r = 0.1234567 (config)",)
    assert scope.sweep_r("value", 2.0).public_inputs == ("r = 2 (config)",)
    assert "0.0123456789" in scope.sweep_r("fraction", 0.0123456789).data_dependent[0]
    sw = spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": ["sp"], "eps": [0.1234567, 0.1234568],
                          "k": [1], "beta": [2], "r": {"value": [1.0000001, 1.0000002]}})
    line = index.grid_summary(sw, ["d"])
    assert "ε ∈ {0.1234567, 0.1234568}" in line and "r (value) ∈ {1.0000001, 1.0000002}" in line
