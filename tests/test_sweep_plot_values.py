"""A sweep figure shows the rows of its tidy table, read back from the figure's data (the image arrays of its
heat maps), never an aggregate of rows that are different quantities: σ_Global / σ_Smooth of one noise
convention (paper B's Theorems 1-2 as one reading), SP's gain at one ε."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import seeding
from privanomaly.sweeps import chunks, counts, partition, plots, sigma, spec

B_SETTINGS = {"eps": [0.5, 1.0], "delta": 0.01, "methods": ["fast"], "h": [], "subspace_dims": [],
              "max_subspaces": 10, "max_work": None, "fast_exact_max": 64, "timeout": None,
              "true_subspace": {"rule": "labelled_outlier", "min_outliers": 1}, "sensitivity": 1.0}


def _line():
    x = np.array([0, 1, 1, 2, 3, 5, 6, 6, 6, 9, 12, 12.5, 20], dtype=float)
    y = np.zeros(len(x), int)
    y[[9, 12]] = 1
    return x[:, None], y


def _heat_maps(fig):
    return [(ax.get_title(), np.asarray(ax.images[0].get_array(), dtype=float)) for ax in fig.axes if ax.images]


@pytest.mark.parametrize("conventions, shown", [(["local_theorem1", "alpha_without_5"], "alpha_without_5"),
                                                (["alpha_without_5", "printed"], "printed")])
def test_sigma_ratio_shows_one_conventions_rows(conventions, shown):
    X, y = _line()
    t = sigma.dataset_rows(X, y, "line", [1, 2], spec.radii("value", [1, 0.5]),
                           {**B_SETTINGS, "conventions": conventions}, None)
    t = t.sort_values(["convention"], kind="mergesort")  # as sweeps.collect orders them
    ratios = t.pivot_table(index=["convention", "k", "eps"], columns="r_spec", values="ratio")
    assert not np.allclose(ratios.xs(conventions[0]), ratios.xs(conventions[1]))  # the readings differ
    fig = plots.sigma_ratio(t)
    assert f"(convention {shown})" in fig._suptitle.get_text()
    want = t[(t["convention"] == shown) & (t["eps"] == 1.0)]
    maps = _heat_maps(fig)
    assert len(maps) == 2  # the GS lower and upper bound's ratio, one smooth bound, one dataset
    for (title, M), col in zip(maps, ("ratio", "ratio_upper")):
        expect = want.pivot(index="k", columns="r_spec", values=col).to_numpy(dtype=float)
        np.testing.assert_array_equal(M, expect, err_msg=title)


def test_gain_at_a_tiny_reference_eps_uses_that_eps_only():
    """ε values below 1e-8 apart are distinct grid points: the gain panel is drawn at the reference ε alone."""
    X = np.array([[0, 0], [0, 0], [0, 1], [1, 0], [1, 1], [5, 5], [9, 0], [9, 0], [12, 12]], dtype=float)
    y = np.zeros(len(X), np.int8)
    y[[5, 8]] = 1
    mechs = ["sp", "laplace_count"]
    sw = spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": mechs, "eps": [2e-9, 5e-9],
                          "k": [1], "beta": [1, 2], "r": {"value": [1.0, 2.0]}, "n_absent": 5})
    cap = counts.sweep_cap(sw.beta, sw.eps)
    absent = counts.absent_points(X, sw.n_absent, seeding.rng(0, "sweep_counts", "s", "d"))
    table = chunks.count_tables("d", X, y, spec.balls(sw), sw.metric, cap, absent)
    t = pd.concat([chunks.chunk_rows(table, "d", pts, mechs, cap) for pts in partition.chunks(sw, 128)],
                  ignore_index=True)
    fig = plots.gain(t)
    at = t[t["eps"] == 5e-9]
    maps = _heat_maps(fig)
    assert len(maps) == 2
    for (title, M), col in zip(maps, ("error_anomaly", "error_absent_void")):
        o = at[at["mechanism"] == "laplace_count"].pivot(index="beta", columns="r_spec", values=col)
        s = at[at["mechanism"] == "sp"].pivot(index="beta", columns="r_spec", values=col)
        np.testing.assert_array_equal(np.ma.filled(np.ma.masked_invalid(M), np.nan), (o - s).to_numpy(dtype=float),
                                      err_msg=title)


def test_gain_labels_two_close_radii_apart():
    X = np.array([[0, 0], [0, 0], [0, 1], [1, 0], [1, 1], [5, 5], [9, 0], [9, 0], [12, 12]], dtype=float)
    y = np.zeros(len(X), np.int8)
    mechs = ["sp", "optimal_dp"]
    sw = spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": mechs, "eps": [1.0], "k": [1],
                          "beta": [2], "r": {"value": [1.0000001, 1.0000002]}, "n_absent": 0})
    cap = counts.sweep_cap(sw.beta, sw.eps)
    table = chunks.count_tables("d", X, y, spec.balls(sw), sw.metric, cap, np.zeros((0, 2)))
    t = chunks.chunk_rows(table, "d", partition.chunks(sw, 128)[0], mechs, cap)
    ax = next(ax for ax in plots.gain(t).axes if ax.images)
    assert [tl.get_text() for tl in ax.get_xticklabels()] == ["r = 1.0000001", "r = 1.0000002"]


def test_top_h_names_every_line_by_its_h_and_its_k_r_point():
    """Each line of the top-h figure is one (h, k, r) cell of the table and the legend says which: h as the
    integer it is (the tidy table stores h as a float beside NaN rows: "h = 1", never "h = 1.0"), and each
    (k, r) point its own line style named "k = .., r = ..", with the drawn values those of the table."""
    x, y = _line()
    X = np.hstack([x, x[::-1], (x * 7) % 5])  # three 1-D subspaces: h = 1, 2 are both below their number
    t = sigma.dataset_rows(X, y, "line", [1, 2], spec.radii("value", [1, 0.5]),
                           {**B_SETTINGS, "conventions": ["printed"], "h": [1, 2], "subspace_dims": [1],
                            "max_subspaces": 10}, None)
    t = pd.concat([t, t.iloc[:0]])  # the collected table's dtypes: h float (sigma rows have none)
    assert t["h"].dtype == float
    fig = plots.top_h(t)
    ax = fig.axes[0]
    labels = [x.get_text() for x in ax.get_legend().get_texts()]
    assert "h = 1" in labels and "h = 2" in labels and not any(x.endswith(".0") for x in labels)
    points = [f"k = {k}, r = {r}" for k in (1, 2) for r in ("1", "0.5")]
    assert all(p in labels for p in points), labels
    # one line per (h, k, r), its style shared by the (k, r) point in every panel, its values the table's
    top = t[(t["part"] == "top_h") & (t["skipped"].fillna("") == "")]
    styles = {}
    for line in ax.get_lines():
        gid = line.get_gid()
        if gid is None:
            continue
        h, k, r = gid.split("|")
        cell = top[(top["h"] == float(h)) & (top["k"] == int(k)) & (top["r_spec"] == float(r))].sort_values("eps")
        np.testing.assert_array_equal(line.get_ydata(), cell["precision"].to_numpy())
        styles.setdefault((k, r), set()).add((line.get_linestyle(), line.get_marker()))
    assert len(styles) == 4 and all(len(s) == 1 for s in styles.values())
    assert len({next(iter(s)) for s in styles.values()}) == 4  # four points, four styles


@pytest.mark.slow
def test_sigma_ratio_says_where_a_smooth_bound_has_no_cell():
    """A smooth bound whose cells are all `skipped` (Algorithm 2 past its work guard) keeps its panel, saying so
    with the table's reason: the caption lists every bound of the sweep, so one cannot silently vanish."""
    X, y = _line()
    t = sigma.dataset_rows(X, y, "line", [1, 2], spec.radii("value", [1, 0.5]),
                           {**B_SETTINGS, "conventions": ["printed"], "methods": ["paper", "fast"], "max_work": 0},
                           None)
    paper = t[t["method"] == "paper"]
    assert len(paper) and paper["skipped"].str.startswith("paper: ").all()  # every Algorithm-2 cell skipped
    fig = plots.sigma_ratio(t)
    assert len(_heat_maps(fig)) == 2  # the fast bound's two ratios
    said = [x.get_text() for ax in fig.axes if ax.get_visible() for x in ax.texts if not ax.images]
    assert any("line, paper bound: no cell at ε = 1" in x and "skipped" in x and "Algorithm 2" in x for x in said), said


def test_a_skipped_sweep_cell_names_the_sweeps_own_work_guard():
    """Past the work guard, a sweep's Algorithm-2 cells say which key to raise: the sweep's ``max_work`` (its
    own, or paper_b.scenario1's by default) - raising paper_b.scenario1.max_work does nothing for a sweep that
    sets its own, as config.yaml's paperBkR does."""
    X, y = _line()
    t = sigma.dataset_rows(X, y, "line", [1], spec.radii("value", [1]),
                           {**B_SETTINGS, "conventions": ["printed"], "methods": ["paper"], "max_work": 0,
                            "guard_key": "sweeps.mySweep.max_work"}, None)
    why = set(t["skipped"])
    assert len(why) == 1 and "raise sweeps.mySweep.max_work" in why.pop()
    assert not t["skipped"].str.contains("raise paper_b.scenario1.max_work").any()
