"""A paper-B sweep names registered count mechanisms (``mechanisms:``), as a paper-A sweep does: one
``part = mechanism`` row per (k, r, ε) and mechanism with the standard deviation of the noise its exact law adds
to q_count and the claim it states at that ε (claim_eps, claim_delta, claim_proven), drawn as ``noise_vs_eps``.
A mechanism added to the registry joins a sweep by its name alone (here one defined in this file)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from privanomaly import mechanisms
from privanomaly.mechanisms.base import Claim, Mechanism
from privanomaly.outliers import gaussian, q_count
from privanomaly.outliers.global_sensitivity import gs_upper
from privanomaly.sp import dlap
from privanomaly.sweeps import index, plots, sigma, spec

SETTINGS = {"eps": [0.5, 1.0], "delta": 0.01, "methods": ["fast"], "conventions": ["printed"], "h": [],
            "subspace_dims": [], "max_subspaces": 10, "max_work": None, "fast_exact_max": 0, "timeout": None,
            "true_subspace": {"rule": "labelled_outlier", "min_outliers": 1}, "sensitivity": 1.0}


def _data():
    x = np.array([0, 1, 1, 2, 3, 5, 6, 6, 6, 9, 12, 12.5, 20], dtype=float)
    X = np.stack([x, (x * 7) % 5], axis=1)
    y = np.zeros(len(x), int)
    y[[9, 12]] = 1
    return X, y


class Geometric(Mechanism):
    """q_count + DLap(eps / GS) on the proven GS upper bound: pure eps-DP (the geometric mechanism)."""

    paper, family, neighbours = "B", "count_geometric_test", "substitution"
    label, reference = "geometric count (test)", "Theorem 4 with the geometric mechanism"

    def claim(self, *, eps, **_):
        return Claim(float(dlap.rational_rate(eps)), 0.0, self.neighbours)

    def rate(self, X, k, eps) -> Fraction:
        return dlap.rational_rate(Fraction(eps) / gs_upper(len(X), X.shape[1], k))

    def noise_sd(self, X, *, k, r, eps, delta):
        p = math.exp(-float(self.rate(X, k, eps)))
        return math.sqrt(2 * p) / (1 - p)  # DLap(a): variance 2p / (1 - p)^2, p = e^-a


@pytest.fixture
def geometric():
    mechanisms.register("geometric_test")(Geometric)
    yield mechanisms.get("geometric_test")
    mechanisms.unregister("geometric_test")


def test_paper_b_sweep_takes_count_mechanisms_by_name_and_rejects_others(geometric):
    entry = {"kind": "paper_b", "datasets": ["d"], "eps": [1.0], "k": [2], "r": {"value": [1.0]}}
    sw = spec.parse("s", {**entry, "mechanisms": ["gaussian_gs_upper", "geometric_test"]})
    assert sw.mechanisms == ("gaussian_gs_upper", "geometric_test")
    assert index.figures(sw) == ("sigma_ratio", "noise_vs_eps")
    assert index.figures(spec.parse("s", entry)) == ("sigma_ratio",)  # no mechanisms, no such figure
    with pytest.raises(ValueError, match=r"sweeps\.s\.mechanisms: .*'exp_top_h'.*gaussian_gs_upper"):
        spec.parse("s", {**entry, "mechanisms": ["exp_top_h"]})  # top-h releases no count
    with pytest.raises(ValueError, match=r"sweeps\.s\.mechanisms: .*'sp'"):
        spec.parse("s", {**entry, "mechanisms": ["sp"]})  # paper A's
    with pytest.raises(ValueError, match=r"sweeps\.s\.mechanisms: .*'nope'"):
        spec.parse("s", {**entry, "mechanisms": ["nope"]})


@pytest.mark.slow
def test_mechanism_rows_carry_each_laws_noise_and_its_claim(geometric):
    X, y = _data()
    t = sigma.dataset_rows(X, y, "toy", [1, 2], spec.radii("value", [1, 0.5]),
                           {**SETTINGS, "mechanisms": ["gaussian_gs_upper", "gaussian_smooth_fast", "geometric_test"]},
                           {"steps": []})  # raw features: nothing fitted on the data
    m = t[t["part"] == "mechanism"]
    assert len(m) == 2 * 2 * 2 * 3 and (m["skipped"] == "").all()
    s = t[(t["part"] == "sigma") & (t["convention"] == "printed")].set_index(["k", "r_spec", "eps"])
    for _, row in m.iterrows():
        key = (row["k"], row["r_spec"], row["eps"])
        if row["mechanism"] == "gaussian_gs_upper":  # Theorem 1 with min(N, k K_2 + 1), as the sigma rows have it
            assert row["noise_sd"] == pytest.approx(s.loc[key, "sigma_global_upper"], rel=1e-12)
            want = gaussian.sigma_global(min(len(X), 6 * row["k"] + 1), row["eps"], 0.01)
            assert row["noise_sd"] == pytest.approx(want, rel=1e-12)
        elif row["mechanism"] == "gaussian_smooth_fast":  # Theorem 2 with the block bound (exact_max = 0)
            assert row["noise_sd"] == pytest.approx(s.loc[key, "sigma_smooth"], rel=1e-12)
        else:
            a = row["eps"] / min(len(X), 6 * row["k"] + 1)
            p = math.exp(-a)
            assert row["noise_sd"] == pytest.approx(math.sqrt(2 * p) / (1 - p), rel=1e-7)
            assert row["claim_delta"] == 0.0
        assert row["claim_eps"] == pytest.approx(row["eps"], rel=1e-8) and row["claim_eps"] <= row["eps"]
        assert row["claim_proven"] and row["neighbours"] == "substitution"
        assert row["true_count"] == q_count(X, int(row["k"]), row["r"])
    assert (m[m["mechanism"] != "geometric_test"]["claim_delta"] == 0.01).all()
    # the scope of every row, as for the sigma rows: an r given as a value is public
    assert m["proven_end_to_end"].all() and m["public_inputs"].str.contains("r = 1").any()


def test_an_unproven_claim_is_stated_as_such():
    X, y = _data()
    t = sigma.dataset_rows(X, y, "toy", [2], spec.radii("value", [1]), {**SETTINGS, "mechanisms": ["gaussian_gs_lower"]},
                           {"steps": []})
    m = t[t["part"] == "mechanism"]
    assert len(m) == 2 and not m["claim_proven"].any() and not m["proven_end_to_end"].any()
    assert (m["claim_note"].str.contains("lower bound proves nothing")).all()


@pytest.mark.slow
def test_noise_vs_eps_draws_the_tables_noise_per_mechanism(geometric):
    X, y = _data()
    t = sigma.dataset_rows(X, y, "toy", [1, 2], spec.radii("value", [1, 0.5]),
                           {**SETTINGS, "mechanisms": ["gaussian_gs_upper", "geometric_test"]}, None)
    t = pd.concat([t, t.iloc[:0]])
    fig = plots.noise_vs_eps(t)
    drawn = {ln.get_gid(): ln for ax in fig.axes for ln in ax.get_lines() if ln.get_gid()}
    m = t[t["part"] == "mechanism"]
    assert len(drawn) == len(m.groupby(["mechanism", "k", "r_spec"]))
    for (mech, k, r), g in m.groupby(["mechanism", "k", "r_spec"]):
        ln = drawn[f"{mech}|{k}|{spec.num_token(r)}"]
        g = g.sort_values("eps")
        np.testing.assert_array_equal(ln.get_xdata(), g["eps"].to_numpy())
        np.testing.assert_array_equal(ln.get_ydata(), g["noise_sd"].to_numpy())
    labels = [x.get_text() for x in fig.axes[0].get_legend().get_texts()]
    assert "gaussian_gs_upper" in labels and "geometric_test" in labels


def test_an_eps_where_a_mechanism_has_no_law_is_a_skipped_row_not_a_failed_job():
    """Theorem 1's sigma holds only for eps <= 7.906 at delta = 0.01 (sigma_global raises beyond): that cell of
    gaussian_gs_upper is kept, skipped with the reason and no noise, as the sigma rows show NaN there; the other
    eps and mechanisms are computed."""
    X, y = _data()
    t = sigma.dataset_rows(X, y, "toy", [2], spec.radii("value", [1]),
                           {**SETTINGS, "eps": [1.0, 10.0], "mechanisms": ["gaussian_gs_upper", "gaussian_smooth_fast"]},
                           {"steps": []})
    m = t[t["part"] == "mechanism"].set_index(["mechanism", "eps"])
    bad = m.loc[("gaussian_gs_upper", 10.0)]
    assert np.isnan(bad["noise_sd"]) and "Theorem 1 condition fails" in bad["skipped"]
    assert bad["skipped"].startswith("gaussian_gs_upper: ") and not bad["proven_end_to_end"]
    assert not bad["claim_proven"]
    assert m.loc[("gaussian_gs_upper", 1.0), "skipped"] == "" and m.loc[("gaussian_gs_upper", 1.0), "noise_sd"] > 0
    assert (m.xs("gaussian_smooth_fast")["skipped"] == "").all()


def test_every_dataset_of_a_sweep_writes_the_same_columns(tmp_path):
    """The columns of a dataset's rows follow from the sweep's settings, never from which cells its data let
    compute: a 1-D dataset (no 2-D subspace, h = 1 = every 1-D subspace: all top-h cells skipped) beside a 2-D one,
    and Algorithm 2 past its guard on one dataset only, are collected into one table (the collector took the
    differing columns for a damaged file and the run failed)."""
    from privanomaly.sweeps import collect

    X, y = _data()
    s = {**SETTINGS, "methods": ["paper"], "h": [1], "subspace_dims": [1, 2], "mechanisms": ["gaussian_gs_upper"]}
    two = sigma.dataset_rows(X, y, "two", [2], spec.radii("value", [1]), s, {"steps": []})
    one = sigma.dataset_rows(X[:, :1], y, "one", [2], spec.radii("value", [1]), s, {"steps": []})
    stuck = sigma.dataset_rows(X, y, "stuck", [2], spec.radii("value", [1]), {**s, "max_work": 0}, {"steps": []})
    assert (one[one["part"] == "top_h"]["skipped"] != "").all() and (two[two["part"] == "top_h"]["skipped"] == "").any()
    assert (stuck[stuck["part"] == "sigma"]["skipped"] != "").all()
    assert set(one.columns) == set(two.columns) == set(stuck.columns)
    paths = []
    for t in (two, one, stuck):
        paths.append(str(tmp_path / f"{t['dataset'].iloc[0]}.parquet"))
        t.to_parquet(paths[-1])
    table = collect.collect(paths, "mix", "paper_b")
    assert set(table["dataset"]) == {"one", "two", "stuck"}
    # a skipped sigma cell still says what does not depend on the smooth bound
    cell = table[(table["dataset"] == "stuck") & (table["part"] == "sigma")].iloc[0]
    ok = table[(table["dataset"] == "two") & (table["part"] == "sigma") & (table["eps"] == cell["eps"])].iloc[0]
    for col in ("sigma_global", "sigma_global_upper", "true_count", "gs_lower", "gs_upper", "N", "d", "delta"):
        assert cell[col] == ok[col], col
    assert np.isnan(cell["sigma_smooth"]) and cell["skipped"].startswith("paper: ")
    assert not cell["proven_end_to_end"]


# ------------------------------------------------------------------ a grid over δ
def test_a_paper_b_sweep_takes_a_delta_grid():
    """``delta`` is a number or a list (a grid, like ε, k and r): σ rows and mechanism rows for each δ, top-h rows
    (pure ε-DP, no δ) once; a single number keeps the one-δ table."""
    entry = {"kind": "paper_b", "datasets": ["d"], "eps": [1.0], "k": [2], "r": {"value": [1.0]}}
    assert spec.parse("s", entry).delta == (0.01,)
    assert spec.parse("s", {**entry, "delta": 1e-5}).delta == (1e-5,)
    assert spec.parse("s", {**entry, "delta": [0.01, 1e-5]}).delta == (0.01, 1e-5)
    for bad in ([0.01, 0.01], [0.5, 1.0], []):
        with pytest.raises(ValueError, match=r"sweeps\.s\.delta"):
            spec.parse("s", {**entry, "delta": bad})
    X, y = _data()
    s = {**SETTINGS, "delta": [0.01, 1e-5], "h": [1], "subspace_dims": [1], "mechanisms": ["gaussian_gs_upper"]}
    t = sigma.dataset_rows(X, y, "toy", [2], spec.radii("value", [1]), s, {"steps": []})
    one = sigma.dataset_rows(X, y, "toy", [2], spec.radii("value", [1]), {**s, "delta": [1e-5]}, {"steps": []})
    for part in ("sigma", "mechanism"):
        rows = t[t["part"] == part]
        assert sorted(rows["delta"].unique()) == [1e-5, 0.01] and len(rows) == 2 * len(one[one["part"] == part])
        cols = ["sigma_global", "sigma_smooth"] if part == "sigma" else ["noise_sd", "claim_delta"]
        got = rows[rows["delta"] == 1e-5].reset_index(drop=True)[cols]
        pd.testing.assert_frame_equal(got, one[one["part"] == part].reset_index(drop=True)[cols])
    assert len(t[t["part"] == "top_h"]) == len(one[one["part"] == "top_h"])
    m = t[t["part"] == "mechanism"].set_index(["delta", "eps"])["noise_sd"]
    c = {dl: math.sqrt(2 * math.log(2 / dl)) for dl in (0.01, 1e-5)}
    for e in SETTINGS["eps"]:  # Theorem 1: sigma grows with sqrt(2 ln(2/δ))
        assert m[(1e-5, e)] / m[(0.01, e)] == pytest.approx(c[1e-5] / c[0.01], rel=1e-9)


def test_delta_grid_figures_draw_each_delta(tmp_path):
    X, y = _data()
    s = {**SETTINGS, "delta": [0.01, 1e-5], "mechanisms": ["gaussian_gs_upper"]}
    t = sigma.dataset_rows(X, y, "toy", [2], spec.radii("value", [1, 0.5]), s, {"steps": []})
    fig = plots.sigma_ratio(t)
    titles = [ax.get_title() for ax in fig.axes if ax.images]
    assert any("δ = 0.01" in x for x in titles) and any("δ = 0.00001" in x for x in titles)
    fig = plots.noise_vs_eps(t)
    drawn = {ln.get_gid() for ax in fig.axes for ln in ax.get_lines() if ln.get_gid()}
    assert len(drawn) == 2 * 2  # each δ, each r
    assert any("δ = 0.00001" in ax.get_title() for ax in fig.axes)
    sw = spec.parse("s", {"kind": "paper_b", "datasets": ["toy"], "eps": [0.5, 1.0], "k": [2], "r": {"value": [1, 0.5]},
                          "delta": [0.01, 1e-5]})
    assert "δ ∈ {0.01, 0.00001}" in index.grid_summary(sw, ["toy"]) and "(8 points)" in index.grid_summary(sw, ["toy"])


def test_top_h_rows_state_h_and_the_candidate_subspaces_as_public():
    """A top-h row's claim (Algorithm 3) treats h and the candidate subspaces as public, as Scenario 2's tables
    say; the σ and mechanism rows do not involve them."""
    X, y = _data()
    t = sigma.dataset_rows(X, y, "toy", [2], spec.radii("value", [1]), {**SETTINGS, "h": [1], "subspace_dims": [1],
                                                       "mechanisms": ["gaussian_gs_upper"]}, {"steps": []})
    top = t[t["part"] == "top_h"]
    assert len(top) and top["public_inputs"].str.contains("h, candidate subspaces").all()
    assert not t[t["part"] != "top_h"]["public_inputs"].str.contains("candidate subspaces").any()
