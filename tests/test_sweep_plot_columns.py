"""A sweep figure reads its tidy table through ``privanomaly.sweeps.plots.read_sweep``: a table that lacks a
column the figure reads by name is an error naming the file and the column (not a ``KeyError`` in the plot), and
a paper-B table whose top-h or σ cells were all skipped (no ``precision`` / ``ratio`` columns) still draws."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from privanomaly.sweeps import index, plots

PAPER_A = pd.DataFrame({
    "sweep": "s", "dataset": "d", "beta": [2, 2, 2, 2], "r_kind": "fraction", "r_spec": 0.1, "r": 0.5, "k": 1,
    "eps": 1.0, "mechanism": ["sp", "optimal_dp", "sp", "optimal_dp"], "error_anomaly": [0.1, 0.3, 0.1, 0.3],
    "error_absent_void": [0.0, 0.2, 0.0, 0.2],
}).iloc[:2]


def test_every_listed_figure_is_a_figure():
    assert set(plots.COLUMNS) <= set(plots.FIGURES)
    assert {f for figs in index.FIGURES.values() for f in figs} <= set(plots.FIGURES)


def test_a_table_without_a_read_column_names_the_file_and_the_column(tmp_path):
    path = tmp_path / "sweep.parquet"
    PAPER_A.drop(columns="error_anomaly").to_parquet(path)
    with pytest.raises(ValueError, match=r"sweep\.parquet: no column 'error_anomaly'.*sweep_collect"):
        plots.read_sweep(path, "error_vs_eps")


def test_a_complete_table_draws(tmp_path):
    path = tmp_path / "sweep.parquet"
    PAPER_A.to_parquet(path)
    for name in ("error_vs_eps", "gain"):
        table = plots.read_sweep(path, name)
        assert len(table) == 2
        plt.close(plots.FIGURES[name](table))


def test_a_figure_without_listed_columns_reads_any_table(tmp_path):
    path = tmp_path / "sweep.parquet"
    PAPER_A.to_parquet(path)
    assert list(plots.read_sweep(path, "not_listed").columns) == list(PAPER_A.columns)


def test_paper_b_table_with_every_top_h_cell_skipped_draws(tmp_path):
    t = pd.DataFrame({"sweep": "s", "dataset": "d", "k": 3, "r_kind": "value", "r_spec": 0.2, "r": 0.2,
                      "part": ["sigma", "top_h"], "method": ["fast", None], "convention": ["printed", None],
                      "eps": [0.5, 0.5], "skipped": ["fast: too costly", "h = 2 >= 1 subspaces"],
                      "subspace_dim": [None, 1.0], "h": [None, 2.0]})
    path = tmp_path / "sweep.parquet"
    t.to_parquet(path)
    for name in ("sigma_ratio", "top_h"):
        fig = plots.FIGURES[name](plots.read_sweep(path, name))
        assert "no " in fig.axes[0].texts[0].get_text()  # "no σ cell" / "no top-h cell in this sweep"
        plt.close(fig)
