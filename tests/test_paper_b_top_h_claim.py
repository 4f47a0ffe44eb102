"""Scenario 2's stated guarantee of Algorithm 3 holds on a real neighbouring pair whatever Δu is configured.

One record moved turns the three 1-D outliers of column 0 into inliers and the three inliers of columns 1 and
2 into outliers (k = 1, r = 1, N = 3: GS^UB = 3), so u_subspace (eq. 51) goes from (1, 0, 0) to (0, 1, 1):
Theorem 7's Δu <= 1 is attained. The exponential mechanism with weights at Δu = 1/2
(``paper_b.scenario2.utility_sensitivity: 0.5``) or the printed weights exp(eps u) then loses
1 + ln((1 + 2e)/(e + 2)) = 1.31 eps in one draw: more than eps, within 2 eps.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from privanomaly import outliers as ol
from privanomaly.paper_b import scenario2

X = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [9.0, 1.0, 1.0]])
XP = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [1.0, 9.0, 9.0]])
SUBSPACES = [(0,), (1,), (2,)]


def _utility(data):
    counts = ol.q_count_subspaces(data, 1, 1.0, SUBSPACES)
    return ol.subspace_utility(counts, len(data), np.ones(len(SUBSPACES), dtype=int), 1)


def _set_law(mech, u, h, eps):
    seq = mech.sequence_probs(u, h, eps)
    return {st: sum(seq[o] for o in itertools.permutations(st)) for st in itertools.combinations(range(len(u)), h)}


def test_the_pair_attains_theorem_7():
    assert _utility(X).tolist() == [1.0, 0.0, 0.0]
    assert _utility(XP).tolist() == [0.0, 1.0, 1.0]


@pytest.mark.parametrize("exponent, sensitivity, factor", [("standard", 1.0, 1.0), ("standard", 0.5, 2.0),
                                                           ("printed", 1.0, 2.0), ("printed", 0.5, 2.0)])
@pytest.mark.parametrize("eps", [0.5, 1.0, 3.0])
def test_stated_epsilon_covers_the_exact_loss(exponent, sensitivity, factor, eps):
    mech = scenario2.TopH(exponent, sensitivity)
    rate = float(ol.exponential.draw_rate(eps))
    assert mech.epsilon(eps) == pytest.approx(factor * rate, rel=1e-15)
    for h in (1, 2):
        a, b = _set_law(mech, _utility(X), h, eps), _set_law(mech, _utility(XP), h, eps)
        loss = max(abs(math.log(a[s]) - math.log(b[s])) for s in a)
        assert loss <= mech.epsilon(eps) * (1 + 1e-12)
    if factor == 2.0:  # the weights are those of Δu = 1/2: one draw loses more than rate
        a, b = _set_law(mech, _utility(X), 1, eps), _set_law(mech, _utility(XP), 1, eps)
        assert max(abs(math.log(a[s]) - math.log(b[s])) for s in a) > rate


def test_tables_state_the_guarantee_when_the_weights_assume_a_smaller_delta_u():
    rng_for = lambda eps, h: np.random.default_rng(0)  # noqa: E731
    common = dict(utility=_utility(X), is_true=np.array([True, False, False]), eps_grid=[1.0], hs=[1],
                  n_trials=10, rng_for=rng_for)
    assert "dp_epsilon" not in scenario2.sweep(**common).columns
    half = scenario2.sweep(**common, sensitivity=0.5)
    assert half["dp_epsilon"].iloc[0] == pytest.approx(2 * float(ol.exponential.draw_rate(1.0)))
    assert scenario2.TopH("standard", 0.5).claim().startswith("2ε-DP")
