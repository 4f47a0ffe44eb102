"""Samplers match their exact probabilities (binomial bounds; fixed seeds, so deterministic)."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly import seeding, sp


def within_binomial(count, n, p, z=5.0):
    """|count - n p| <= z sd + 1 (a fixed-seed test: z = 5 keeps a correct sampler from failing)."""
    return abs(count - n * p) <= z * np.sqrt(n * p * (1 - p)) + 1


def test_no_float_bernoulli_sampler_is_exported():
    """the float sampler ``rng.random() < p`` is gone; mechanisms sample exactly
    (privanomaly.mechanisms, tested in test_sp_registry.py)."""
    assert not hasattr(sp, "sample_answers") and not hasattr(sp.mechanisms, "sample_answers")


@pytest.mark.parametrize("eps", [0.01, 0.1, 1.0, 3.0])
def test_exact_discrete_laplace_sampler(eps):
    rng = seeding.rng(2, "test_sp_sampling", "dlap", eps)
    n = 60_000
    z = sp.sample_dlap(eps, n, rng)
    assert z.dtype == np.int64
    a = sp.rational_rate(eps)
    for v in (0, 1, -1, 3, -5):
        assert within_binomial((z == v).sum(), n, float(sp.dlap_pmf(v, a)))
    for t in (1, 2, int(2 / eps) + 1):
        assert within_binomial((z >= t).sum(), n, float(sp.dlap_sf(t, a)))
    assert abs(z.mean()) < 5 * np.sqrt(2 * np.exp(-float(a)) / (1 - np.exp(-float(a))) ** 2 / n) + 1e-9


@pytest.mark.parametrize("variant", sp.LAPLACE_VARIANTS)
def test_laplace_sampler_matches_closed_form(variant):
    rng = seeding.rng(3, "test_sp_sampling", variant)
    B = np.array([0, 2, 3, 4, 5, 8])
    beta, eps, n = 4, 0.7, 30_000
    ans = sp.laplace_sample(B, beta, eps, rng, n, variant)
    assert ans.dtype == np.int8 and ans.shape == (n, len(B))
    p1 = sp.laplace_prob_one(B, beta, eps, variant)
    for c, p in zip(ans.sum(axis=0), p1):
        assert within_binomial(c, n, p)


def test_samplers_are_reproducible_and_need_a_generator():
    a = sp.sample_dlap(0.3, 100, seeding.rng(5, "x"))
    b = sp.sample_dlap(0.3, 100, seeding.rng(5, "x"))
    np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError):
        sp.sample_dlap(0.3, 10, np.random.RandomState(0))


def test_bernoulli_exp_exact_rates():
    rng = seeding.rng(4, "bexp")
    n = 50_000
    for num, den in ((0, 1), (1, 1), (1, 3), (7, 10)):
        got = sp.dlap.bernoulli_exp(rng, np.full(n, num), den)
        assert within_binomial(got.sum(), n, np.exp(-num / den))


def test_cks_algorithm1_returns_k_odd_at_the_first_failed_ratio_draw():
    """The shared driver of CKS Algorithm 1 (paper A's int64 path and paper B's big-rational path use it)."""
    from privanomaly.sp.dlap import cks_algorithm1

    stop_at = np.array([1, 2, 3, 4, 7])  # element i draws A = 1 while K < stop_at[i], then A = 0
    calls = []

    def ratio(active, K):
        calls.append(active.copy())
        return K < stop_at[active]

    out = cks_algorithm1(5, ratio)
    assert out.tolist() == [True, False, True, False, True]  # K at the stop is odd/even
    assert [c.tolist() for c in calls][:3] == [[0, 1, 2, 3, 4], [1, 2, 3, 4], [2, 3, 4]]  # ascending, shrinking
    assert len(calls) == 7


def test_exp_minus_whole_draws_nothing_for_zero_and_matches_exp_minus_w():
    from privanomaly.sp.dlap import exp_minus_whole

    rng = np.random.default_rng(3)
    state = rng.bit_generator.state
    assert exp_minus_whole(rng, np.zeros(5, dtype=np.int64)).all() and rng.bit_generator.state == state
    w = np.repeat(np.array([1, 2, 3], dtype=np.int64), 60_000)
    ok = exp_minus_whole(np.random.default_rng(4), w)
    for k in (1, 2, 3):  # P = exp(-k); 60,000 draws: 5 sigma of the binomial
        p, got = np.exp(-k), ok[w == k].mean()
        assert abs(got - p) < 5 * np.sqrt(p * (1 - p) / 60_000), (k, got, p)
