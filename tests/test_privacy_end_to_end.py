"""End-to-end private mode: accountant, public split, private selection (exact law), price, composed audit."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from scipy import stats

import price_inputs
from privanomaly import mechanisms
from privanomaly.mechanisms import exact
from privanomaly.mechanisms.base import Claim
from privanomaly.price import tuning as price
from privanomaly.privacy import accountant, end_to_end, membership, private_selection, public_fit, scope
from privanomaly.sp.dlap import rational_rate


# ------------------------------------------------------------------------------------------------ accountant
def test_accountant_composes_basic_and_exactly():
    acc = accountant.Accountant("substitution")
    acc.spend("selection", private_selection.claim(0.1, 7, "substitution"))
    acc.spend("release", Claim(0.9, 0.01, "substitution", proven=True))
    total = acc.total(["ε, δ, k"], ["standardisation fitted on the data"])
    assert total.epsilon == pytest.approx(float(rational_rate(0.1)) + 0.9, abs=1e-15) and total.delta == 0.01
    assert total.epsilon_exact is None  # the release step has no exact ε
    assert not total.proven_end_to_end and total.proven and "basic composition" in total.note
    exact_acc = accountant.Accountant("add_remove")
    exact_acc.spend("a", Claim(0.5, 0.0, "add_remove", Fraction(1, 2)))
    exact_acc.spend("b", Claim(0.25, 0.0, "add_remove", Fraction(1, 4)))
    assert exact_acc.total().epsilon_exact == Fraction(3, 4) and exact_acc.total().proven_end_to_end


def test_accountant_relations():
    sp = accountant.Accountant("sensitive_k")
    sp.spend("selection on G", Claim(0.5, 0.0, "add_remove"))  # G_S(k) ⊆ G: a DP step holds on it
    with pytest.raises(ValueError, match="cannot compose 'x', a claim on 'sensitive_k'"):
        accountant.Accountant("add_remove").spend("x", Claim(0.5, 0.0, "sensitive_k"))
    with pytest.raises(ValueError, match="nothing spent"):
        accountant.Accountant("substitution").total()
    unproven = accountant.Accountant("substitution")
    unproven.spend("a", Claim(0.5, 0.0, "substitution", proven=False))
    assert not unproven.total().proven


# ---------------------------------------------------------------------------------------------- public split
def test_split_is_per_record_disjoint_keyed_and_about_the_fraction():
    rng = np.random.default_rng(7)
    X, y = rng.normal(size=(400, 2)), (rng.random(400) < 0.1).astype(int)
    s = membership.split(X, y, 7, 0.2)
    assert not set(s.public) & set(s.private) and sorted([*s.public, *s.private]) == list(range(400))
    assert 50 <= len(s.public) <= 110  # Binomial(400, 0.2): mean 80, sd 8
    assert np.array_equal(s.public, membership.split(X, y, 7, 0.2).public)
    assert not np.array_equal(np.sort(s.public), np.sort(membership.split(X, y, 8, 0.2).public))  # the key matters
    with pytest.raises(ValueError, match="privacy.public_split .fraction 0.001, seed 0.: 0 public"):
        membership.split(X[:100], y[:100], 0, 0.001)


def test_public_fit_equals_the_public_zscores_of_the_raw_features():
    rng = np.random.default_rng(1)
    raw = rng.normal(3.0, 5.0, size=(50, 3))
    raw[:, 2] = 4.0 + (np.arange(50) >= 45)  # constant on most rows
    s = membership.split(raw, np.zeros(50, int), 3, 0.3)
    f = public_fit.fit(raw[s.public], public_fit.Spec(standardize=True))
    pub = raw[s.public]
    want = (raw - pub.mean(0)) / np.where(pub.std(0) == 0, 1, pub.std(0))
    if (pub[:, 2] == pub[0, 2]).all():
        want[:, 2] = 0.0
    np.testing.assert_allclose(f.transform(raw), want, atol=1e-12)
    assert f.scope() == scope.Scope(("standardisation fitted on the public part",), ())
    pca = public_fit.fit(raw[s.public], public_fit.Spec(standardize=True, pca=2))
    assert pca.transform(raw).shape == (50, 2) and "PCA (2 components) fitted on the public part" in pca.scope().public_inputs


# ------------------------------------------------------------------------------------------ private selection
def _law_floats(d: exact.ExactDist) -> np.ndarray:
    return np.exp([exact.log_value(f, d.theta) for f in d.probs])


@pytest.mark.parametrize("u,eps,du", [([3, 1, 1, 0], 1.0, 1), ([10, 12, 7], 0.3, 4), ([5], 2.0, 3), ([0, 40], 0.05, 1)])
def test_exact_law_matches_float_law(u, eps, du):
    d = private_selection.exact_law(np.array(u), eps, du)
    assert d.theta == rational_rate(eps) / (2 * du)
    np.testing.assert_allclose(_law_floats(d), private_selection.probs(np.array(u), eps, du), rtol=1e-12)


def test_exact_law_is_eps_dp_on_every_utility_pair_within_du():
    """Exhaustive: 3 candidates, utilities in 0..3, every pair of utility vectors at sup-distance <= Δu = 1
    (what neighbours can do): the exact law satisfies the ε bound; at distance 2 it need not (and does not)."""
    eps = 0.5
    rate = rational_rate(eps)
    vecs = [np.array(v) for v in product(range(4), repeat=3)]
    laws = {tuple(v): private_selection.exact_law(v, eps, 1) for v in vecs}
    checked = 0
    for a in vecs:
        for b in vecs:
            gap = int(np.abs(a - b).max())
            if gap == 1:
                assert exact.edge_holds(laws[tuple(a)], laws[tuple(b)], rate)
                checked += 1
    assert checked == 10**3 - 4**3  # ordered pairs at sup-distance exactly 1
    assert not exact.edge_holds(laws[(2, 0, 0)], laws[(0, 2, 2)], rate)  # utilities moving by 2 > Δu break it


def test_sampler_follows_the_exact_law():
    u = np.array([4, 2, 2, 0, 5])
    p = private_selection.probs(u, 1.0, 1)
    draws = private_selection.select(u, 1.0, 1, np.random.default_rng(3), n_trials=40_000)
    counts = np.bincount(draws, minlength=u.size)
    assert stats.chisquare(counts, p * counts.sum()).pvalue > 1e-3
    assert private_selection.select(np.array([2]), 1.0, 1, np.random.default_rng(0), 3).tolist() == [0, 0, 0]


def test_selection_inputs_checked():
    with pytest.raises(ValueError, match="integer array"):
        private_selection.exact_law(np.array([0.5, 1.0]), 1.0, 1)
    with pytest.raises(ValueError, match="Δu must be an integer >= 1"):
        private_selection.probs(np.array([1, 2]), 1.0, 0)


# ---------------------------------------------------------------------------------------------------- price
def _toy(n=160, seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(n - 8, 2)), rng.uniform(5, 9, size=(8, 2))])
    y = np.r_[np.zeros(n - 8), np.ones(8)].astype(int)
    return (X - X.mean(0)) / X.std(0), y, {"steps": [{"step": "standardize", "fitted_on": scope.FITTED_ON_DATA}]}


def test_price_paper_b_rows_and_claims():
    X, y, prov = _toy()
    s = price_inputs.split_args(X, y, 0.25, 1)
    t = price.paper_b_price(X, y, prov, k=3, delta=0.01, eps_grid=[0.5, 1.0], radii=np.geomspace(0.01, 5, 60),
                            **s, selection_share=0.1)
    assert t["tuning"].tolist() == list(price.TUNINGS) * 2
    assert t.groupby("tuning")["proven_end_to_end"].all().to_dict() == {
        "paper": False, "public_split": True, "private_selection": True}
    ps = t[t["tuning"] == "private_selection"].iloc[0]
    assert ps["eps_selection"] == float(rational_rate(0.05)) and ps["claim_eps"] == pytest.approx(0.5)
    assert ps["sigma_ratio"] == pytest.approx(0.5 / ps["eps_release"]) and ps["claim_delta"] == 0.01
    assert "tuned by eq. (53) accuracy against the labels" in t.iloc[0]["data_dependent"]
    n_private = len(price_inputs.membership_of(s).private)
    assert 0 <= ps["accuracy"] <= 1 and t["n_private"].eq(n_private).all() and 100 <= n_private <= 140


def test_price_paper_a_rows_and_claims():
    X, y, prov = _toy()
    s = price_inputs.split_args(X, y, 0.25, 1)
    t = price.paper_a_price(X, y, prov, betas=[1, 2, 3], fractions=[0.03, 0.05, 0.1], eps_grid=[1.0], k=1, **s,
                            selection_share=0.2, rng=np.random.default_rng(2))
    assert t["tuning"].tolist() == list(price.TUNINGS) and t["neighbours"].eq("sensitive_k").all()
    assert t["proven_end_to_end"].tolist() == [False, True, True]
    # the private part's size moves under add/remove: only the unproven paper row publishes it
    assert t["n_private"].isna().tolist() == [False, True, True]
    ps = t.iloc[2]
    assert ps["eps_selection"] + ps["eps_release"] == pytest.approx(1.0) and "Δu = 19" in ps["public_inputs"]  # β_max K_2 + 1 = 3·6 + 1
    assert 0 <= ps["precision_labels"] <= 1 and 1 <= ps["beta"] <= 3
    assert price.paper_a_sensitivity(2, 3, "manhattan") == 3 * 9 + 1  # β_max 3^d + 1 (tests/test_privacy_packing.py)
    with pytest.raises(ValueError, match="no packing bound for metric 'minkowski3'"):
        price.paper_a_sensitivity(2, 3, "minkowski3")


# ----------------------------------------------------------------------------------- composed claim, audited
def test_composed_law_is_product_on_a_common_theta():
    a = private_selection.exact_law(np.array([1, 0]), 0.5, 2)
    sp = mechanisms.get("sp")
    rel = [sp.exact_distribution(1, 1, beta=1, k=1, eps=0.5), sp.exact_distribution(1, 3, beta=1, k=1, eps=0.5)]
    both = end_to_end.compose(a, rel)
    got = _law_floats(both)
    want = np.outer(_law_floats(a), [1, 1]) * np.array([_law_floats(r) for r in rel])
    np.testing.assert_allclose(got, want.ravel(), rtol=1e-12)
    assert both.outputs == ((0, 0), (0, 1), (1, 0), (1, 1)) and got.sum() == pytest.approx(1.0)


def test_audit_passes_the_end_to_end_mechanisms_and_catches_tuning_on_the_private_part():
    for name in ("end_to_end_sp", "exp_select_r"):
        rows = mechanisms.get(name).audit_rows(fast=True)
        assert rows and all(r["passed"] for r in rows) and all(r["worst_ratio"] <= 1 for r in rows)
    for name, m in end_to_end.negative_controls().items():
        rows = m.audit_rows(fast=True)
        assert not any(r["passed"] for r in rows), name


def test_harness_audits_them_through_their_hook():
    from privanomaly import audit
    from privanomaly.audit import harness

    for name in ("end_to_end_sp", "exp_select_r"):
        assert audit.audit_mechanism(mechanisms.get(name), audit.LEVELS["fast"]).result == "pass"
    controls = end_to_end.negative_controls()
    assert set(controls) <= set(harness.NEGATIVE_CONTROLS)  # registered by privanomaly.audit.end_to_end
    for name, m in controls.items():
        m.name = name
        row = audit.audit_mechanism(m, audit.LEVELS["fast"], "negative control", "fail")
        assert row.result == "caught", name


@pytest.mark.parametrize("metric", ["euclidean", "manhattan"])
def test_price_counts_capped_give_the_uncapped_metrics(metric):
    """Paper A's price counts balls capped as paper_a.records does (recommended_cap at the smallest release ε):
    the (β, r)-anomalies and their errors equal those from uncapped counts float for float; precision/recall
    (sums over every record, each record's error within 2^-60 of the uncapped one) up to float rounding."""
    from privanomaly import sp

    rng = np.random.default_rng(7)
    X = np.round(np.vstack([rng.normal(size=(1000, 3)), rng.normal(6.0, 1.0, size=(8, 3))]), 1)
    y = np.r_[np.zeros(1000, int), np.ones(8, int)]
    m = mechanisms.get("sp")
    eps_min, betas = 0.25, [2, 5]
    cap = sp.recommended_cap(max(betas), eps_min)
    radii = [0.3, 0.8, 2.5]
    capped = price.Counts(X, metric, cap, radii)
    uncapped = price.Counts(X, metric, len(X) + 1)  # no count reaches it: the exact counts
    assert cap < int(uncapped.B(2.5).max())  # the cap binds somewhere
    for r, beta, eps in product(radii, betas, [eps_min, 1.0, 4.0]):
        assert np.array_equal(capped.B(r), np.minimum(uncapped.B(r), cap))
        a = price._sp_metrics(m, capped, y, beta, r, 1, eps)
        b = price._sp_metrics(m, uncapped, y, beta, r, 1, eps)
        assert a.keys() == b.keys() and a["n_anomalies"] == b["n_anomalies"], (r, beta, eps)
        assert a["error_anomaly"] == b["error_anomaly"] or np.isnan(a["error_anomaly"]) and np.isnan(b["error_anomaly"])
        for key in ("precision_labels", "recall_labels"):
            assert abs(a[key] - b[key]) <= 1e-12, (key, r, beta, eps, a[key], b[key])
