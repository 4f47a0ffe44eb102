"""The ε split of the end-to-end private rows: the composed ε never exceeds the total the row states.

A row of the price tables spends ε_sel = share·ε on the private selection (at its rational rate, rounded down)
and asks the release for the rest. ``ε - float(rate)`` in floats can round *up* by an ulp, and the release then
spends a hair more than what is left: the exact composed ε exceeded the row's ε in every default paper-B row
(ε = 0.25, 0.5, 1, 2 with share 0.1) and in paper A at e.g. ε = 4, share 0.3. Checked here exactly, with
Fractions: the selection's rational rate plus the rate the release actually uses."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest


import price_inputs
from privanomaly.price import tuning as price
from privanomaly import mechanisms
from privanomaly.privacy import end_to_end, private_selection, scope
from privanomaly.privacy.accountant import Accountant
from privanomaly.sp.dlap import rational_rate

EPS = (0.1, 0.2, 0.25, 0.3, 0.5, 0.7, 0.9, 1.0, 1.5, 2.0, 3.0, 4.0, 7.5)
SHARES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


@pytest.mark.parametrize("release", ["sp", "gaussian_gs_upper"])
def test_remaining_keeps_the_exact_sum_within_the_total(release):
    m = mechanisms.get(release)
    for eps, share in itertools.product(EPS, SHARES):
        acc = Accountant("substitution" if release != "sp" else "sensitive_k")
        neighbours = "substitution" if release != "sp" else "add_remove"
        acc.spend("selection", private_selection.claim(share * eps, 5, neighbours))
        rest = acc.remaining(eps)
        left = Fraction(eps) - acc.epsilon_spent_exact
        assert 0 < Fraction(rest) <= left and left - Fraction(rest) <= Fraction(eps) * 2**-51, (eps, share)
        acc.spend("release", m.claim(eps=rest, delta=0.01) if release != "sp" else m.claim(eps=rest, k=1))
        assert acc.epsilon_spent_exact <= Fraction(eps), (eps, share)
        assert acc.total().epsilon <= eps


def test_remaining_refuses_an_exhausted_budget():
    acc = Accountant("add_remove")
    acc.spend("all of it", private_selection.claim(0.5, 1, "add_remove"))
    with pytest.raises(ValueError, match="nothing of the total ε = 0.5 is left"):
        acc.remaining(0.5)


def _data(n=60, seed=5):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(n - 5, 2)), rng.normal(6.0, 2.0, size=(5, 2))])
    return X, np.r_[np.zeros(n - 5, int), np.ones(5, int)]


PROV = {"steps": [{"step": "standardize", "fitted_on": scope.FITTED_ON_DATA}]}


def test_paper_b_private_selection_rows_spend_at_most_their_eps():
    X, y = _data()
    split = price_inputs.split_args(X, y, 0.2, 1)
    eps_grid = [0.25, 0.5, 1.0, 2.0]  # config.yaml's privacy.eps, with its share 0.1
    t = price.paper_b_price(X, y, PROV, k=3, delta=0.01, eps_grid=eps_grid, radii=np.geomspace(0.1, 3, 20),
                            **split, selection_share=0.1)
    rows = t[t["tuning"] == "private_selection"]
    assert list(rows["eps"]) == eps_grid
    for _, row in rows.iterrows():
        sel = private_selection.claim(0.1 * row["eps"], 5, "substitution").epsilon_exact
        spent = sel + Fraction(float(row["eps_release"]))  # the Gaussian spends the float it is given
        assert spent <= Fraction(float(row["eps"])), (row["eps"], float(spent - Fraction(float(row["eps"]))))
        assert row["claim_eps"] <= row["eps"]


def test_paper_a_private_selection_rows_spend_at_most_their_eps():
    X, y = _data()
    split = price_inputs.split_args(X, y, 0.3, 2)
    t = price.paper_a_price(X, y, PROV, betas=[1, 2], fractions=[0.05, 0.1], eps_grid=[4.0, 0.7, 2.0], k=1,
                            **split, selection_share=0.6, rng=np.random.default_rng(3))
    rows = t[t["tuning"] == "private_selection"]
    assert len(rows) == 3
    for _, row in rows.iterrows():
        sel = private_selection.claim(0.6 * row["eps"], 5, "add_remove").epsilon_exact
        spent = sel + rational_rate(float(row["eps_release"]))  # SP spends the rational rate of what it is given
        assert spent <= Fraction(float(row["eps"])), (row["eps"], float(spent - Fraction(float(row["eps"]))))


@pytest.mark.parametrize("eps", [0.7, 2.0, 4.0])
def test_end_to_end_sp_claim_is_within_its_eps(eps):
    claim = end_to_end.EndToEndSP().claim(eps=eps)
    assert claim.epsilon_exact <= Fraction(eps)


def test_total_of_mixed_steps_is_the_exact_sum_rounded_once():
    """A rational selection and a float release: the total is the exact sum rounded once, never a float sum of
    rounded parts that can land above the total they fit in."""
    bad = []
    for eps, share in itertools.product(np.linspace(0.05, 7.5, 150), SHARES):
        acc = Accountant("substitution")
        acc.spend("selection", private_selection.claim(share * eps, 5, "substitution"))
        acc.spend("release", mechanisms.get("gaussian_gs_upper").claim(eps=acc.remaining(eps), delta=0.01))
        total = acc.total()
        assert total.epsilon == float(acc.epsilon_spent_exact)
        if total.epsilon > eps:
            bad.append((eps, share))
    assert bad == []


def test_audit_row_of_the_composed_release_names_its_relation():
    """The privacy audit's row of end_to_end_sp says which edges it checks: G_S(k) depends on (β, r), so a
    privately chosen (β, r) is private on the edges that are G_S(k) edges for every candidate."""
    from privanomaly import audit

    row = audit.harness.audit_mechanism(mechanisms.get("end_to_end_sp"), audit.harness.LEVELS["fast"])
    assert "G_S(k) edges of every candidate (β, r)" in row.reference and row.result == "pass"
