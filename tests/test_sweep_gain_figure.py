"""A paper-A sweep's `gain` figure compares SP with the sweep's other mechanisms: it is planned only when the sweep
has SP and another mechanism (else it would be an empty figure in the report), and it draws the void-point row
only for datasets that have absent query points (n_absent > 0)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import seeding
from privanomaly.sweeps import chunks, counts, index, partition, plots, spec
from privanomaly.sweeps.plan import SweepPlan


def _sweep(mechanisms, n_absent=5):
    return {"kind": "paper_a", "datasets": ["d"], "mechanisms": mechanisms, "eps": [0.5, 1.0], "k": [1],
            "beta": [1, 2], "r": {"value": [1.0, 2.0]}, "n_absent": n_absent}


@pytest.mark.parametrize("mechanisms, planned", [
    (["sp", "optimal_dp"], True),
    (["optimal_dp", "sp", "laplace_count"], True),
    (["sp"], False),  # nothing to compare SP with
    (["optimal_dp", "laplace_count"], False),  # no SP: no SP gain
])
def test_gain_is_planned_only_with_sp_and_another_mechanism(mechanisms, planned):
    sw = spec.parse("s", _sweep(mechanisms))
    assert ("gain" in index.figures(sw)) is planned
    assert "error_vs_eps" in index.figures(sw)
    plan = SweepPlan({"s": _sweep(mechanisms)}, lambda names, key: names, lambda names: list(names))
    gain_files = [f for f in plan.targets("out") if "/figures/gain." in f]
    assert gain_files == (["out/s/figures/gain.png", "out/s/figures/gain.pdf"] if planned else [])
    entry = index.entries(plan.sweeps, plan.datasets)[0]
    assert ("sweeps/s/figures/gain.png" in entry["files"]) is planned


def _table(n_absent):
    X = np.array([[0, 0], [0, 0], [0, 1], [1, 0], [1, 1], [5, 5], [9, 0], [9, 0], [12, 12]], dtype=float)
    y = np.zeros(len(X), np.int8)
    y[[5, 8]] = 1
    mechs = ["sp", "optimal_dp", "laplace_count"]
    sw = spec.parse("s", _sweep(mechs, n_absent))
    cap = counts.sweep_cap(sw.beta, sw.eps)
    absent = counts.absent_points(X, sw.n_absent, seeding.rng(0, "sweep_counts", "s", "d"))
    table = chunks.count_tables("d", X, y, spec.balls(sw), sw.metric, cap, absent)
    return pd.concat([chunks.chunk_rows(table, "d", pts, mechs, cap) for pts in partition.chunks(sw, 128)],
                     ignore_index=True)


def _heat_map_titles(fig):
    return [ax.get_title() for ax in fig.axes if ax.images]


def test_gain_without_absent_points_draws_no_void_row():
    fig = plots.gain(_table(0))
    titles = _heat_map_titles(fig)
    assert titles == ["d, anomalies:\noptimal_dp − sp", "d, anomalies:\nlaplace_count − sp"]
    assert len(fig.axes) == 2 * len(titles)  # each heat map and its colour bar, no empty panel


def test_gain_with_absent_points_draws_the_void_row_with_its_values():
    t = _table(5)
    fig = plots.gain(t)
    titles = _heat_map_titles(fig)
    assert titles == ["d, anomalies:\noptimal_dp − sp", "d, anomalies:\nlaplace_count − sp",
                      "d, absent void points:\noptimal_dp − sp", "d, absent void points:\nlaplace_count − sp"]
    void = [np.asarray(ax.images[0].get_array(), dtype=float) for ax in fig.axes if ax.images][2]
    at = t[(t["eps"] == 1.0) & (t["k"] == 1)].pivot_table(index="beta", columns=["mechanism", "r_spec"],
                                                           values="error_absent_void")
    np.testing.assert_array_equal(void, (at["optimal_dp"] - at["sp"]).to_numpy())
