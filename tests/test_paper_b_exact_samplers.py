"""Paper B's samplers are exact: no float draw decides an output, laws match, claims = rate used."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from privanomaly import mechanisms as M
from privanomaly import seeding
from privanomaly.outliers import exact_random as xr
from privanomaly.outliers import exponential as ex
from privanomaly.paper_b import scenario2
from privanomaly.sp.dlap import rational_rate


class NoFloatGenerator(np.random.Generator):
    """A Generator whose float draws raise: an exact sampler only ever calls ``integers``."""

    def _refuse(self, *a, **kw):
        raise AssertionError("a floating-point variate was drawn")

    random = uniform = standard_normal = normal = gumbel = choice = _refuse
    exponential = standard_exponential = permutation = shuffle = _refuse


def no_float_rng(*keys) -> NoFloatGenerator:
    return NoFloatGenerator(np.random.PCG64(seeding.seed_sequence(12, "paper_b_exact", *keys)))


class ScriptedGenerator(np.random.Generator):
    """``integers`` returns scripted values first (to force the digit ties of probability 2^-62)."""

    def __init__(self, script):
        super().__init__(np.random.PCG64(0))
        self.script = list(script)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if self.script:
            v = self.script.pop(0)
            return v if size is None else np.full(size, v, dtype=dtype)
        return super().integers(low, high, size=size, dtype=dtype, endpoint=endpoint)


U = np.array([0.9, 0.1, 0.5, 0.0, 0.7, 0.3])


# ------------------------------------------------------------------ exact Bernoulli of big rationals


def test_bernoulli_rational_decides_digit_ties_exactly():
    base = 2**62
    p = Fraction(5, base) + Fraction(1, 3 * base)  # first digit 5, then 1/3
    # first digit equal (5), the next digit decides: below floor(2^62/3) -> True, above -> False
    assert xr.bernoulli_rational(ScriptedGenerator([5, 0]), [p], np.array([0]))[0]
    assert not xr.bernoulli_rational(ScriptedGenerator([5, base - 1]), [p], np.array([0]))[0]
    assert not xr.bernoulli_rational(ScriptedGenerator([5]), [Fraction(5, base)], np.array([0]))[0]  # U >= p
    assert xr.bernoulli_rational(ScriptedGenerator([base - 1]), [Fraction(1)], np.array([0]))[0]
    assert not xr.bernoulli_rational(ScriptedGenerator([0]), [Fraction(0)], np.array([0]))[0]


def test_bernoulli_exp_rational_matches_exp_for_huge_denominators_and_gamma_above_one():
    gammas = [Fraction(1, 3) + Fraction(1, 2**200), Fraction(7, 3), Fraction(0), Fraction(int(2**80) + 1, 2**79)]
    n = 100_000
    rng = no_float_rng("bexp")
    for j, g in enumerate(gammas):
        draws = xr.bernoulli_exp_rational(rng, gammas, np.full(n, j))
        p = math.exp(-float(g))
        assert abs(draws.sum() - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 1


def test_lazy_uniforms_compare_equal_leading_digits_by_further_digits():
    pool = xr.LazyUniforms(ScriptedGenerator([7, 3, 1, 2]))
    a, b = pool.new(1)[0], pool.new(1)[0]
    pool.head[b] = pool.head[a]  # force equal first digits
    assert pool.less(np.array([a]), np.array([b]))[0] == (pool.digits(a, 2)[1] < pool.digits(b, 2)[1])
    assert not pool.less(np.array([a]), np.array([a]))[0]


# ------------------------------------------------------------------ exponential mechanism / top-h


@pytest.mark.parametrize("name", ["exp_top_h", "exp_top_h_printed"])
def test_top_h_samplers_never_draw_a_float(name):
    """Fails on the Gumbel-top-h sampler (rng.gumbel) and on rng.choice with float probabilities."""
    m = M.get(name)
    sel = m.sample(U, h=2, eps=1.6, rng=no_float_rng(name), n_trials=500)
    assert sel.shape == (500, U.size) and np.all(sel.sum(axis=1) == 2)
    order = ex.top_h_subspaces(U, 3, 1.6, no_float_rng(name, "seq"))
    assert len(set(order.tolist())) == 3
    for exponent in scenario2.EXPONENTS:
        assert np.all(scenario2.TopH(exponent).trials(U, 3, 0.8, no_float_rng(name, exponent), 50).sum(1) == 3)


@pytest.mark.parametrize(("h", "eps", "sens"), [(1, 6.0, 1.0), (2, 6.0, 1.0), (3, 40.0, 0.5), (2, 0.003, 1.0)])
def test_exact_top_h_sampler_matches_the_sequence_law(h, eps, sens):
    """Ordered outputs vs the exact law (chi-square); eps = 40 makes gamma > 1 (integer part of the Bernoulli)."""
    u = U * 3 if eps > 10 else U
    seq = ex.top_h_sequence_probs(u, h, eps, sensitivity=sens)
    n = 60_000
    draws = ex.top_h_draws(u, h, eps, no_float_rng("law", h, eps), n, sensitivity=sens)
    keys = sorted(seq)
    code = {kk: i for i, kk in enumerate(keys)}
    obs = np.bincount([code[tuple(r)] for r in draws.tolist()], minlength=len(keys))
    exp_ = np.array([seq[kk] for kk in keys]) * n
    big = exp_ >= 5  # pool the tiny cells (chi-square validity)
    obs_b = np.append(obs[big], obs[~big].sum())
    exp_b = np.append(exp_[big], exp_[~big].sum())
    keep = exp_b > 0
    assert obs[exp_ == 0].sum() == 0
    assert stats.chisquare(obs_b[keep], exp_b[keep] * obs_b[keep].sum() / exp_b[keep].sum()).pvalue > 1e-3


def test_wrong_rate_sampler_is_rejected_by_the_same_goodness_of_fit():
    """Negative control of the chi-square check above: draws at 2 eps are not the law at eps."""
    seq = ex.top_h_sequence_probs(U, 2, 3.0)
    draws = ex.top_h_draws(U, 2, 6.0, no_float_rng("control"), 60_000)
    keys = sorted(seq)
    code = {kk: i for i, kk in enumerate(keys)}
    obs = np.bincount([code[tuple(r)] for r in draws.tolist()], minlength=len(keys))
    assert stats.chisquare(obs, np.array([seq[kk] for kk in keys]) * 60_000).pvalue < 1e-6


@pytest.mark.parametrize("eps", [0.2, 1.6, 7e-10, 3.2])
def test_top_h_claims_report_the_rational_rate_used(eps):
    rate = rational_rate(eps)
    c = M.get("exp_top_h").claim(eps=eps)
    assert c.epsilon_exact == rate and rate <= Fraction(eps) and c.epsilon == float(rate)
    p = M.get("exp_top_h_printed").claim(eps=eps)
    assert p.epsilon_exact == 2 * rate and p.epsilon_exact <= 2 * Fraction(eps)
    assert ex.draw_rate(eps, 4) * 4 == rate
    # the exact law is the law at that rate: one draw, weights exp(rate u / 2)
    w = np.exp(float(rate) * U / 2)
    assert np.allclose(ex.exp_mech_probs(U, eps), w / w.sum(), rtol=1e-14, atol=0)


def test_top_h_is_reproducible_from_the_seed():
    a = ex.top_h_trials(U, 2, 1.0, seeding.rng(3, "x"), 200)
    b = ex.top_h_trials(U, 2, 1.0, seeding.rng(3, "x"), 200)
    assert np.array_equal(a, b)
    assert list(itertools.chain(ex.top_h_draws(U, 1, 1.0, seeding.rng(3, "y"), 0).shape)) == [0, 1]


# ------------------------------------------------------------------ Gaussian release (Karney + fixed grid)

from privanomaly.outliers import exact_normal as xn  # noqa: E402
from privanomaly.outliers import gaussian_release  # noqa: E402

X_SMALL = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [3.0, 3.0], [3.1, 2.9], [9.0, 0.0], [0.05, 0.05]])


@pytest.mark.parametrize("name", ["gaussian_gs_upper", "gaussian_gs_lower", "gaussian_smooth_paper",
                                  "gaussian_smooth_fast"])
def test_gaussian_samplers_never_draw_a_float_and_release_grid_points(name):
    """Fails on ``q + sigma rng.standard_normal()``."""
    m = M.get(name)
    y = m.sample(X_SMALL, k=1, r=0.5, eps=0.8, delta=0.01, rng=no_float_rng(name), n_trials=2000)
    assert y.shape == (2000,)
    assert np.all(y * 2.0**-xn.GRID_EXPONENT == np.round(y * 2.0**-xn.GRID_EXPONENT))  # multiples of 2^-32
    mean, sigma = m.exact_distribution(X_SMALL, k=1, r=0.5, eps=0.8, delta=0.01)
    assert stats.kstest(y, lambda t: m.release_cdf(t, X_SMALL, k=1, r=0.5, eps=0.8, delta=0.01)).pvalue > 1e-4
    assert abs(np.median(y) - mean) < 0.2 * sigma


@pytest.mark.parametrize(("q", "sigma"), [(0.0, 1.0), (7.0, 163.25), (1e5, 0.001), (-3.5, 2.0**40), (0.0, 3e-10)])
def test_exact_gaussian_release_matches_the_rounded_normal_law(q, sigma):
    """sigma = 2^40 sends almost every draw through the digit refinement of the bin decision; sigma = 3e-10 is
    about one grid step (the law is visibly discrete)."""
    n = 40_000
    y = gaussian_release(q, sigma, no_float_rng("ks", q, sigma), n)
    if sigma > 1e-6:
        assert stats.kstest(y, lambda t: xn.rounded_normal_cdf(t, q, sigma)).pvalue > 1e-4
    else:  # a handful of grid points: chi-square on them
        pts, obs = np.unique(y, return_counts=True)
        g = float(xn.GRID)
        p = xn.rounded_normal_cdf(pts, q, sigma) - xn.rounded_normal_cdf(pts - g, q, sigma)
        assert p.sum() > 1 - 1e-4 and stats.chisquare(obs, p / p.sum() * n).pvalue > 1e-4


def test_wrong_sigma_is_rejected_by_the_same_goodness_of_fit():
    y = gaussian_release(7.0, 163.25 / 2, no_float_rng("ks-control"), 40_000)
    assert stats.kstest(y, lambda t: xn.rounded_normal_cdf(t, 7.0, 163.25)).pvalue < 1e-10


def test_grid_index_is_the_exact_rounding_of_q_plus_sigma_z():
    """The bin chosen from x's first digit equals the bin of the exact value with two digits of x."""
    rng = no_float_rng("grid")
    s, k, x, pool = xn.sample_standard_normal_parts(rng, 3000)
    for q, sigma in [(Fraction(7), Fraction(163.25)), (Fraction(-3.5), Fraction(2**40)), (Fraction(1, 8), Fraction(1e-9))]:
        j = xn._grid_index(q, sigma, s, k, x, pool)
        for t in range(0, 3000, 7):
            d0, d1 = pool.digits(int(x[t]), 2)
            xv = Fraction(d0 * 2**62 + d1, 2**124)  # within 2^-124 of x: the bin agrees unless x is that close
            want = math.floor((q + sigma * int(s[t]) * (int(k[t]) + xv)) / xn.GRID + Fraction(1, 2))
            assert j[t] == want


def test_karney_integer_part_and_algorithm_b_follow_their_laws():
    n = 200_000
    s, k, x, pool = xn.sample_standard_normal_parts(no_float_rng("parts"), n)
    assert set(np.unique(s)) == {-1, 1} and abs((s == 1).mean() - 0.5) < 0.005
    cells = np.arange(5)
    p = np.append(2 * (stats.norm.cdf(cells + 1) - stats.norm.cdf(cells)), 2 * stats.norm.sf(5))[:5]
    obs = np.bincount(np.minimum(k, 4), minlength=5)
    p[-1] += 1 - p.sum()
    assert stats.chisquare(obs, p * n).pvalue > 1e-4
    from scipy import integrate

    for kk in (0, 1, 3):  # P(B true) averaged over x uniform = int_0^1 exp(-x (2k + x) / (2k + 2)) dx
        m = 100_000
        pool = xr.LazyUniforms(no_float_rng("B", kk))
        got = xn._algorithm_b(pool.rng, pool, np.full(m, kk, dtype=np.int64), pool.new(m)).mean()
        want = integrate.quad(lambda t: math.exp(-t * (2 * kk + t) / (2 * kk + 2)), 0, 1)[0]
        assert abs(got - want) < 5 * math.sqrt(want * (1 - want) / m)


def test_gaussian_release_edge_cases():
    assert gaussian_release(3.0, 0.0, no_float_rng("zero")) == 3.0
    assert np.all(gaussian_release(1.0 + 2.0**-40, 0.0, no_float_rng("zero"), 3) == 1.0)  # rounded to the grid
    a = gaussian_release(1.0, 1.0, seeding.rng(1, "g"), 5)
    assert np.array_equal(a, gaussian_release(1.0, 1.0, seeding.rng(1, "g"), 5))
    with pytest.raises(TypeError):
        gaussian_release(np.array([1.0, 2.0]), 1.0, seeding.rng(1, "g"), 2)
    with pytest.raises(ValueError):
        gaussian_release(1.0, -1.0, seeding.rng(1, "g"), 2)
    assert gaussian_release(1.0, 1.0, seeding.rng(1, "g"), 0).shape == (0,)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gaussian_gs_upper_half_sigma_sampler", "exp_top_h_double_rate_sampler"])
def test_harness_catches_a_sampler_that_does_not_sample_its_law(name):
    """The controls' laws and claims are right, only their samplers are wrong: the exhaustive checks pass and
    the harness's goodness-of-fit of the sampler against the exact law catches them."""
    from privanomaly.audit import controls, harness

    m = controls.paper_b_controls()[name]
    row = harness.audit_mechanism(m, harness.LEVELS["fast"], "negative control", "fail")
    assert row.exhaustive_pass and row.statistical_pass is False and row.result == "caught"
    assert "exact law" in row.cp_detail
