"""The library's paper-B numbers against independent brute-force oracles (tests/oracle_paper_b.py).

q_count in exact arithmetic (subspaces, duplicates, ties); local, smooth and global sensitivity by
enumerating every dataset of a small discrete domain (Defs. 2, 3, 5); the smooth bound of eqs. (29)-(31) in
1-D from its definition; the Gaussian mechanisms' sigma for every implemented reading of Theorems 1-2;
Algorithm 3's law by enumeration.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

import oracle_paper_a
import oracle_paper_b as O
from privanomaly import mechanisms
from privanomaly import outliers as ol
from privanomaly.outliers.smooth import horizon
from privanomaly.paper_b import scenario2

# ------------------------------------------------------------------------------------------ q_count
RADIUS_BAND = 2e-9  # the library counts dist_S <= r (1 + 1e-9) (documented); below this band it must be exact


def _tie_radii(X, S):
    """dist_S values of X that are exact floats: sqrt(m / |S|) with m / |S| a perfect square (integer data)."""
    out = set()
    for a, b in itertools.combinations(np.asarray(X), 2):
        m = float(sum((a[i] - b[i]) ** 2 for i in S))
        if m % len(S) == 0 and math.isqrt(int(m) // len(S)) ** 2 == int(m) // len(S) and m > 0:
            out.add(float(math.isqrt(int(m) // len(S))))
    return sorted(out)


@pytest.mark.slow
def test_q_count_equals_exact_count_in_every_subspace():
    rng = np.random.default_rng(5)
    checked = 0
    for trial in range(12):
        d = 1 + trial % 3
        X = rng.integers(-3, 4, size=(int(rng.integers(4, 9)), d)).astype(float)
        X = np.vstack([X, X[:2]])  # duplicates are neighbours of each other (distance 0 <= r)
        for size in range(1, d + 1):
            for S in itertools.combinations(range(d), size):
                for r0 in _tie_radii(X, S) + [0.5, 1.5]:
                    for r in (r0, np.nextafter(r0, np.inf), r0 * (1 - 2 * RADIUS_BAND)):
                        for k in (1, 2, 3):
                            assert ol.q_count(X, k, r, S) == O.q_count(X, k, r, S), (X.tolist(), S, r, k)
                        assert np.array_equal(ol.neighbour_counts(X, r, S), O.degrees(X, r, S))
                        checked += 1
    assert checked > 100


def test_q_count_counts_a_tie_under_the_subspace_scaling():
    """(0, 0) and (1, 1): dist_{(0,1)} = sqrt((1 + 1) / 2) = 1 exactly; with k = 1 neither is an outlier at r = 1."""
    X = np.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0]])
    assert ol.q_count(X, 1, 1.0) == O.q_count(X, 1, 1.0) == 1
    assert ol.q_count(X, 1, 1.0 * (1 - 2 * RADIUS_BAND)) == O.q_count(X, 1, 0.999) == 3


# ------------------------------------------------------------------------------------------ sensitivities
@functools.lru_cache(maxsize=None)
def _domain(name: str) -> O.Domain:
    if name == "line":  # 1-D integers, r = 1: pairs at exactly r, duplicates
        return O.Domain(np.arange(8)[:, None], 5, 2, 1.0)
    if name == "line_k1":
        return O.Domain(np.arange(8)[:, None], 5, 1, 1.0)
    if name == "square":  # 3 x 3 grid, r = 1 in dist_S (diagonal pairs at exactly r)
        return O.Domain([[a, b] for a in range(3) for b in range(3)], 4, 1, 1.0)
    raise KeyError(name)


DOMAINS = ("line", "line_k1", "square")


@pytest.mark.parametrize("name", DOMAINS)
def test_local_sensitivity_against_enumeration(name):
    """Theorem 5's bound >= LS over the domain (eq. 22 by enumeration), and the library's grid brute force = it."""
    D = _domain(name)
    grid = np.array(D.D)
    for n in range(0, len(D.sets), 3):
        X = D.points(n)
        assert ol.q_count(X, D.k, D.r) == D.q[n]
        assert ol.local_sensitivity_bound(X, D.k, D.r) >= D.ls[n]
        assert ol.local_sensitivity_exact_grid(X, D.k, D.r, grid) == D.ls[n]


@pytest.mark.parametrize("name", DOMAINS)
def test_global_sensitivity_bounds_against_enumeration(name):
    """GS over the domain (Def. 2) lies between Theorem 4's bounds and equals the proven exact value."""
    D = _domain(name)
    d = len(D.D[0])
    gs = D.gs()
    assert ol.gs_lower(D.N, d, D.k) <= gs <= ol.gs_upper(D.N, d, D.k)
    assert gs == ol.gs_exact(d, D.k, D.N)  # the domain is fine enough to attain it


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
@pytest.mark.parametrize("method", ["paper", "fast"])
@pytest.mark.parametrize("beta", [0.05, 0.4])
def test_smooth_bound_dominates_smooth_sensitivity_and_is_smooth(name, method, beta):
    """Def. 4 on the domain: S(X) >= S*_beta(X) >= LS(X) (eq. 8 by enumeration) and S(X) <= e^beta S(X')."""
    D = _domain(name)
    star = D.smooth(beta)
    S = np.array([ol.smooth_sensitivity(D.points(n), D.k, D.r, beta, method=method).value
                  for n in range(len(D.sets))])
    assert np.all(S >= star * (1 - 1e-12))
    assert np.all(star >= D.ls)
    for n, nb in enumerate(D.nbrs):
        assert np.all(S[n] <= math.exp(beta) * S[nb] * (1 + 1e-12))


def test_algorithm2_equals_the_theorem6_bound_on_a_line():
    """Algorithm 2 (with its early stop) returns max_t e^{-t beta} min(N, max_c M(W_t^c) + t + 1), eqs. (29)-(31)."""
    rng = np.random.default_rng(11)
    for trial in range(40):
        x = rng.integers(0, 12, size=int(rng.integers(3, 12))).astype(float) / 2.0
        k, r, beta = int(rng.integers(1, 4)), float(rng.choice([0.5, 1.0, 1.5])), float(rng.choice([0.02, 0.2, 1.0]))
        want, bounds = O.theorem6_smooth_1d(x, k, r, beta)
        for early in (True, False):
            res = ol.algorithm2(x[:, None], k, r, beta, early_stop=early)
            assert math.isclose(res.value, want, rel_tol=1e-12), (x, k, r, beta)
        full = ol.algorithm2(x[:, None], k, r, beta, early_stop=False)
        # every t below the public horizon (outliers.smooth.horizon; B_t = N is used beyond it, and the value
        # above is the maximum over every t)
        n = len(full.ls_bounds)
        assert 1 <= n <= len(bounds) and n == min(len(bounds), horizon(len(x), beta)), (n, len(bounds))
        assert full.ls_bounds.tolist() == bounds[:n]


# ------------------------------------------------------------------------------------------ Gaussian sigmas
def _want_scales(name: str, gs: float, eps: float, delta: float):
    ln, lg = math.log(2 / delta), math.log10(2 / delta)
    sig = {"log10_global": gs * math.sqrt(2 * lg) / eps, "global_variance_as_std": gs**2 * 2 * ln / eps**2}.get(
        name, gs * math.sqrt(2 * ln) / eps)
    factor = 1.0 if name in ("alpha_without_5", "beta_equals_eps_alpha_without_5", "local_theorem1") else 5.0
    alpha = eps / (factor * math.sqrt(2 * ln))
    beta = eps if name in ("beta_equals_eps", "beta_equals_eps_alpha_without_5", "local_theorem1") else eps / (4 * (1 + ln))
    return sig, alpha, beta


@pytest.mark.parametrize("name", sorted(ol.CONVENTIONS))
@pytest.mark.parametrize("eps", [0.1, 0.5, 0.9, 3.0])
def test_noise_scales_of_every_reading(name, eps):
    delta, gs = 0.01, 13
    sig, alpha, beta = _want_scales(name, gs, eps, delta)
    got = ol.noise_scales(ol.CONVENTIONS[name], gs, eps, delta)
    assert math.isclose(got.sigma_global, sig, rel_tol=1e-12)
    assert math.isclose(got.alpha, alpha, rel_tol=1e-12) and math.isclose(got.beta, beta, rel_tol=1e-12)
    if name == "printed":  # the proven scales are rounded to the safe side
        assert got.sigma_global >= sig and got.alpha <= alpha and got.beta <= beta


def test_printed_sigma_global_is_refused_where_theorem1_fails():
    """sigma = GS sqrt(2 ln(2/delta))/eps is (eps, delta)-DP only while the exact Gaussian delta(eps) <= delta."""
    from scipy.stats import norm

    delta = 0.01
    c = math.sqrt(2 * math.log(2 / delta))
    exact = lambda e: norm.cdf(e / (2 * c) - c) - math.exp(e) * norm.cdf(-e / (2 * c) - c)  # Balle & Wang
    for eps in (1.0, 5.0, 7.0, 8.5, 12.0):
        got = ol.noise_scales(ol.CONVENTIONS["printed"], 13, eps, delta).sigma_global
        assert math.isnan(got) == (exact(eps) > delta), eps


# ------------------------------------------------------------------------------------------ top-h (Algorithm 3)
@pytest.mark.parametrize("h", [1, 2, 3])
@pytest.mark.parametrize("eps", [0.2, 1.6, 40.0])
def test_top_h_law_against_enumeration(h, eps):
    u = np.array([5, 0, 2, 2, 1]) / 7.0  # q_count / GS^UB for 1-D subspaces, k = 3 (eq. 51)
    rate = oracle_paper_a.rate(eps)  # the rational rate <= eps the sampler uses: what the claim states
    assert rate <= eps
    law = O.top_h_law(u, h, rate)
    got = ol.top_h_sequence_probs(u, h, eps)
    assert set(got) == set(law)
    for seq, p in law.items():
        assert math.isclose(got[seq], p, rel_tol=1e-9, abs_tol=1e-300)
    inc = O.inclusion(law, len(u))
    np.testing.assert_allclose(ol.top_h_inclusion_probs(u, h, eps), inc, rtol=1e-9, atol=1e-15)
    truth = np.array([True, False, True, False, False])
    prec, rec = scenario2.expected_precision_recall(ol.top_h_inclusion_probs(u, h, eps), truth, h)
    assert math.isclose(prec, inc[truth].sum() / h, rel_tol=1e-9) and math.isclose(rec, inc[truth].sum() / 2, rel_tol=1e-9)
    claim = mechanisms.get("exp_top_h").claim(eps=eps, h=h)
    assert claim.epsilon == rate and claim.delta == 0


def test_subspace_utility_is_count_over_the_gs_upper_bound():
    """eq. (51): u = q_count / min(N, k K_|S| + 1), K_1 = 2, K_2 = 6, K_3 = 12."""
    for dim, K in ((1, 2), (2, 6), (3, 12)):
        for N in (4, 50):
            assert math.isclose(float(ol.subspace_utility(4, N, dim, 3)), 4 / min(N, 3 * K + 1))


@pytest.mark.parametrize("scale", [2.0**-700, 2.0**-540, 2.0**500, 1e-200])
def test_q_count_is_exact_at_extreme_scales(scale):
    """dist_S <= r does not depend on the unit: data and r times 2^-700 (squares underflow) give the exact degrees."""
    X = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 6.0], [10.0, 0.0], [10.0, 0.0], [0.0, 2.0]]) * scale
    for S in (None, (0,), (1,)):
        for r in np.array([1.0, 2.0, 3.0, 4.5]) * scale:
            assert np.array_equal(ol.neighbour_counts(X, r, S), O.degrees(X, r, S)), (S, r)
            for k in (1, 2):
                assert ol.q_count(X, k, r, S) == O.q_count(X, k, r, S)


@pytest.mark.parametrize("method", ["paper", "fast"])
def test_smooth_bound_does_not_depend_on_the_unit(method):
    """S(X s, r s) = S(X, r) for s = 2^-700 (exact scaling): the degrees that pick the windows are exact there too."""
    rng = np.random.default_rng(6)
    for _ in range(8):
        X = rng.integers(0, 6, size=(9, 2)).astype(float)
        a = ol.smooth_sensitivity(X, 2, 1.0, 0.1, method=method)
        b = ol.smooth_sensitivity(X * 2.0**-700, 2, 2.0**-700, 0.1, method=method)
        assert a.value == b.value and a.ls_bounds.tolist() == b.ls_bounds.tolist()


@pytest.mark.parametrize("scale", [2.0**-700, 2.0**600])
def test_r_tuning_accuracy_does_not_depend_on_the_unit(scale):
    """Eq. (53) accuracy of Def. 8's outliers at data and radii times 2^-700 equals the exact count."""
    from privanomaly.paper_b import tuning

    rng = np.random.default_rng(13)
    X = rng.integers(-3, 4, size=(15, 2)).astype(float)
    y = (rng.random(15) < 0.3).astype(int)
    radii = np.array([0.5, 1.0, 1.5, 2.5])
    curve = tuning.accuracy_curve(X * scale, y, 2, radii * scale, "full")
    for row, r in zip(curve.itertuples(), radii):
        pred = np.array([dg < 2 for dg in O.degrees(X * scale, r * scale)])
        assert row.n_correct == int((pred == (y == 1)).sum()), r


@pytest.mark.parametrize("h", [1, 2])
def test_printed_exponent_law_and_its_2eps_claim(h):
    """exp_top_h_printed: each draw ∝ exp((ε/h) u) among the remaining candidates (eq. 11 as printed), which
    Theorem 3 makes 2 (ε/h) Δu-DP per draw: 2 ε in total with Δu = 1."""
    u = np.array([5, 0, 2, 2, 1]) / 7.0
    eps = 0.8
    rate = oracle_paper_a.rate(eps)
    law = O.sequential_law([math.exp(rate / h * x) for x in u], h)
    m = mechanisms.get("exp_top_h_printed")
    got = m.exact_distribution(u, h=h, eps=eps)
    assert all(math.isclose(got[s], p, rel_tol=1e-9) for s, p in law.items())
    np.testing.assert_allclose(scenario2.TopH("printed").inclusion_probs(u, h, eps), O.inclusion(law, len(u)),
                               rtol=1e-9)
    assert m.claim(eps=eps).epsilon == 2 * rate


@pytest.mark.slow
@pytest.mark.parametrize("method", ["pruned", "paper"])
def test_algorithm1_against_candidate_discs(method):
    """Algorithm 1's M(P) (largest subset of P in a closed disc of radius r) lies between the brute-force count at
    r and at r (1 + 1e-8) (the library's closed radius is r (1 + 1e-9), its enclosure test r (1 + 2e-9))."""
    rng = np.random.default_rng(0)
    for t in range(150):
        n = int(rng.integers(1, 11))
        P = [rng.uniform(-2, 2, size=(n, 2)), rng.integers(-3, 4, size=(n, 2)).astype(float),
             np.round(rng.normal(size=(n, 2)), 1)][t % 3]
        r = float(rng.choice([0.5, 1.0, 1.5, math.sqrt(2) / 2, 2.5]))
        got = ol.largest_enclosed_subset(P, r, method=method)
        assert O.largest_in_disc(P, r, -1e-12) <= got <= O.largest_in_disc(P, r, 1e-8), (P.tolist(), r)
