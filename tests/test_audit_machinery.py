"""The statistical privacy audit itself (privanomaly.audit), checked on hand-written mechanisms.

Proves: the Clopper–Pearson bounds are the textbook values; the audit is valid (it does not report a
violation for a mechanism that is exactly ε-DP, not even across many seeds at more than the α rate),
has power (ε̂ is close to ε for a mechanism that attains ε) and catches broken mechanisms; the exact
(closed-form) privacy-loss helpers agree with analytic formulas; results are reproducible from the seed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from privanomaly import audit


def rr_p_one(bit: int, eps: float) -> float:
    """Randomised response: report the true bit with probability e^ε/(1+e^ε) — exactly ε-DP."""
    keep = math.exp(eps) / (1 + math.exp(eps))
    return keep if bit == 1 else 1 - keep


# ------------------------------------------------------------------ Clopper–Pearson
def test_cp_textbook_values():
    # k = 0 and k = n have closed forms: upper = 1 - α^(1/n), lower = α^(1/n)
    n, a = 50, 0.05
    assert audit.cp_upper(0, n, a) == pytest.approx(1 - a ** (1 / n), rel=1e-10)
    assert audit.cp_lower(n, n, a) == pytest.approx(a ** (1 / n), rel=1e-10)
    assert audit.cp_lower(0, n, a) == 0.0 and audit.cp_upper(n, n, a) == 1.0
    # two-sided 95% interval for 5/10 is (0.187086, 0.812914) (standard tables)
    assert audit.cp_lower(5, 10, 0.025) == pytest.approx(0.187086, abs=1e-6)
    assert audit.cp_upper(5, 10, 0.025) == pytest.approx(0.812914, abs=1e-6)


def test_cp_bounds_bracket_the_estimate_and_are_monotone():
    k = np.arange(0, 101)
    lo, hi = audit.cp_lower(k, 100, 0.01), audit.cp_upper(k, 100, 0.01)
    assert np.all(lo <= k / 100) and np.all(hi >= k / 100)
    assert np.all(np.diff(lo) > 0) and np.all(np.diff(hi) > 0)


@pytest.mark.parametrize(
    "call, msg",
    [
        (lambda: audit.cp_lower(3, 10, 0.0), "alpha must be in"),
        (lambda: audit.cp_upper(11, 10, 0.05), "counts must lie in"),
        (lambda: audit.cp_upper(1, 0, 0.05), "n must be a positive integer"),
        (lambda: audit.point_events([]), "empty"),
        (lambda: audit.interval_events([1.0, 0.0]), "strictly increasing"),
        (lambda: audit.epsilon_lower_bound({"a": 1}, {"b": 1}, 10), "same events"),
        (lambda: audit.epsilon_lower_bound({"a": 1}, {"a": 1}, 10, delta=1.0), "delta must be in"),
    ],
)
def test_bad_arguments_are_rejected(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()


# ------------------------------------------------------------------ validity and power
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0])
def test_exact_mechanism_passes_with_power(eps):
    res = audit.audit(
        audit.bernoulli_sampler(rr_p_one(1, eps)),
        audit.bernoulli_sampler(rr_p_one(0, eps)),
        audit.point_events([0, 1]),
        n=400_000,
        seed=1,
        label=f"rr-{eps}",
    )
    assert res.epsilon_lower <= eps
    # power: the bound comes within a few per cent (absolute 0.03) of the true ε
    assert res.epsilon_lower >= eps - 0.03, res
    assert res.n_bounds == 8


def test_false_positive_rate_is_below_alpha():
    """Over 300 independent audits of an exactly-ε mechanism, violations happen in ≤ α of them (α = 0.2)."""
    eps, alpha, runs = 1.0, 0.2, 300
    violations = sum(
        audit.audit(
            audit.bernoulli_sampler(rr_p_one(1, eps)),
            audit.bernoulli_sampler(rr_p_one(0, eps)),
            audit.point_events([0, 1]),
            n=2_000,
            seed=seed,
            alpha=alpha,
        ).violates(eps)
        for seed in range(runs)
    )
    # Bonferroni makes the audit conservative; the binomial 99.9% quantile of Bin(300, 0.2) is 82
    assert violations <= stats.binom.ppf(0.999, runs, alpha)
    assert violations < runs * alpha


@pytest.mark.parametrize("eps", [0.25, 1.0])
def test_broken_mechanism_is_caught(eps):
    # claims ε but really is 2ε-DP
    res = audit.audit(
        audit.bernoulli_sampler(rr_p_one(1, 2 * eps)),
        audit.bernoulli_sampler(rr_p_one(0, 2 * eps)),
        audit.point_events([0, 1]),
        n=200_000,
        seed=2,
    )
    assert res.violates(eps)
    assert res.epsilon_lower == pytest.approx(2 * eps, abs=0.05)


def test_audit_is_reproducible_and_direction_reported():
    args = (audit.bernoulli_sampler(0.2), audit.bernoulli_sampler(0.6), audit.point_events([0, 1]))
    r1 = audit.audit(*args, n=10_000, seed=7, label="x")
    r2 = audit.audit(*args, n=10_000, seed=7, label="x")
    r3 = audit.audit(*args, n=10_000, seed=8, label="x")
    assert r1 == r2 and r1.count_x != r3.count_x
    # P_y(1)/P_x(1) = 3 is the larger ratio: ln 3 ≈ 1.10 (vs ln(0.8/0.4) = 0.69)
    assert r1.direction == "y/x" and r1.event == "==1"
    assert 0.9 < r1.epsilon_lower < math.log(3)


def test_zero_count_never_gives_infinite_bound():
    # P_y(E) = 0 exactly: the upper bound is still > 0, so ε̂ is finite but large
    res = audit.audit(
        audit.bernoulli_sampler(0.5), audit.bernoulli_sampler(0.0), audit.point_events([0, 1]), n=100_000, seed=3
    )
    assert math.isfinite(res.epsilon_lower) and res.epsilon_lower > 8


def test_gaussian_with_delta_and_threshold_events():
    """Gaussian mechanism, sensitivity 1, σ from the classic bound for (ε, δ) = (1, 1e-5): passes with δ;
    the same samples audited with δ = 0 expose an ε̂ well above what a pure-DP claim would allow."""
    eps, delta = 1.0, 1e-5
    sigma = math.sqrt(2 * math.log(1.25 / delta)) / eps
    thresholds = np.linspace(-4 * sigma, 5 * sigma, 37)
    ev = audit.threshold_events(thresholds)
    sx = lambda g, n: g.normal(0.0, sigma, n)  # noqa: E731
    sy = lambda g, n: g.normal(1.0, sigma, n)  # noqa: E731
    res = audit.audit(sx, sy, ev, n=200_000, seed=4, delta=delta)
    assert res.epsilon_lower <= eps
    # a Gaussian with σ = 0.2 (≈ sensitivity/σ = 5) is far from (1, 1e-5)-DP: caught
    bad = audit.audit(
        lambda g, n: g.normal(0, 0.2, n), lambda g, n: g.normal(1, 0.2, n), ev, n=200_000, seed=4, delta=delta
    )
    assert bad.violates(eps)


# ------------------------------------------------------------------ exact privacy loss helpers
def test_exact_epsilon_of_randomised_response_and_hockey_stick():
    p = audit.binary_distribution(rr_p_one(1, 0.7))
    q = audit.binary_distribution(rr_p_one(0, 0.7))
    assert audit.exact_epsilon(p, q) == pytest.approx(0.7, abs=1e-12)
    assert audit.hockey_stick(p, q, 0.7) == pytest.approx(0.0, abs=1e-15)
    assert audit.exact_epsilon(np.array([0.5, 0.5]), np.array([1.0, 0.0])) == math.inf


def test_hockey_stick_matches_analytic_gaussian():
    """Balle & Wang (2018): δ(ε) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) for N(0,σ²) vs N(Δ,σ²)."""
    sigma, shift, eps = 1.3, 1.0, 0.8
    edges = np.linspace(-15, 16, 200_001)
    p = np.diff(stats.norm.cdf(edges, 0, sigma))
    q = np.diff(stats.norm.cdf(edges, shift, sigma))
    a, b = shift / (2 * sigma), eps * sigma / shift
    analytic = stats.norm.cdf(a - b) - math.exp(eps) * stats.norm.cdf(-a - b)
    assert audit.hockey_stick(p, q, eps) == pytest.approx(analytic, rel=1e-4)
    # and exact_epsilon inverts it
    assert audit.exact_epsilon(p, q, delta=analytic) == pytest.approx(eps, abs=1e-3)


@pytest.mark.parametrize(
    "m1, s1, m2, s2, eps",
    [(0.0, 1.3, 1.0, 1.3, 0.8), (0.0, 1.0, 0.5, 2.0, 0.3), (2.0, 3.0, 0.0, 1.5, 0.1), (0.0, 1.0, 0.0, 1.2, 0.05)],
)
def test_gaussian_hockey_stick_closed_form_matches_integration(m1, s1, m2, s2, eps):
    x = np.linspace(-40, 40, 800_001)
    p, q = stats.norm.pdf(x, m1, s1), stats.norm.pdf(x, m2, s2)
    numeric = np.trapezoid(np.maximum(0.0, p - math.exp(eps) * q), x)
    assert audit.gaussian_hockey_stick(m1, s1, m2, s2, eps) == pytest.approx(numeric, rel=1e-6, abs=1e-12)
    if s1 == s2:  # Balle & Wang closed form
        a, b = abs(m2 - m1) / (2 * s1), eps * s1 / abs(m2 - m1)
        bw = stats.norm.cdf(a - b) - math.exp(eps) * stats.norm.cdf(-a - b)
        assert audit.gaussian_hockey_stick(m1, s1, m2, s2, eps) == pytest.approx(bw, rel=1e-9)
    d = audit.gaussian_hockey_stick(m1, s1, m2, s2, eps)
    if d > 1e-9:
        assert audit.gaussian_epsilon(m1, s1, m2, s2, d, symmetric=False) == pytest.approx(eps, abs=1e-6)


def test_worst_edge_on_a_path_graph():
    """States 0..5 on a path; a mechanism whose 'noise level' drops at state 3 has its worst edge at (2,3)."""
    eps_of = {0: 0.1, 1: 0.1, 2: 0.1, 3: 0.9, 4: 0.9, 5: 0.9}
    dist = lambda s: audit.binary_distribution(rr_p_one(s % 2, eps_of[s]))  # noqa: E731
    edge, loss = audit.worst_edge([(i, i + 1) for i in range(5)], dist)
    assert edge in [(2, 3), (3, 4), (4, 5)]
    assert loss == pytest.approx(max(audit.exact_epsilon(dist(a), dist(a + 1)) for a in range(5)))
    assert loss > 0.9
