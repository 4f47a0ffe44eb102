"""Exact privacy of every paper-A mechanism on every edge of exhaustively enumerated small worlds.

For each world (records 1..n on a line, counts 0..CAP, (beta, r, k)), each queried record i and each eps in
{0.01, 0.1, 1, 3}, the closed-form P(M(x) = 1) is evaluated on all histograms and, on every edge (x, y) of
G (DP claims) or of the k-sensitive graph G_S (SP claims), both |ln P(M(x)=o)/P(M(y)=o)|, o in {0, 1}, must
be <= eps (up to 1e-9). The optimal DP mechanism (Thm 4.4) and the count-Laplace baseline must *attain*
eps on some edge; the SP mechanism must *violate* DP on some G edge (a negative control showing the test
can fail).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from privanomaly import sp

CAP = 6
EPSILONS = [0.01, 0.1, 1.0, 3.0]
WORLDS = [(4, 3, 1, 1), (4, 2, 1, 2), (5, 3, 1, 1), (5, 5, 2, 2)]
TOL = 1e-9


@functools.lru_cache(maxsize=None)
def world(n, beta, r, k):
    H = sp.enumerate_histograms(n, CAP)
    Ball = sp.ball_count_hist(H, None, r, "manhattan")
    G = sp.neighbourhood_graph(n, CAP)
    GS = sp.sensitive_graph(n, CAP, r, beta, k, "manhattan", edges=G)
    return H, Ball, G, GS


def max_log_ratio(p1, edges, p0=None):
    """max over edges and outputs o of |ln P(o|x) - ln P(o|y)|."""
    u, v = edges[0], edges[1]
    p0 = 1.0 - p1 if p0 is None else p0
    with np.errstate(divide="ignore"):
        r1 = np.abs(np.log(p1[u]) - np.log(p1[v]))
        r0 = np.abs(np.log(p0[u]) - np.log(p0[v]))
    return float(max(r1.max(), r0.max()))


def cases():
    for w in WORLDS:
        for i in range(w[0]):
            yield (*w, i)


@pytest.mark.parametrize("n,beta,r,k,i", list(cases()))
def test_all_mechanisms_private_on_every_edge(n, beta, r, k, i):
    H, Ball, G, GS = world(n, beta, r, k)
    x_i, B = H[:, i], Ball[:, i]
    g = sp.is_anomaly(x_i, B, beta)
    for eps in EPSILONS:
        # Thm 4.4: optimal DP is eps-DP on G and attains eps
        dp = sp.prob_one(sp.optimal_dp_error(x_i, B, beta, eps), g)
        loss = max_log_ratio(dp, G)
        assert loss <= eps + TOL
        assert loss == pytest.approx(eps, rel=1e-9)
        # Thm 4.6: SP mechanism is eps-SP on G_S ...
        spp = sp.prob_one(sp.sp_error(x_i, B, beta, k, eps), g)
        assert max_log_ratio(spp, GS) <= eps + TOL
        # Thm 4.7: compiler on valid eps/2-DP inputs is eps-SP on G_S
        inputs = {
            "optimal_dp_half": sp.optimal_dp_error(x_i, B, beta, eps / 2),
            "const_low": np.full(len(H), sp.constant_error_range(eps / 2)[0]),
            "const_high": np.full(len(H), sp.constant_error_range(eps / 2)[1]),
        }
        for name, err in inputs.items():
            # the input really is eps/2-DP on G and valid (Eq. 9) on every G edge with equal labels
            assert max_log_ratio(sp.prob_one(err, g), G) <= eps / 2 + TOL, name
            same = g[G[0]] == g[G[1]]
            assert not sp.validity_violations(err[G[0]][same], err[G[1]][same], eps).any(), name
            comp = sp.prob_one(sp.compiled_error(err, x_i, B, beta, k, eps), g)
            assert max_log_ratio(comp, GS) <= eps + TOL, name
            # and it never errs more than its input
            assert np.all(sp.compiled_error(err, x_i, B, beta, k, eps) <= err + 1e-15)
        # Laplace baselines (Table 3) are DP on G: count -> eps (attained), noisy threshold -> eps/2
        for variant, level in (("count", eps), ("noisy_threshold", eps / 2)):
            p0, p1 = sp.laplace_probs(B, beta, eps, variant)
            loss = max_log_ratio(p1, G, p0)
            assert loss <= level + TOL, variant
            assert sp.laplace_privacy(eps, variant) == pytest.approx(level)
            if variant == "count":
                assert loss == pytest.approx(float(sp.rational_rate(eps)), rel=1e-9)


@pytest.mark.parametrize("n,beta,r,k", WORLDS)
def test_sp_mechanism_is_not_dp_negative_control(n, beta, r, k):
    """The SP mechanism gains accuracy by *not* being DP on edges of non-sensitive records."""
    H, Ball, G, GS = world(n, beta, r, k)
    worst = 0.0
    for i in range(n):
        x_i, B = H[:, i], Ball[:, i]
        p = sp.prob_one(sp.sp_error(x_i, B, beta, k, 1.0), sp.is_anomaly(x_i, B, beta))
        worst = max(worst, max_log_ratio(p, G))
    if len(GS[0]) == len(G[0]):  # beta - k < 1: every record is always k-sensitive, G_S = G, SP = DP
        assert worst <= 1.0 + TOL
    else:
        assert worst > 1.0 + 0.1


@pytest.mark.parametrize("eps", EPSILONS)
def test_optimal_dp_floor_and_compiler_gain(eps):
    # differently labelled neighbours: error exactly 1/(1 + e^eps) on both (Fig. 1 trade-off, attained)
    assert sp.optimal_dp_error(1, 3, 3, eps) == pytest.approx(1 / (1 + np.exp(eps)))
    assert sp.optimal_dp_error(1, 4, 3, eps) == pytest.approx(1 / (1 + np.exp(eps)))
    # a non-sensitive isolated anomaly: SP error decays like e^{-eps L}
    beta, k = 20, 2
    L = sp.mdd_sp_lower(1, 1, beta, k)
    assert sp.sp_error(1, 1, beta, k, eps) == pytest.approx(np.exp(-eps * L) / (1 + np.exp(-eps)))
    # compiled constant-error mechanism: error multiplied by e^{-eps delta/4}
    c = sp.constant_error_range(eps / 2)[1]
    delta = sp.compiler_delta(1, 1, beta, k)
    assert delta == L - 1
    assert sp.compiled_error(c, 1, 1, beta, k, eps) == pytest.approx(c * np.exp(-eps * delta / 4))


def test_compiler_rejects_invalid_input():
    eps = 1.0
    bad = sp.valid_error_bound(eps) + 0.01
    with pytest.raises(ValueError, match="not valid"):
        sp.compiled_error(bad, 1, 1, 5, 1, eps)
    with pytest.raises(ValueError, match="probabilities"):
        sp.compiled_error(1.5, 1, 1, 5, 1, eps)
    # the pointwise bound is sharp for Eq. 9: just above it, the eps/2-DP neighbour with the largest
    # allowed error, 1 - P(M(y) != b) = e^{-eps/2} (1 - P(M(x) != b)), violates Eq. 9; just below it, it does not
    for p, violated in ((sp.valid_error_bound(eps) + 1e-3, True), (sp.valid_error_bound(eps) - 1e-3, False)):
        py = 1 - np.exp(-eps / 2) * (1 - p)
        assert np.log(py / p) <= eps / 2 + 1e-12  # the pair itself is eps/2-DP
        assert bool(sp.validity_violations(np.array([p]), np.array([py]), eps)[0]) is violated


def test_construction1_and_prob_one_validation():
    with pytest.raises(ValueError, match="delta >= 1"):
        sp.construction1_error(0, 1.0)
    with pytest.raises(ValueError, match="eps"):
        sp.construction1_error(1, 0.0)
    with pytest.raises(ValueError, match="0/1"):
        sp.prob_one(0.1, 2)
    np.testing.assert_allclose(sp.prob_one([0.1, 0.2], [1, 0]), [0.9, 0.2])


def test_laplace_closed_forms_against_sums():
    for eps in EPSILONS:
        a = sp.rational_rate(eps)
        z = np.arange(-4000, 4001)
        pmf = sp.dlap_pmf(z, a)
        assert pmf.sum() == pytest.approx(1.0, abs=1e-6 if eps == 0.01 else 1e-12)
        for n_ in (-3, 0, 1, 5):
            assert sp.dlap_sf(n_, a) == pytest.approx(pmf[z >= n_].sum(), abs=2e-8)
        # W = Z1 - Z2
        if eps >= 0.1:  # truncated convolution over |z| <= 1000 (missing mass < p^1000)
            w = np.arange(-2000, 2001)
            zz = sp.dlap_pmf(np.arange(-1000, 1001), a)
            direct = np.convolve(zz, zz)
            mid = np.abs(w) <= 500
            np.testing.assert_allclose(sp.dlap_diff_pmf(w[mid], a), direct[mid], rtol=1e-9, atol=1e-300)
            for n_ in (-2, 0, 1, 4, 40):
                assert sp.dlap_diff_sf(n_, a) == pytest.approx(direct[w >= n_].sum(), rel=1e-9)
    # baseline probabilities sum to one and are monotone in B
    B = np.arange(0, 30)
    for variant in sp.LAPLACE_VARIANTS:
        p0, p1 = sp.laplace_probs(B, 10, 0.5, variant)
        np.testing.assert_allclose(p0 + p1, 1.0, atol=1e-12)
        assert np.all(np.diff(p1) < 0)
    with pytest.raises(ValueError, match="variant"):
        sp.laplace_prob_one(3, 3, 1.0, "gaussian")


def test_composition_claims():
    assert sp.sequential(0.1, 0.2, 0.3) == pytest.approx(0.6)
    assert sp.parallel(0.1, 0.5, 0.3) == pytest.approx(0.5)
    assert sp.claim5([0.1, 0.25, 0.2], m=3) == pytest.approx(0.75)
    assert sp.claim5_graph([3, 5, 4], [1.0, 0.5, 2.0], [2, 1, 3]) == (5, 0.5, 1)
    with pytest.raises(ValueError):
        sp.claim5([0.1], m=0)
