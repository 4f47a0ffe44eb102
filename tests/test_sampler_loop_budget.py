"""Every loop of the exact samplers has a budget from its law: a broken acceptance stops with SamplerStalled (the
audit then fails, naming the mechanism, the world and the law) instead of hanging; a correct sampler exceeds a
budget with probability below 2^-60 per loop run (privanomaly.sp.loop_budget)."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from privanomaly import audit, seeding
from privanomaly.audit import controls
from privanomaly.mechanisms.paper_a import OptimalDP
from privanomaly.outliers import exact_normal, exact_random, exponential
from privanomaly.sp import dlap, loop_budget
from privanomaly.sp.loop_budget import FALSE_STALL, SamplerStalled


def rng(*keys):
    return seeding.rng(5, "loop_budget", *keys)


# ------------------------------------------------------------------------------------------ the budgets
@pytest.mark.parametrize("n, cont", [(1, 0.5), (200_000, 1 - 0.316), (10**7, math.exp(-1)), (50, 1 - 1 / 12)])
def test_geometric_budget_is_the_smallest_with_false_stall_below_2_to_minus_60(n, cont):
    R = loop_budget.geometric_budget(n, cont)
    assert n * cont**R <= FALSE_STALL * (1 + 1e-9)
    assert n * cont ** (R - 1) > FALSE_STALL or R == 1


@pytest.mark.parametrize("n", [1, 2, 1000, 200_000, 10**8])
def test_factorial_budget_bounds_n_over_r_factorial(n):
    R = loop_budget.factorial_budget(n)
    assert math.log(n) - math.lgamma(R + 1) <= math.log(FALSE_STALL)
    assert R <= 30  # a run of 30 rounds where a correct one ends in two or three


def test_the_budgets_of_the_audits_samplers_are_short():
    """At the audit's largest sample (10^6 draws per side, times the records of a world) every budget is a few
    dozen to a few hundred rounds: a broken sampler fails in seconds."""
    n = 10**7
    assert loop_budget.geometric_budget(n, 1 - dlap._dlap_acceptance(1, 1)) < 100
    assert loop_budget.geometric_budget(n, 1 - exact_normal.ACCEPTANCE) < 100
    assert loop_budget.geometric_budget(n, math.exp(-0.5)) < 120
    assert loop_budget.geometric_budget(n, 1 - 1 / 12) < 800


def test_rounds_raise_only_past_the_budget_with_draws_pending():
    r = loop_budget.Rounds("toy loop", 3, "the toy law")
    r.tick(5)
    r.tick(5)
    r.tick(0)  # nothing pending: never an error
    with pytest.raises(SamplerStalled, match=r"toy loop: 5 draw\(s\) still pending after 4 rounds.*the toy law"):
        r.tick(5)


# -------------------------------------------------------------- the acceptance probabilities are exact
@pytest.mark.parametrize("rate", [1.0, 0.5, 0.003, 4.0, 30.0])
def test_discrete_laplace_acceptance_is_the_samplers(monkeypatch, rate):
    """The budget rests on P(a round accepts): the share accepted in the first round of 200,000 draws is that
    probability (within 6 standard errors), and the closed form equals a direct sum for small t."""
    f = dlap.rational_rate(rate)
    s, t = f.numerator, f.denominator
    p = dlap._dlap_acceptance(s, t)
    if t <= 1000:
        direct = sum(math.exp(-u / t) for u in range(t)) / t * (1 + math.exp(-s / t)) / 2
        assert p == pytest.approx(direct, rel=1e-8) and p <= direct
    seen = []
    real = loop_budget.Rounds.tick

    def tick(self, pending=1, step=1):
        if self.what.startswith("discrete Laplace sampler") and "geometric" not in self.what and not self.done:
            seen.append(pending)
        real(self, pending, step)

    monkeypatch.setattr(loop_budget.Rounds, "tick", tick)
    n = 200_000
    dlap.sample_dlap(f, n, rng("acceptance", rate))
    accepted = 1 - seen[0] / n
    assert abs(accepted - p) < 6 * math.sqrt(p * (1 - p) / n)


def test_karney_acceptance_is_the_samplers(monkeypatch):
    seen = []
    real = loop_budget.Rounds.tick

    def tick(self, pending=1, step=1):
        if self.what == "Karney's Algorithm N (exact normal)" and not self.done:
            seen.append(pending)
        real(self, pending, step)

    monkeypatch.setattr(loop_budget.Rounds, "tick", tick)
    n = 200_000
    exact_normal.sample_standard_normal_parts(rng("karney"), n)
    p = exact_normal.ACCEPTANCE
    assert p == pytest.approx(0.49314, abs=1e-5)
    assert abs(1 - seen[0] / n - p) < 6 * math.sqrt(p * (1 - p) / n)


# ------------------------------------------------------------------- broken acceptances stop, quickly
def test_discrete_laplace_that_never_accepts_stalls(monkeypatch):
    monkeypatch.setattr(dlap, "bernoulli_exp", lambda g, num, den: np.zeros(np.shape(num), dtype=bool))
    with pytest.raises(SamplerStalled, match=r"discrete Laplace sampler \(rate 1/1\).*accepts a draw with "
                                             r"probability 0\.6839"):
        dlap.sample_dlap(1.0, 1000, rng("never"))


def test_discrete_laplace_that_accepts_with_vanishing_probability_stalls(monkeypatch):
    real = dlap.bernoulli_exp

    def rare(g, num, den):  # the acceptance D (den = t = 2) holds with probability 1e-9 instead of exp(-U/t)
        out = real(g, num, den)
        return out & (g.integers(0, 10**9, size=np.shape(out)) == 0) if np.all(np.asarray(den) != 1) else out

    monkeypatch.setattr(dlap, "bernoulli_exp", rare)
    with pytest.raises(SamplerStalled, match="discrete Laplace sampler"):
        dlap.sample_dlap(0.5, 10_000, rng("rare"))


def test_cks_algorithm1_whose_bernoulli_never_fails_stalls():
    with pytest.raises(SamplerStalled, match=r"CKS Algorithm 1.*1 / K!"):
        dlap.cks_algorithm1(100, lambda active, K: np.ones(active.size, dtype=bool))


def test_exact_normal_that_never_accepts_stalls(monkeypatch):
    monkeypatch.setattr(exact_normal, "_algorithm_b", lambda g, pool, k, x: np.zeros(k.size, dtype=bool))
    with pytest.raises(SamplerStalled, match=r"Karney's Algorithm N \(exact normal\).*0\.4931"):
        exact_normal.gaussian_release_exact(3.0, 2.0, rng("normal"), 1000)


def test_exact_normal_whose_first_step_never_stops_stalls(monkeypatch):
    monkeypatch.setattr(exact_normal, "_bernoulli_exp_half", lambda g, num: np.ones(np.shape(num), dtype=bool))
    with pytest.raises(SamplerStalled, match="step N1"):
        exact_normal.gaussian_release_exact(3.0, 2.0, rng("n1"), 100)


def test_algorithm_3_that_never_accepts_a_proposal_stalls(monkeypatch):
    monkeypatch.setattr(exact_random.ExpBernoulliTable, "draw",
                        lambda self, g, idx: np.zeros(np.shape(idx), dtype=bool))
    with pytest.raises(SamplerStalled, match=r"Algorithm 3, draw 1 of 2 among 4 candidates.*at least 1/4"):
        exponential.top_h_draws(np.array([0.1, 0.5, 0.2, 0.9]), 2, 1.0, rng("top_h"), 1000)


class ConstantDigits(np.random.Generator):
    """A generator whose integers are all ``value``: its uniforms' digits never differ."""

    def __init__(self, value: int = 0):
        super().__init__(np.random.PCG64(0))
        self.value = value

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        return self.value if size is None else np.full(size, self.value, dtype=dtype)


def test_digit_by_digit_decisions_have_a_budget():
    pool = exact_random.LazyUniforms(ConstantDigits())
    a, b = pool.new(1), pool.new(1)
    with pytest.raises(SamplerStalled, match="lazy uniforms"):
        pool.less(a, b)
    third = Fraction(1, 3)  # every base-2^62 digit of 1/3 is the same: a generator repeating it never decides
    digit, rest = exact_random._digits_of(third)
    with pytest.raises(SamplerStalled, match="exact Bernoulli"):
        exact_random._resolve_tie(ConstantDigits(digit), rest)


# --------------------------------------------------------------------------------------- in the audit
def test_a_stalled_sampler_fails_the_audit_naming_the_mechanism_world_and_law(monkeypatch):
    """A registered-style mechanism whose discrete Laplace never accepts: its row is FAIL (not a hang, not a
    crash), with the world and the acceptance probability its law promised."""
    monkeypatch.setattr(dlap, "bernoulli_exp", lambda g, num, den: np.zeros(np.shape(num), dtype=bool))
    m = OptimalDP()
    m.name = "optimal_dp"
    lv = dataclasses.replace(audit.LEVELS["fast"], domains=("line4",), metrics=("manhattan",), radii=(1.0,),
                             betas=(3,), ks=(1,), cap_offsets=(None,), eps=(1.0,))
    row = audit.audit_mechanism(m, lv)
    assert row.exhaustive_pass and row.statistical_pass is False and row.result == "FAIL" and not row.ok
    assert "sampler of optimal_dp stalled: world line4/manhattan/1.0, (x_i, B) = " in row.cp_detail
    assert "beta = 3, k = 1, eps = 1.0, cap = None: discrete Laplace sampler (rate 1/1)" in row.cp_detail
    assert "accepts a draw with probability 0.6839" in row.cp_detail


def test_the_stalled_sampler_control_is_caught():
    name, (factory, what) = "optimal_dp_stalled_sampler", audit.NEGATIVE_CONTROLS["optimal_dp_stalled_sampler"]
    assert factory is controls.StalledSamplerDP and "not hang" in what
    m = factory()
    m.name = name
    row = audit.audit_mechanism(m, audit.LEVELS["fast"], "negative control", "fail")
    assert row.result == "caught" and row.exhaustive_pass and row.law_pass and row.statistical_pass is False
    assert "CKS Algorithm 1" in row.note and "world line4/manhattan/1.0" in row.note
