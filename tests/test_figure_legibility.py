"""Figures say what they draw: every kind of line of a sweep's error_vs_eps is in its legend (the thin per-(β, r)
lines were not), a heat map's numbers are white on dark cells and black on light ones (sigma_ratio printed black
on every cell), and Scenario 1's legend states the true count (it said "true count (0 drawn at 0.5)" where the
count was 41)."""

from __future__ import annotations

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest

from privanomaly.paper_b import plots as pb_plots
from privanomaly.sweeps import plots

matplotlib.use("Agg")


def test_error_vs_eps_puts_every_kind_of_line_in_its_legend():
    rows = [{"dataset": "d", "k": 1, "mechanism": m, "eps": e, "beta": b, "r_spec": f, "error_anomaly": err / (1 + e)}
            for (m, err), e, b, f in itertools.product((("sp", 0.1), ("optimal_dp", 0.4)), (0.5, 1.0), (5, 10),
                                                       (0.01, 0.05))]
    fig = plots.error_vs_eps(pd.DataFrame(rows))
    (legend,) = fig.legends  # one legend, under the panels
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["sp: median over (β, r)", "optimal_dp: median over (β, r)", "thin: one (β, r) of the grid",
                      "1/(1+e^ε)"]
    ax = fig.axes[0]
    assert ax.get_legend() is None  # nothing over the curves
    widths = sorted({line.get_linewidth() for line in ax.get_lines()})
    assert widths == [0.6, 0.8, 2.0]  # thin (per (β, r)), dashed bound, thick (median): three kinds, three entries
    fig.canvas.draw()
    bottom = min(t.get_window_extent().y0 for t in legend.get_texts())
    assert bottom >= 0 and ax.get_window_extent().y0 > legend.get_window_extent().y1  # all of it, under the panel


def _sigma_table(values) -> pd.DataFrame:
    rows = [{"dataset": "d", "k": k, "part": "sigma", "method": "fast", "convention": "printed", "eps": 1.0,
             "r_kind": "fraction", "r_spec": f, "skipped": "", "delta": 0.01, "ratio": v}
            for (k, f), v in zip(itertools.product((2, 3, 4), (0.05, 0.1, 0.2)), values)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("values", [np.linspace(1.0, 30.0, 9), [0.219] * 9], ids=["range", "constant"])
def test_heat_map_numbers_contrast_with_their_cell(values):
    fig = plots.sigma_ratio(_sigma_table(values))
    ax = fig.axes[0]
    (im,) = ax.get_images()
    cells = im.get_array()
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert len(texts) == 9
    for (a, b), t in texts.items():
        expected = plots.text_colour(im.to_rgba(cells[a, b]))
        assert t.get_color() == expected, (t.get_text(), t.get_color(), im.to_rgba(cells[a, b]))
    if len(set(values)) > 1:  # viridis: the smallest value is dark purple (was black text), the largest yellow
        assert texts[(0, 0)].get_color() == "white" and texts[(2, 2)].get_color() == "black"
    else:  # a constant map is drawn mid-scale (teal): black text, not the white of the norm's collapsed 0
        assert texts[(0, 0)].get_color() == "black"


@pytest.mark.parametrize("rgba, colour", [((0, 0, 0, 1), "white"), ((1, 1, 1, 1), "black"),
                                          ((0.267, 0.005, 0.329, 1), "white"), ((0.993, 0.906, 0.144, 1), "black"),
                                          ((0.020, 0.188, 0.380, 1), "white"), ((0.404, 0.0, 0.122, 1), "white")])
def test_text_colour_follows_luminance(rgba, colour):
    assert plots.text_colour(rgba) == colour  # viridis' ends, RdBu's dark ends


@pytest.mark.parametrize("counts, label", [([41, 41], "true count = 41"),
                                           ([0, 0], "true count = 0 (0 drawn at 0.5, the log axis has no 0)"),
                                           ([3, 1831], "true count 3–1,831")])
def test_scenario1_legend_states_the_true_count(counts, label):
    df = pd.DataFrame({"dataset": "mine", "method": "fast", "convention": "printed", "eps": [0.5, 1.0],
                       "sigma_global": [100.0, 50.0], "sigma_smooth": [90.0, 40.0], "ratio": [1.1, 1.25],
                       "true_count": counts})
    fig = pb_plots.plot_scenario1(df, "mine", {})
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert label in labels and "true count (0 drawn at 0.5)" not in labels
