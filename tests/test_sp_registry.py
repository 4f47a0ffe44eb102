"""The mechanism registry and paper A's mechanism objects: claims, exact laws, exact samplers."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from privanomaly import mechanisms as M
from privanomaly import seeding, sp
from privanomaly.mechanisms import exact

PAPER_A = ["optimal_dp", "sp", "compiler", "laplace_count", "laplace_noisy_threshold"]
X_I = np.array([1, 1, 2, 0, 1, 3, 0, 1, 0, 2])
B = np.array([1, 3, 5, 2, 9, 4, 7, 40, 1, 2])


def test_registry_lists_paper_a_mechanisms_with_references():
    assert M.names("aiq")[:5] == PAPER_A
    refs = {n: M.get(n).reference for n in PAPER_A}
    assert refs["optimal_dp"].startswith("Theorem 4.4")
    assert refs["sp"].startswith("Construction 1")
    assert refs["compiler"].startswith("Construction 2")
    assert M.get("sp").neighbours == "sensitive_k" and M.get("optimal_dp").neighbours == "add_remove"
    with pytest.raises(KeyError, match="unknown mechanism 'nope'.*optimal_dp"):
        M.get("nope")


def test_register_and_unregister_a_toy_mechanism():
    @M.register("toy_registry_test")
    class Toy(M.get("optimal_dp").__class__):
        label = "Toy"

    try:
        assert "toy_registry_test" in M.names("aiq") and M.get("toy_registry_test").label == "Toy"
        with pytest.raises(ValueError, match="already registered"):
            M.register("toy_registry_test")(M.get("sp").__class__)
        with pytest.raises(TypeError, match="expected a Mechanism"):
            M.register("toy_bad")(lambda: 3)
    finally:
        M.unregister("toy_registry_test")
    assert "toy_registry_test" not in M.names()


@pytest.mark.parametrize("eps", [0.003, 0.1, 0.5, 1.0, 7.3, 30.0])
def test_claims_never_exceed_eps_and_name_the_rate_used(eps):
    for n in PAPER_A:
        c = M.get(n).claim(eps=eps)
        level = eps / 2 if n == "laplace_noisy_threshold" else eps
        assert c.epsilon_exact <= Fraction(level) and c.delta == 0.0
        assert c.epsilon == pytest.approx(level, rel=1e-8)
        assert c.neighbours == M.get(n).neighbours


@pytest.mark.parametrize("name", PAPER_A)
@pytest.mark.parametrize("eps,cap", [(0.05, None), (0.5, 5), (3.0, None), (30.0, 4)])
def test_float_probabilities_match_the_exact_law(name, eps, cap):
    m = M.get(name)
    p0, p1 = m.probs(X_I, B, beta=3, k=1, eps=eps, cap=cap)
    np.testing.assert_allclose(p0 + p1, 1.0, atol=1e-15)
    for a, b, q0, q1 in zip(X_I, B, p0, p1):
        d = m.exact_distribution(int(a), int(b), beta=3, k=1, eps=eps, cap=cap)
        for q, f in ((q0, d.probs[0]), (q1, d.probs[1])):
            assert math.exp(exact.log_value(f, d.theta)) == pytest.approx(q, rel=1e-11, abs=1e-300)
    # error is P(output != g)
    g = sp.is_anomaly(X_I, B, 3).astype(bool)
    np.testing.assert_array_equal(m.error(X_I, B, beta=3, k=1, eps=eps, cap=cap), np.where(g, p0, p1))


def test_mechanisms_reuse_the_sp_closed_forms():
    a = float(sp.rational_rate(0.7))
    np.testing.assert_array_equal(M.get("optimal_dp").error(X_I, B, beta=3, k=2, eps=0.7),
                                  sp.optimal_dp_error(X_I, B, 3, a))
    np.testing.assert_array_equal(M.get("sp").error(X_I, B, beta=3, k=2, eps=0.7), sp.sp_error(X_I, B, 3, 2, a))


class NoFloatGenerator(np.random.Generator):
    """A Generator whose float draws raise: an exact sampler never calls them."""

    def random(self, *a, **kw):  # noqa: D102
        raise AssertionError("a float uniform was drawn")

    def uniform(self, *a, **kw):  # noqa: D102
        raise AssertionError("a float uniform was drawn")


@pytest.mark.parametrize("name", PAPER_A)
def test_samplers_are_exact_and_match_probabilities(name):
    m = M.get(name)
    rng = NoFloatGenerator(np.random.PCG64(seeding.seed_sequence(7, "registry", name)))
    n = 30_000
    ans = m.sample(X_I, B, beta=3, k=1, eps=0.6, rng=rng, n_trials=n, cap=6)
    assert ans.dtype == np.int8 and ans.shape == (n, X_I.size)
    p1 = m.prob_one(X_I, B, beta=3, k=1, eps=0.6, cap=6)
    for c, p in zip(ans.sum(axis=0), p1):
        assert abs(c - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 1


def test_compiler_sampler_with_large_delta_uses_exact_bernoulli_exp():
    """delta = L - Delta_G large: the e^(-a delta/4) factor has gamma > 1 (the integer-part branch)."""
    m = M.get("compiler")
    x, b = np.array([1]), np.array([1])
    beta, k, eps = 30, 1, 2.0
    assert int(sp.compiler_delta(1, 1, beta, k)) * eps / 4 > 3
    p = float(m.prob_one(x, b, beta=beta, k=k, eps=eps)[0])
    n = 400_000
    wrong = n - int(m.sample(x, b, beta=beta, k=k, eps=eps, rng=np.random.default_rng(3), n_trials=n).sum())
    assert abs(wrong - n * (1 - p)) <= 5 * math.sqrt(n * (1 - p)) + 1


@pytest.mark.parametrize("num,den", [(5, 2), (7, 3), (1, 1), (0, 4), (23, 10)])
def test_bernoulli_exp_any_rational_gamma(num, den):
    n = 200_000
    got = sp.dlap.bernoulli_exp(np.random.default_rng(num * 10 + den), np.full(n, num), den).sum()
    p = math.exp(-num / den)
    assert abs(got - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 1


@pytest.mark.parametrize("eps", [7e-10, 4e-10, 1e-12, 0.1, 1 / 3, 2.5e-7, 1e-5, 0.003, 29.999999999])
def test_rational_rate_rounds_down(eps):
    """the rate used never exceeds eps (old: 7e-10 -> 2^-30, 4e-10 -> 'must be > 0')."""
    a = sp.rational_rate(eps)
    assert 0 < a <= Fraction(eps)
    assert float(a) >= eps * (1 - 1e-6)


def test_rational_rate_rejects_rates_below_its_floor():
    with pytest.raises(ValueError, match="below 2\\^-50"):
        sp.rational_rate(1e-17)


def test_exact_edge_check_is_tight():
    """Optimal DP attains its claim exactly on a label-changing edge: the exact check says 'holds' at the
    rate used and 'fails' at any smaller eps (no tolerance involved)."""
    m = M.get("optimal_dp")
    dx = m.exact_distribution(1, 3, beta=3, k=1, eps=0.1)  # anomaly at the boundary
    dy = m.exact_distribution(1, 4, beta=3, k=1, eps=0.1)  # one more record in the ball: normal
    a = m.claim(eps=0.1).epsilon_exact
    assert exact.edge_holds(dx, dy, a)
    assert not exact.edge_holds(dx, dy, a - Fraction(1, 10**15))
    assert exact.edge_log_ratio(dx, dy) == pytest.approx(float(a), rel=1e-12)


def test_sign_at_decides_near_ties():
    th = Fraction(1, 3)
    # e^{-1/3} vs 0.716531310573789250... (its 18-digit truncation): p(u) = u - c > 0
    c = Fraction(716531310573789250, 10**18)
    assert exact.sign_at({1: Fraction(1), 0: -c}, th) == 1
    assert exact.sign_at({1: Fraction(1), 0: -(c + Fraction(1, 10**18))}, th) == -1
    assert exact.sign_at({}, th) == 0


def test_table3_laplace_rows_are_the_capped_mechanism_and_say_so():
    """a: records hold capped counts min(B, cap); the Laplace rows report the law of the
    Laplace mechanism on that capped count (P(1) at B = cap is P(Z >= cap - beta), not the far smaller uncapped
    P(Z >= B - beta)) and their claim says 'capped count'."""
    import pandas as pd

    from privanomaly.paper_a import detection

    beta, cap, eps = 2, 8, 1.0
    rec = pd.DataFrame({"record": [0, 1], "label": np.array([0, 1], np.int8), "x_i": [1, 1], "B": [cap, 1],
                        "anomaly": [False, True], "cap": cap})
    p = detection.mechanism_probs(rec, beta, 1, eps)["Laplace (count)"]
    assert p[0] == pytest.approx(float(sp.dlap_sf(cap - beta, sp.rational_rate(eps))), rel=1e-12)
    m = M.get("laplace_count")
    d = m.exact_distribution(1, 10**6, beta=beta, eps=eps, cap=cap)  # any true B >= cap: the same law
    assert math.exp(exact.log_value(d.probs[1], d.theta)) == pytest.approx(p[0], rel=1e-12)
    rows = detection.private_rows(rec, beta, 1, eps).set_index("method")
    assert "capped count min(B, 8)" in rows.loc["Laplace (count)", "note"]
    assert rows.loc["Laplace (noisy threshold)", "note"].startswith("0.5-DP on add_remove")
    uncapped = rec.assign(cap=-1)
    assert "capped" not in detection.private_rows(uncapped, beta, 1, eps).set_index("method").loc[
        "Laplace (count)", "note"]
