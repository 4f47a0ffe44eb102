"""Sweeps: config parsing and grid, shared ball counts and absent points, one grid point's exact
values, the tidy table's order, paper B rows, index rows. Values are checked against closed forms and
brute force; the workflow itself is exercised in tests/test_sweeps_workflow.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import mechanisms, seeding, sp
from privanomaly.paper_b import released_bound
from privanomaly.sweeps import collect, counts, index, points, sigma, spec

MECHS = ["sp", "optimal_dp", "compiler", "laplace_count", "laplace_noisy_threshold"]


def a_entry(**kw) -> dict:
    e = {"kind": "paper_a", "datasets": ["d1", "d2"], "mechanisms": MECHS, "eps": [0.5, 1.0], "k": [1, 3],
         "beta": [2, 5], "r": {"fraction": [0.01, 0.05]}, "n_absent": 10}
    e.update(kw)
    return e


# ------------------------------------------------------------------------------------------ spec


def test_tokens_are_canonical():
    assert spec.num_token(1.0) == spec.num_token(1) == "1"
    assert spec.num_token(0.05) == "0.05"
    assert spec.num_token(1e-4) == "0.0001"
    assert spec.r_token("fraction", 0.05) == "f0.05"


def test_ball_counts_shared_across_beta_only_for_absolute_r():
    frac = spec.parse("s", a_entry())
    assert spec.balls(frac) == [{"beta": b, "r_kind": "fraction", "r_spec": f} for b in (2, 5) for f in (0.01, 0.05)]
    assert [spec.ball_label(b) for b in spec.balls(frac)] == ["beta~2_r~f0.01", "beta~2_r~f0.05", "beta~5_r~f0.01",
                                                               "beta~5_r~f0.05"]
    val = spec.parse("s", a_entry(r={"value": [0.5, 1]}))
    # one table per r, shared by every β, k, ε, mechanism
    assert spec.balls(val) == [{"beta": None, "r_kind": "value", "r_spec": v} for v in (0.5, 1.0)]
    assert [spec.ball_label(b) for b in spec.balls(val)] == ["r~v0.5", "r~v1"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"kind": "paper_c"}, "kind"),
        ({"r": {"fraction": [0.1], "value": [1]}}, "exactly one"),
        ({"eps": [0.5, 0.50]}, "duplicate"),
        ({"beta": []}, "beta"),
        ({"mechanisms": []}, "mechanisms"),
        ({"k": [0]}, "k"),
    ],
)
def test_bad_sweep_entries_name_the_key(change, message):
    with pytest.raises(ValueError, match=message):
        spec.parse("s", a_entry(**change))


def test_overlay_can_switch_the_kind_of_r_with_null():
    sw = spec.parse("s", a_entry(r={"fraction": None, "value": [0.5]}))
    assert (sw.r_kind, sw.r_values) == ("value", (0.5,))


def test_sweep_names_cannot_hold_separators():
    with pytest.raises(ValueError, match="letters and digits"):
        spec.parse("my_sweep", a_entry())


def test_mechanisms_come_from_the_registry():
    with pytest.raises(ValueError, match=r"mechanisms: unknown \['Gaussian'\]; registered paper-A mechanisms"):
        spec.parse("s", a_entry(mechanisms=["sp", "Gaussian"]))
    paper_b = [n for n in mechanisms.names() if n not in mechanisms.names("aiq")]
    if paper_b:  # a paper-B mechanism cannot answer the AIQ
        with pytest.raises(ValueError, match="paper-A sweeps take one of"):
            points.aiq_mechanism(paper_b[0])


# ------------------------------------------------------------------------------------------ counts


def cloud_and_isolated(n_iso: int = 4, seed: int = 1):
    """A tight cloud of 200 records (all within 0.5 of the centre) and ``n_iso`` records alone, far apart."""
    rng = np.random.default_rng(seed)
    cloud = rng.uniform(-0.25, 0.25, size=(200, 2))
    iso = np.array([[10.0, 10.0], [-10.0, 10.0], [10.0, -10.0], [-10.0, -10.0]])[:n_iso]
    X = np.vstack([cloud, iso])
    y = np.r_[np.zeros(200, np.int8), np.ones(n_iso, np.int8)]
    return X, y


def test_absent_points_are_in_the_box_not_in_the_data_and_seeded():
    X, _ = cloud_and_isolated()
    X = np.vstack([X, X[:3]])  # duplicates do not matter
    a = counts.absent_points(X, 300, seeding.rng(1, "t"))
    b = counts.absent_points(X, 300, seeding.rng(1, "t"))
    assert np.array_equal(a, b)
    assert np.all(a >= X.min(axis=0)) and np.all(a <= X.max(axis=0))
    assert not any((np.abs(X - p).sum(axis=1) == 0).any() for p in a)


def test_absent_points_redrawn_when_they_hit_a_record():
    X = np.array([[0.0], [1.0]])  # a 1-D box; force a hit by drawing from a generator that returns a record

    class HitFirst:
        calls = 0

        def uniform(self, lo, hi, size):
            HitFirst.calls += 1
            return np.zeros(size) if HitFirst.calls == 1 else np.full(size, 0.5)

    out = counts.absent_points(X, 2, HitFirst())
    assert np.array_equal(out, [[0.5], [0.5]]) and HitFirst.calls == 2


def test_count_table_equals_brute_force_for_records_and_absent_points():
    X, y = cloud_and_isolated()
    absent = counts.absent_points(X, 50, seeding.rng(2, "t"))
    t = counts.count_table(X, y, 0.3, metric="euclidean", cap=None, absent=absent)
    rec, ab = t[t["kind"] == "record"], t[t["kind"] == "absent"]
    assert np.array_equal(rec["B"], sp.ball_counts_bruteforce(X, 0.3))
    assert np.array_equal(ab["B"], sp.pairwise_within(absent, X, 0.3).sum(axis=1))
    assert (ab["x_i"] == 0).all() and (ab["label"] == 0).all()
    assert np.array_equal(rec["label"], y)


def test_fraction_radius_flags_that_share_and_quantile_is_the_quantile():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(1000, 3))
    for f in (0.01, 0.05, 0.2):
        r = counts.resolve_r(X, "fraction", f, 5, "euclidean")
        B = sp.ball_counts(X, r)
        assert abs(np.mean(B <= 5) - f) <= 1 / 1000  # midpoint radius: round(f n) records, up to ties
    r = counts.resolve_r(X, "quantile", 0.9, 5, "euclidean")
    from privanomaly.paper_a.selection import knn_radius_table

    assert r == pytest.approx(np.quantile(knn_radius_table(X, [5])[:, 0], 0.9))
    assert counts.resolve_r(X, "value", 0.7, None, "euclidean") == 0.7


# ------------------------------------------------------------------------------------------ one point


@pytest.fixture(scope="module")
def iso_counts():
    X, y = cloud_and_isolated()
    absent = counts.absent_points(X, 200, seeding.rng(5, "absent"))
    return counts.count_table(X, y, 1.0, metric="euclidean", cap=None, absent=absent)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
def test_isolated_records_dp_floor_sp_below_dp_laplace_on_void(iso_counts, eps):
    rows = points.point_rows(iso_counts, beta=5, k=1, eps=eps, mechanisms=MECHS, cap=None).set_index("mechanism")
    floor = 1 / (1 + np.exp(eps))
    assert rows.loc["optimal_dp", "n_anomalies"] == 4  # exactly the isolated records
    assert rows.loc["optimal_dp", "error_anomaly"] == pytest.approx(floor, rel=1e-12)  # Fig. 1 bound, reached
    assert rows.loc["sp", "error_anomaly"] <= rows.loc["optimal_dp", "error_anomaly"]
    # Construction 2 on the ε/2-DP optimal mechanism: δ = L − Δ_G = 5 − 1 on a singleton (β = 5, k = 1)
    compiled = np.exp(-eps / 2) / (1 + np.exp(-eps / 2)) * np.exp(-eps * 4 / 4)
    assert rows.loc["compiler", "error_anomaly"] == pytest.approx(compiled, rel=1e-12)
    # void spots (absent, empty ball): Laplace count errs with probability >= 1/2, SP and DP do not
    assert rows.loc["optimal_dp", "n_absent_void"] > 100
    assert rows.loc["laplace_count", "error_absent_void"] >= 0.5
    assert rows.loc["optimal_dp", "error_absent_void"] == pytest.approx(floor, rel=1e-12)  # Delta_G = 1 there
    L = 1 + max(0, 5 - 1 - 0)  # mdd_sp_lower of an absent record with B = 0, beta = 5, k = 1
    assert rows.loc["sp", "error_absent_void"] == pytest.approx(np.exp(-eps * L) / (1 + np.exp(-eps)), rel=1e-12)
    # on present records SP at k = 1 and the Laplace count err alike (the project's result)
    for col in ("error_anomaly", "error_normal"):
        assert rows.loc["sp", col] == pytest.approx(rows.loc["laplace_count", col], rel=1e-9, abs=1e-300)


def test_point_claims_and_shares(iso_counts):
    rows = points.point_rows(iso_counts, beta=5, k=3, eps=1.0, mechanisms=MECHS, cap=None).set_index("mechanism")
    assert rows.loc["laplace_noisy_threshold", "claim_eps"] == 0.5
    assert rows.loc["sp", "claim_eps"] == rows.loc["optimal_dp", "claim_eps"] == 1.0
    assert (rows["claim_delta"] == 0).all() and rows["claim_proven"].all()
    assert rows.loc["sp", "neighbours"] == "sensitive_k" and rows.loc["optimal_dp", "neighbours"] == "add_remove"
    rec = iso_counts[iso_counts["kind"] == "record"]
    expected = np.mean(rec["B"].to_numpy() >= 5 + 1 - 3)
    assert rows.loc["sp", "share_k_sensitive"] == pytest.approx(expected)
    # precision/recall against the (beta, r)-anomalies equals that against the labels here (they coincide)
    assert rows.loc["sp", "precision_br"] == pytest.approx(rows.loc["sp", "precision_labels"])


def test_point_errors_equal_per_record_closed_forms(iso_counts):
    rec = iso_counts[iso_counts["kind"] == "record"]
    x_i, B = rec["x_i"].to_numpy(), rec["B"].to_numpy()
    rows = points.point_rows(iso_counts, beta=5, k=3, eps=0.5, mechanisms=["sp"], cap=None).iloc[0]
    assert rows["error_all"] == pytest.approx(np.mean(sp.sp_error(x_i, B, 5, 3, 0.5)))


def test_capped_counts_give_the_same_errors():
    X, y = cloud_and_isolated()
    absent = counts.absent_points(X, 50, seeding.rng(5, "absent"))
    cap = counts.sweep_cap([5], [1.0])
    a = counts.count_table(X, y, 1.0, metric="euclidean", cap=None, absent=absent)
    b = counts.count_table(X, y, 1.0, metric="euclidean", cap=cap, absent=absent)
    ra = points.point_rows(a, 5, 1, 1.0, MECHS, None)
    rb = points.point_rows(b, 5, 1, 1.0, MECHS, cap)
    num = ra.select_dtypes("number").columns
    assert np.allclose(ra[num].to_numpy(float), rb[num].to_numpy(float), rtol=1e-12, atol=2.0**-55, equal_nan=True)


# ------------------------------------------------------------------------------------------ table, paper B, index


def test_collect_order_does_not_depend_on_file_order(tmp_path, iso_counts):
    paths = []
    for i, (beta, eps) in enumerate([(5, 1.0), (2, 0.5), (5, 0.5), (2, 1.0)]):
        df = points.point_rows(iso_counts, beta, 1, eps, MECHS, None)
        for j, (c, v) in enumerate({"dataset": "d", "beta": beta, "r_kind": "value", "r_spec": 1.0, "r": 1.0,
                                    "k": 1, "eps": eps}.items()):
            df.insert(j, c, v)
        p = tmp_path / f"{i}.parquet"
        df.to_parquet(p)
        paths.append(str(p))
    a = collect.collect(paths, "s", "paper_a")
    b = collect.collect(paths[::-1], "s", "paper_a")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 4 * len(MECHS) and list(a.columns[:3]) == ["sweep", "dataset", "beta"]


def test_top_h_rows_exact_and_skipped_cells():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(40, 3)), [[30.0, 0, 0], [0, 30.0, 0]]])
    y = np.r_[np.zeros(40, int), [1, 1]]
    t = sigma.top_h_rows(X, y, 2, 2.0, [0.5, 5.0], [1, 3], [1, 2], "labelled_outlier", 1, 1.0, max_subspaces=3)
    done = t[t["skipped"] == ""]
    assert set(done["subspace_dim"]) == {1, 2}  # 3 one-D and 3 two-D subspaces
    assert (t[(t["h"] == 3)]["skipped"] != "").all()  # h = 3 = number of subspaces: every one is output
    p = done.set_index(["subspace_dim", "h", "eps"])["precision"]
    assert 0 <= p.min() and p.max() <= 1 and p.loc[(1, 1, 5.0)] > p.loc[(1, 1, 0.5)]
    many = sigma.top_h_rows(X, y, 2, 2.0, [1.0], [1], [2], "labelled_outlier", 1, 1.0, max_subspaces=2)
    assert "max_subspaces" in many["skipped"].iloc[0]
    assert "dp_epsilon" not in t  # weights at Theorem 7's Δu = 1: ε-DP as the rows' ε says


def test_top_h_rows_at_a_smaller_weight_sensitivity_state_the_eps_they_spend():
    """Weights exp(ε u / (2 h Δu)) at a configured Δu = 1/2 make each draw (ε/h)·(1/(1/2))-DP: the rows say 2ε
    (Theorem 7: the utility's sensitivity is 1, reached by moving one record), as Scenario 2's tables do."""
    from privanomaly.outliers.exponential import draw_rate

    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(40, 3)), [[30.0, 0, 0], [0, 30.0, 0]]])
    y = np.r_[np.zeros(40, int), [1, 1]]
    t = sigma.top_h_rows(X, y, 2, 2.0, [0.5, 5.0], [1], [1], "labelled_outlier", 1, 0.5, max_subspaces=3)
    assert list(t["dp_epsilon"]) == [2 * float(draw_rate(0.5)), 2 * float(draw_rate(5.0))]


@pytest.mark.subprocess
def test_dataset_rows_cover_every_k_and_r_with_the_radius_read_off_the_data():
    """A paper-B sweep job on one dataset (rule sweep_b_dataset): every (k, r) point's σ and top-h rows, each
    point's rows equal to those of sigma_rows/top_h_rows at that point, grid columns first."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(40, 2)), [[30.0, 0], [0, 30.0]]])
    y = np.r_[np.zeros(40, int), [1, 1]]
    s = {"eps": [0.5, 1.0], "delta": 0.01, "conventions": ["printed"], "methods": ["fast"], "h": [1],
         "subspace_dims": [1], "max_subspaces": 10, "max_work": 3000, "fast_exact_max": 0, "timeout": 60,
         "true_subspace": {"rule": "labelled_outlier", "min_outliers": 1}, "sensitivity": 1.0}
    t = sigma.dataset_rows(X, y, "d", [1, 3], spec.radii("fraction", [0.1]) + spec.radii("value", [1.5]), s, None)
    assert list(t.columns[:5]) == ["dataset", "k", "r_kind", "r_spec", "r"]
    assert t[["k", "r_spec"]].drop_duplicates().values.tolist() == [[1, 0.1], [1, 1.5], [3, 0.1], [3, 1.5]]
    at = t[(t["k"] == 3) & (t["r_spec"] == 0.1)]
    r = counts.resolve_r_paper_b(X, "fraction", 0.1, 3)
    assert (at["r"] == r).all() and (t.loc[t["r_kind"] == "value", "r"] == 1.5).all()
    one = sigma.sigma_rows(X, 3, r, s["eps"], s["delta"], s["conventions"], s["methods"],
                           lambda m: (lambda beta: released_bound.smooth_bound(X, 3, r, beta, m, 3000, 0, 60)))
    mine = at[at["part"] == "sigma"].reset_index(drop=True)
    assert len(mine) == len(one) and np.allclose(mine["sigma_smooth"], one["sigma_smooth"], rtol=0, atol=0)
    assert {"public_inputs", "data_dependent", "proven_end_to_end"} <= set(t.columns)
    assert not t.loc[t["r_kind"] == "fraction", "proven_end_to_end"].any()  # r read off the private data


def test_index_section_lists_each_sweep_with_grid_and_files():
    sw = {"s1": spec.parse("s1", a_entry(description="a | b"))}
    entries = index.entries(sw, {"s1": ["d1"]})
    text = index.render(entries)
    assert "## Sweeps" in text and "`s1`" in text and "a \\| b" in text
    assert "(80 points)" in text  # 1 dataset x 5 mechanisms x 2 ε x 2 k x 2 β x 2 r
    assert "sweeps/s1/figures/gain.png" in text
    assert index.render(index.entries(sw, {"s1": []})) == ""


# ------------------------------------------------------------------------------------------ claims from a sweep


@pytest.fixture(scope="module")
def iso_sweep(iso_counts):
    parts = []
    for beta in (2, 5):
        for k in (1, 2):
            for eps in (0.5, 1.0, 2.0):
                df = points.point_rows(iso_counts, beta, k, eps, MECHS, None)
                for j, (c, v) in enumerate({"dataset": "iso", "beta": beta, "r_kind": "value", "r_spec": 1.0,
                                            "r": 1.0, "k": k, "eps": eps}.items()):
                    df.insert(j, c, v)
                parts.append(df)
    return pd.concat(parts, ignore_index=True)


def test_claims_from_sweep_pass_on_closed_form_data(iso_sweep):
    from privanomaly.sweeps import claims as sc

    a3 = sc.sp_equals_dp_on_normal(iso_sweep, "s", 1, 1e-3)
    a6 = sc.sp_beats_laplace(iso_sweep, "s", 1.0, 1, 0.05)
    a8 = sc.compiler_exponential_gain(iso_sweep, "s")
    assert (a3.passed, a6.passed, a8.passed) == (True, True, True), (a3.evidence, a6.evidence, a8.evidence)
    assert "From sweep `s`" in a6.expected and "records only 0" in a6.evidence  # SP = Laplace count on records, k = 1
    assert "δ = β − k ∈ {0, 1, 3, 4}" in a8.evidence  # (β, k) = (2, 2), (2, 1), (5, 2), (5, 1)
    reg = sc.registry_with_sweep("s")
    assert [c.claim_id for c in reg] == [f"A{i}" for i in range(1, 11)]
    assert {c.claim_id for c in reg if c.table == "sweep"} == {"A3", "A6", "A8", "A10"}
    assert next(c for c in reg if c.claim_id == "A1").table == "summaries"  # the tables decide where the sweep has none
    comp = pd.DataFrame({"dataset": "iso", "eps": 1.0, "delta": [0, 2], "input_error": 0.2,
                         "compiled_error": [0.2, 0.2 * np.exp(-0.5)]})
    tables = {"sweep": iso_sweep, "comp": comp}
    a8 = next(c for c in reg if c.claim_id == "A8").evaluate(tables, {})
    assert a8.passed is True and a8.expected.startswith("(1) per record")
    comp.loc[1, "compiled_error"] = 0.2  # no gain on the non-sensitive record: the tables' part fails
    assert next(c for c in reg if c.claim_id == "A8").evaluate(tables, {}).passed is False


def test_claims_from_sweep_fail_on_tampered_tables(iso_sweep):
    """Negative controls: a compiler without the e^(−εδ/4) gain, a Laplace count as good as SP on void points."""
    from privanomaly.sweeps import claims as sc

    bad = iso_sweep.copy()
    comp = bad["mechanism"] == "compiler"
    bad.loc[comp, "error_absent_void"] *= 1.001
    assert sc.compiler_exponential_gain(bad, "s").passed is False
    bad = iso_sweep.copy()
    sp_rows = bad[bad["mechanism"] == "sp"].set_index(["beta", "k", "eps"])
    for m in ("laplace_count", "laplace_noisy_threshold"):
        rows = bad["mechanism"] == m
        keys = list(zip(bad.loc[rows, "beta"], bad.loc[rows, "k"], bad.loc[rows, "eps"]))
        bad.loc[rows, "error_absent"] = sp_rows.loc[keys, "error_absent"].to_numpy()
    assert sc.sp_beats_laplace(bad, "s", 1.0, 1, 0.05).passed is False
    bad = iso_sweep.copy()
    bad.loc[bad["mechanism"] == "sp", "error_normal"] += 0.01
    assert sc.sp_equals_dp_on_normal(bad, "s", 1, 1e-3).passed is False


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev"])
def test_resolve_radii_equals_resolve_r_table_by_table(metric):
    """The sweep's counts read every fraction of one β off one search: the same floats as one table at a time."""
    from privanomaly.paper_a.selection import knn_radius_table, radius_for_fraction

    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(400, 3)), 1)  # rounded: ties among the d_β
    sw = spec.parse("s", a_entry(beta=[2, 5], r={"fraction": [0.01, 0.05, 0.3]}))
    balls = spec.balls(sw)
    got = counts.resolve_radii(X, balls, metric)
    assert len(got) == len(balls) == 6
    for ball, r in zip(balls, got):
        beta, value = ball["beta"], ball["r_spec"]
        assert r == counts.resolve_r(X, ball["r_kind"], value, beta, metric)
        p = counts.P_OF_METRIC[metric]
        assert r == radius_for_fraction(knn_radius_table(X, [beta], p=p)[:, 0], value)
    values = spec.parse("v", a_entry(r={"value": [0.5, 0.9]}))
    assert counts.resolve_radii(X, spec.balls(values), metric) == [0.5, 0.9]


@pytest.mark.subprocess
def test_algorithm_2_rows_of_a_sweep_name_the_work_guard_where_the_shape_does_not_bound_it():
    """3-D data, max_work set: whether Algorithm 2's σ cells are filled depends on the data (its work), so its
    rows name the guard and are not proven end to end even at a public r; the fast bound's rows keep their
    claim. In 2-D with max_work >= 2(N + 1) no cell can be skipped: no guard."""
    rng = np.random.default_rng(0)
    X3 = np.vstack([rng.normal(size=(12, 3)), [[30.0, 0, 0]]])
    y3 = np.r_[np.zeros(12, int), [1]]
    s = {"eps": [1.0], "delta": 0.01, "conventions": ["printed"], "methods": ["paper", "fast"], "h": [],
         "subspace_dims": [], "max_subspaces": 10, "max_work": 100_000, "fast_exact_max": 0, "timeout": 60,
         "true_subspace": {"rule": "labelled_outlier", "min_outliers": 1}, "sensitivity": 1.0}
    t = sigma.dataset_rows(X3, y3, "d", [2], spec.radii("value", [1.5]), s, None).set_index("method")
    assert "Algorithm 2 within max_work = 100,000" in t.loc["paper", "data_dependent"]
    assert not t.loc["paper", "proven_end_to_end"]
    assert "max_work" not in t.loc["fast", "data_dependent"]
    assert list(t.reset_index()["method"]) == ["paper", "fast"]  # the table's row order is kept
    t2 = sigma.dataset_rows(X3[:, :2], y3, "d", [2], spec.radii("value", [1.5]), s, None).set_index("method")
    assert "max_work" not in t2.loc["paper", "data_dependent"]


def test_a8_of_a_dataset_the_sweep_has_no_row_for_says_so_in_its_second_part(iso_sweep):
    """A user's dataset not in the claim sweep: part (2) of A8 has no evidence; it says so instead of '(2) ;'."""
    from privanomaly.sweeps import claims as sc

    reg = sc.registry_with_sweep("s")
    comp = pd.DataFrame({"dataset": "mine", "eps": 1.0, "delta": [0, 2], "input_error": 0.2,
                         "compiled_error": [0.2, 0.2 * np.exp(-0.5)]})
    a8 = next(c for c in reg if c.claim_id == "A8").evaluate({"sweep": iso_sweep.iloc[:0], "comp": comp}, {})
    assert a8.passed is True  # the tables' part alone
    assert "(2) ;" not in a8.evidence and "(2) no row of the sweep" in a8.evidence
