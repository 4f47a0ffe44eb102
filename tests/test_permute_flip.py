"""Permute-and-flip (McKenna & Sheldon 2020), the second private selection method beside the exponential
mechanism: its exact law against brute-force enumeration of every order and coin (ties included), its float
law against the exact one, its exact sampler against the law (a fixed seed, a real tolerance), its audit row
passing with its negative control (Δu halved) caught, and the price tables carrying one row per method."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import price_inputs
from privanomaly import mechanisms
from privanomaly.price import tuning as price
from privanomaly.mechanisms import exact
from privanomaly.privacy import permute_flip as pf
from privanomaly.price import released_path as rp
from privanomaly.privacy import private_selection, scope, selection_methods

UTILITIES = [(3,), (0, 0), (2, 0), (3, 1, 3, 0), (5, 5, 5), (0, 4, 1, 4, 2), (7, 0, 0, 0, 1, 6)]


def brute_force_law(u, th: Fraction) -> list[exact.QRat]:
    """Pr[c] summed over every order of the candidates: the walk stops at c when every candidate before it
    lands tails and c lands heads, p_s = q^(u* - u_s) - as exact rational functions of q."""
    gaps = [max(u) - v for v in u]
    out = [exact.QRat.const(0) for _ in u]
    orders = list(itertools.permutations(range(len(u))))
    for order in orders:
        reach = exact.QRat.const(Fraction(1, len(orders)))
        for c in order:
            out[c] = out[c] + reach * exact.QRat.q(gaps[c])
            reach = reach * (1 - exact.QRat.q(gaps[c]))
    return out


def floats(d: exact.ExactDist) -> np.ndarray:
    return np.array([math.exp(exact.log_value(f, d.theta)) for f in d.probs])


@pytest.mark.parametrize("u", UTILITIES)
def test_exact_law_is_the_enumeration_of_every_order_and_coin(u):
    d = pf.exact_law(np.array(u), 1.0, 2)
    assert d.theta == pf.theta(1.0, 2) and d.outputs == tuple(range(len(u)))
    for mine, brute in zip(d.probs, brute_force_law(u, d.theta)):
        assert not (mine - brute).num, (u, mine, brute)  # the same polynomial in q, exactly
    assert sum(d.probs, exact.QRat.const(0)).at_one() == exact.QRat.const(1)  # sums to 1 at q = 1 ...
    np.testing.assert_allclose(floats(d).sum(), 1.0, rtol=1e-12)  # ... and at q = exp(-θ)


@pytest.mark.parametrize("u", UTILITIES)
@pytest.mark.parametrize("eps, du", [(0.1, 1), (1.0, 1), (2.0, 3), (8.0, 1)])
def test_float_law_matches_the_exact_law(u, eps, du):
    np.testing.assert_allclose(pf.probs(np.array(u), eps, du), floats(pf.exact_law(np.array(u), eps, du)),
                               rtol=1e-10, atol=1e-300)


def test_ties_share_their_mass_and_the_law_differs_from_the_exponential_mechanism():
    u = np.array([4, 1, 4, 0])
    p = pf.probs(u, 1.0, 1)
    assert p[0] == pytest.approx(p[2], rel=1e-14) and p[0] > p[1] > p[3]
    em = private_selection.probs(u, 1.0, 1)
    assert abs(p - em).max() > 0.01  # not report-noisy-max with Gumbel noise (that is the exponential mechanism)
    # McKenna & Sheldon: expected utility never below the exponential mechanism's
    rng = np.random.default_rng(0)
    for _ in range(200):
        v = rng.integers(0, 30, size=rng.integers(1, 9))
        for eps in (0.05, 0.5, 3.0):
            assert pf.probs(v, eps, 2) @ v >= private_selection.probs(v, eps, 2) @ v - 1e-9


def test_a_single_candidate_and_uniform_utilities():
    assert pf.probs(np.array([7]), 1.0, 1).tolist() == [1.0]
    np.testing.assert_allclose(pf.probs(np.array([2, 2, 2, 2]), 1.0, 1), 0.25, rtol=1e-14)
    assert pf.select(np.array([2]), 1.0, 1, np.random.default_rng(0), 3).tolist() == [0, 0, 0]


@pytest.mark.parametrize("u, eps, du", [((3, 1, 3, 0), 1.0, 1), ((0, 4, 1, 4, 2), 0.7, 2), ((9, 0, 8), 3.0, 1)])
def test_sampler_frequencies_match_the_exact_law(u, eps, du):
    """Chi-square goodness of fit of 40 000 exact draws (fixed seed) against the exact law, at level 1e-3; and
    every frequency within 5 standard errors."""
    n = 40_000
    draws = pf.select(np.array(u), eps, du, np.random.default_rng(12), n_trials=n)
    counts = np.bincount(draws, minlength=len(u))
    law = floats(pf.exact_law(np.array(u), eps, du))
    assert draws.min() >= 0 and counts.sum() == n
    assert stats.chisquare(counts, law * n).pvalue > 1e-3
    se = np.sqrt(law * (1 - law) / n)
    assert (np.abs(counts / n - law) <= 5 * se + 1e-12).all()


def test_sampler_is_seeded_and_catches_a_wrong_law():
    u = np.array([3, 1, 3, 0])
    a = pf.select(u, 1.0, 1, np.random.default_rng(5), 5000)
    assert np.array_equal(a, pf.select(u, 1.0, 1, np.random.default_rng(5), 5000))
    # the same goodness-of-fit test rejects the exponential mechanism's law for these draws (the test has power)
    draws = pf.select(u, 1.0, 1, np.random.default_rng(12), n_trials=40_000)
    em = private_selection.probs(u, 1.0, 1)
    assert stats.chisquare(np.bincount(draws, minlength=4), em * 40_000).pvalue < 1e-6


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="integer"):
        pf.exact_law(np.array([0.5, 1.0]), 1.0, 1)
    with pytest.raises(ValueError, match="sensitivity"):
        pf.probs(np.array([1, 2]), 1.0, 0)
    with pytest.raises(TypeError, match="Generator"):
        pf.select(np.array([1, 2]), 1.0, 1, np.random.RandomState(0))
    with pytest.raises(ValueError, match="privacy.selection_methods: unknown 'gumbel'"):
        selection_methods.check_names(["exponential", "gumbel"])
    with pytest.raises(ValueError, match="listed twice"):
        selection_methods.check_names(["exponential", "exponential"])


def test_claim_is_stated_beside_the_sampler():
    c = pf.claim(0.3, 5, "substitution", "eq. (53) correct count")
    assert c.epsilon_exact <= Fraction(0.3) and c.delta == 0 and c.neighbours == "substitution"
    assert "permute-and-flip" in c.note and "Δu = 5" in c.note
    assert "Claim" in pf.select.__doc__ and "McKenna & Sheldon" in pf.select.__doc__


@pytest.mark.slow
def test_audit_row_passes_and_the_half_sensitivity_control_is_caught():
    from privanomaly import audit
    from privanomaly.audit import harness

    lv = harness.LEVELS["fast"]
    row = harness.audit_mechanism(mechanisms.get("pf_select_r"), lv)
    assert row.exhaustive_pass and row.worlds == 6 and row.edges > 4000
    assert 0.99 < row.worst_ratio_over_e_eps <= 1.0  # permute-and-flip attains its ε on the utility worlds
    factory, _ = audit.NEGATIVE_CONTROLS["pf_select_r_half_sensitivity"]
    bad = harness.audit_mechanism(factory(), lv, kind="negative_control", expected="fail")
    assert not bad.exhaustive_pass and bad.worst_ratio_over_e_eps > 1.9
    failing = [r["world"] for r in factory().audit_rows(fast=True) if not r["passed"]]
    assert failing == ["utilities3_0to3_du1", "utilities3_0to3_du2"]


@pytest.mark.slow
def test_paper_a_end_to_end_row_with_permute_and_flip_passes_and_states_its_method():
    from privanomaly import audit  # noqa: F401 - registers the end-to-end mechanisms
    from privanomaly.audit import harness

    m = mechanisms.get("end_to_end_sp_pf")
    row = harness.audit_mechanism(m, harness.LEVELS["fast"])
    assert row.exhaustive_pass and row.pairs > 0 and row.worst_ratio_over_e_eps <= 1.0
    c = m.claim(eps=1.0)
    em = mechanisms.get("end_to_end_sp").claim(eps=1.0)
    assert c.epsilon_exact == em.epsilon_exact and c.neighbours == em.neighbours == "sensitive_k"
    assert "permute-and-flip" in m.label
    assert mechanisms.get("pf_select_r").claim(eps=0.5).note.startswith("permute-and-flip")


def test_schema_lists_exactly_the_librarys_methods():
    import yaml

    schema = yaml.safe_load(open("workflow/schemas/config.schema.yaml", encoding="utf-8"))
    prop = schema["properties"]["privacy"]["properties"]["selection_methods"]
    assert prop["items"]["enum"] == list(selection_methods.METHODS)
    cfg = yaml.safe_load(open("config.yaml", encoding="utf-8"))
    assert cfg["privacy"]["selection_methods"] == list(selection_methods.METHODS)


def _data(n=80, seed=5):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(n - 6, 2)), rng.normal(6.0, 2.0, size=(6, 2))])
    return X, np.r_[np.zeros(n - 6, int), np.ones(6, int)]


PROV = {"steps": [{"step": "standardize", "fitted_on": scope.FITTED_ON_DATA}]}
BOTH = tuple(selection_methods.METHODS)
SELECTORS = tuple(rp.selector(name) for name in BOTH)


def test_price_b_has_a_row_per_method_and_names_the_cheapest():
    X, y = _data()
    split = price_inputs.split_args(X, y, 0.2, 1)
    t = price.paper_b_price(X, y, PROV, k=3, delta=0.01, eps_grid=[0.5, 2.0], radii=np.geomspace(0.1, 3, 12),
                            **split, selection_share=0.5, selectors=SELECTORS)
    sel = t[t["tuning"] == "private_selection"]
    assert sel["selection_method"].tolist() == list(BOTH) * 2
    assert (t.loc[t["tuning"] != "private_selection", "selection_method"] == "").all()
    assert list(t.columns).index("selection_method") == list(t.columns).index("tuning") + 1
    for eps, g in sel.groupby("eps"):
        g = g.set_index("selection_method")
        # same budget split and release: only the law of the choice differs
        assert g["eps_selection"].nunique() == 1 and g["sigma_global_upper"].nunique() == 1
        assert g["claim_eps"].max() <= eps and g["proven_end_to_end"].all()
        assert g.loc["permute_and_flip", "public_inputs"] == g.loc["exponential", "public_inputs"]
        cheapest = g["accuracy_loss"].idxmin()
        assert (t.loc[t["eps"] == eps, "cheapest_selection"] == cheapest).all()
        margin = abs(g.loc["exponential", "accuracy_loss"] - g.loc["permute_and_flip", "accuracy_loss"])
        assert t.loc[t["eps"] == eps, "cheapest_margin"].tolist() == pytest.approx([margin] * 4, rel=1e-12)
    # the expectation is over the method's own law: recomputed here from the private part's utility
    one = price.paper_b_price(X, y, PROV, k=3, delta=0.01, eps_grid=[2.0], radii=np.geomspace(0.1, 3, 12),
                              **split, selection_share=0.5, selectors=(rp.selector("permute_and_flip"),))
    assert one.loc[one["tuning"] == "private_selection", "accuracy"].item() == pytest.approx(
        sel.loc[(sel["eps"] == 2.0) & (sel["selection_method"] == "permute_and_flip"), "accuracy"].item(), rel=1e-12)


def test_price_a_has_a_row_per_method_with_f1_and_the_cheapest():
    X, y = _data()
    t = price.paper_a_price(X, y, PROV, betas=[1, 2], fractions=[0.02, 0.08], eps_grid=[1.0], k=1,
                            **price_inputs.split_args(X, y, 0.25, 3), selection_share=0.5,
                            rng=np.random.default_rng(2), selectors=SELECTORS)
    sel = t[t["tuning"] == "private_selection"].set_index("selection_method")
    assert list(sel.index) == list(BOTH) and sel["proven_end_to_end"].all()
    p, r = t["precision_labels"], t["recall_labels"]
    np.testing.assert_allclose(t["f1_labels"], 2 * p * r / (p + r), rtol=1e-12)
    paper_f1 = t.loc[t["tuning"] == "paper", "f1_labels"].item()
    np.testing.assert_allclose(t["f1_loss"], paper_f1 - t["f1_labels"], rtol=1e-12)
    assert (t["cheapest_selection"] == sel["f1_loss"].idxmin()).all()


def test_price_table_reads_the_methods_from_config_and_refuses_a_missing_key(tmp_path):
    privacy = {"eps": [1.0], "public_split": {"fraction": 0.2, "seed": 7}, "selection_share": 0.1}
    with pytest.raises(ValueError, match="privacy.selection_methods is missing"):
        price.price_table("B", [], [], [], privacy, {}, [], [])
    with pytest.raises(ValueError, match="unknown 'nope'"):
        price.price_table("B", [], [], [], {**privacy, "selection_methods": ["nope"]}, {}, [], [])


def test_cheapest_names_ties_and_a_single_method():
    import pandas as pd

    t = pd.DataFrame({"eps": [1.0, 1.0, 1.0, 2.0, 2.0], "tuning": ["paper", "private_selection", "private_selection",
                                                                  "paper", "private_selection"],
                      "selection_method": ["", "exponential", "permute_and_flip", "", "exponential"],
                      "accuracy_loss": [0.0, 0.25, 0.25, 0.0, 0.5]})
    out = price._with_cheapest(t, "accuracy_loss")
    assert out["cheapest_selection"].tolist() == ["exponential = permute_and_flip"] * 3 + ["exponential"] * 2
    assert out["cheapest_margin"].iloc[:3].tolist() == [0.0] * 3 and out["cheapest_margin"].iloc[3:].isna().all()
