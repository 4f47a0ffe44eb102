"""The library's paper-A numbers against independent brute-force oracles (tests/oracle_paper_a.py).

Ball counts in exact arithmetic (duplicates, ties at exactly r and one ulp either side, three metrics,
1-3 dimensions); k-sensitivity, Δ_G and Δ_GS by exhaustive search over histogram worlds; each registered
mechanism's law from its formula; expected precision/recall and claims.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import oracle_paper_a as O
from privanomaly import mechanisms, sp
from privanomaly.mechanisms.exact import log_value

METRICS = ("euclidean", "manhattan", "chebyshev")


# ------------------------------------------------------------------------------------------ ball counts
def _exact_tie_radii(X: np.ndarray, metric: str) -> list[float]:
    """Pairwise distances of X that are floats exactly (so 'distance == r' is a true tie), plus 0."""
    out = {0.0}
    for a in X:
        for b in X:
            d = np.abs(a - b)
            if metric == "euclidean":
                # squared distances are m/16 (quarters); a tie is a float only when m is a perfect square
                s16 = float(np.sum(d * d)) * 16
                if s16 == int(s16) and math.isqrt(int(s16)) ** 2 == int(s16):
                    out.add(math.isqrt(int(s16)) / 4.0)
            elif metric == "manhattan":
                out.add(float(np.sum(d)))
            else:
                out.add(float(np.max(d)))
    return sorted(out)


def _datasets(seed: int):
    rng = np.random.default_rng(seed)
    for trial in range(24):
        d = 1 + trial % 3
        n = int(rng.integers(2, 8))
        if trial % 2:
            X = rng.integers(-3, 4, size=(n, d)).astype(float)          # integer coordinates
        else:
            X = rng.integers(-10, 11, size=(n, d)) / 4.0                 # non-integer (dyadic) coordinates
        X = np.vstack([X, X[: int(rng.integers(1, 3))]])                 # exact duplicates
        yield X


@pytest.mark.slow
@pytest.mark.parametrize("metric", METRICS)
def test_ball_counts_equal_exact_counts_at_ties_and_one_ulp_either_side(metric):
    """B_x(i, r) (with multiplicities) of every library path equals the exact count, r = a tie and r ± 1 ulp."""
    checked = 0
    for X in _datasets(7):
        for r0 in _exact_tie_radii(X, metric):
            radii = [r0, np.nextafter(r0, np.inf)] + ([np.nextafter(r0, -np.inf)] if r0 > 0 else [])
            for r in radii:
                want = O.ball_counts(X, r, metric)
                xi = O.multiplicities(X)
                assert np.array_equal(sp.ball_counts(X, r, metric=metric), want), (X, r)
                assert np.array_equal(sp.ball_counts_bruteforce(X, r, metric=metric), want), (X, r)
                assert np.array_equal(sp.ball_counts_at(X, X, r, metric=metric), want), (X, r)
                assert np.array_equal(sp.ball_counts_radii(X, [r], metric=metric, cap=len(X) + 1)[0], want)
                got_x, got_b = sp.record_counts(X, r, metric=metric)
                assert np.array_equal(got_x, xi) and np.array_equal(got_b, want)
                for cap in (1, 2, 3):
                    cx, cb = sp.record_counts(X, r, metric=metric, cap=cap)
                    assert np.array_equal(cb, np.minimum(want, cap)) and np.array_equal(cx, np.minimum(xi, cap))
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("metric", METRICS)
def test_ball_counts_at_absent_points_equal_exact_counts(metric):
    rng = np.random.default_rng(3)
    X = rng.integers(-4, 5, size=(12, 2)).astype(float)
    Q = np.array([[0.5, 0.5], [100.0, 0.0], [1.0, 1.0], [-4.0, 4.0]])
    for r in (0.0, 0.5, 1.0, np.nextafter(1.0, 0.0), 2.0, 3.5):
        want = O.ball_counts(X, r, metric, queries=Q)
        assert np.array_equal(sp.ball_counts_at(Q, X, r, metric=metric), want)
        assert np.array_equal(sp.ball_counts_at(Q, X, r, metric=metric, cap=2), np.minimum(want, 2))


def test_euclidean_tie_at_a_pythagorean_distance():
    """(0, 0) and (3, 4) are at distance exactly 5: inside r = 5, outside r = 5 - 1 ulp, inside 5 + 1 ulp."""
    X = np.array([[0.0, 0.0], [3.0, 4.0], [3.0, 4.0]])
    assert sp.ball_counts(X, 5.0).tolist() == [3, 3, 3]
    assert sp.ball_counts(X, np.nextafter(5.0, 0.0)).tolist() == [1, 2, 2]
    assert sp.ball_counts(X, np.nextafter(5.0, 9.0)).tolist() == [3, 3, 3]


# ------------------------------------------------------------------------------------------ histogram worlds
WORLDS = [
    ([[0.0]], 1.0, "euclidean"),                       # one point: its ball holds only its own copies
    ([[0.0], [1.0], [5.0]], 1.0, "manhattan"),         # a pair at exactly r and a far point
    ([[0.0], [1.0], [2.0]], 1.0, "euclidean"),         # a chain: 0 and 2 share the neighbour 1
    ([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], 1.0, "chebyshev"),  # 2-D, every pair within r
    ([[0.0, 0.0, 0.0], [0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], 0.75, "manhattan"),  # 3-D, non-integer
]


def _world_cases():
    for w, (pts, r, metric) in enumerate(WORLDS):
        for beta in (1, 2, 3):
            yield pytest.param(pts, r, metric, beta, id=f"world{w}-beta{beta}")


@pytest.mark.parametrize("pts, r, metric, beta", list(_world_cases()))
def test_anomaly_sensitivity_and_mdd_against_search(pts, r, metric, beta):
    """g (Def. 2.2), k-sensitivity (Def. 3.1 vs Lemma A.2), Δ_G = mdd_dp exactly, L <= Δ_GS (Eq. 1 by BFS)."""
    W = O.World(pts, r, metric, beta)
    total = 6 if W.n == 1 else 4
    n_checked = 0
    for x in W.histograms(total):
        for i in range(W.n):
            B, xi = W.B(i, x), x[i]
            assert bool(sp.is_anomaly(xi, B, beta)) == bool(W.g(i, x))
            dG = W.mdd(i, x, None, limit=beta + 4)
            assert int(sp.mdd_dp(xi, B, beta)) == dG, (x, i)
            for k in (1, 2, 3):
                assert bool(sp.is_k_sensitive(B, beta, k)) == W.k_sensitive(i, x, k), (x, i, k)
                L = int(sp.mdd_sp_lower(xi, B, beta, k))
                assert 1 <= dG <= L <= W.mdd(i, x, k, limit=L), (x, i, k)  # no discrepant y closer than L in G_S
                n_checked += 1
    assert n_checked >= 21


def test_sp_lower_bound_is_tight_where_the_ball_is_shared():
    """In the chain world (0, 1, 2 at r = 1) L equals Δ_GS for the middle record at every small histogram
    with B <= β (the record 1 can be filled by sensitive neighbours): the bound is not loose there."""
    W = O.World([[0.0], [1.0], [2.0]], 1.0, "euclidean", 2)
    seen = 0
    for x in W.histograms(3):
        B = W.B(1, x)
        if x[1] >= 1 and B <= 2:
            L = int(sp.mdd_sp_lower(x[1], B, 2, 1))
            dGS = W.mdd(1, x, 1, limit=L + 2)
            if dGS == L:
                seen += 1
    assert seen >= 3


@pytest.mark.slow
@pytest.mark.parametrize("pts, r, metric, beta", list(_world_cases()))
def test_lipschitz_on_the_graphs(pts, r, metric, beta):
    """Δ_G is 1-Lipschitz on G; L is 1-Lipschitz on G_S and δ = L - Δ_G >= 0 is 2-Lipschitz on G_S (the premises
    of Theorems 4.4, 4.6 and 4.7), also with the count cap."""
    W = O.World(pts, r, metric, beta)
    for x in W.histograms(4 if W.n > 1 else 6):
        for y, j in W.neighbours(x):
            for i in range(W.n):
                bx, by = W.B(i, x), W.B(i, y)
                assert abs(int(sp.mdd_dp(x[i], bx, beta)) - int(sp.mdd_dp(y[i], by, beta))) <= 1
                for k in (1, 2, 3):
                    if not (W.k_sensitive(j, x, k) or W.k_sensitive(j, y, k)):
                        continue
                    for cap in (None, beta + 1, beta + 2):
                        cbx = bx if cap is None else min(bx, cap)
                        cby = by if cap is None else min(by, cap)
                        lx = int(sp.mdd_sp_lower(x[i], cbx, beta, k, cap=cap))
                        ly = int(sp.mdd_sp_lower(y[i], cby, beta, k, cap=cap))
                        assert abs(lx - ly) <= 1, (x, y, i, k, cap)
                        dx = int(sp.compiler_delta(x[i], cbx, beta, k, cap=cap))
                        dy = int(sp.compiler_delta(y[i], cby, beta, k, cap=cap))
                        assert dx >= 0 and dy >= 0 and abs(dx - dy) <= 2


def test_capped_mdd_is_min_of_the_uncapped_and_cap_minus_beta():
    for beta in (1, 3):
        for cap in (beta + 1, beta + 4):
            for xi in range(0, 7):
                for B in range(max(xi, 0), 12):
                    cb = min(B, cap)
                    assert int(sp.mdd_dp(xi, cb, beta, cap=cap)) == min(int(sp.mdd_dp(xi, B, beta)), cap - beta)
                    for k in (1, 2):
                        assert (int(sp.mdd_sp_lower(xi, cb, beta, k, cap=cap))
                                == min(int(sp.mdd_sp_lower(xi, B, beta, k)), cap - beta))


# ------------------------------------------------------------------------------------------ mechanisms' laws
PAPER_A_MECHS = ("optimal_dp", "sp", "compiler", "laplace_count", "laplace_noisy_threshold")


def test_every_registered_paper_a_mechanism_is_covered():
    assert set(mechanisms.names("aiq")) == set(PAPER_A_MECHS)


@pytest.mark.parametrize("name", PAPER_A_MECHS)
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0])
def test_mechanism_error_law_against_oracle(name, eps):
    m = mechanisms.get(name)
    beta, k = 3, 2
    cases = [(xi, B) for xi in range(0, 4) for B in range(xi, 9)]
    xi = np.array([c[0] for c in cases])
    B = np.array([c[1] for c in cases])
    got = np.asarray(m.error(xi, B, beta=beta, k=k, eps=eps), dtype=float)
    p0, p1 = m.probs(xi, B, beta=beta, k=k, eps=eps)
    want = np.array([O.mechanism_error(name, a, b, beta, k, eps) for a, b in cases])
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(np.asarray(p0) + np.asarray(p1), 1.0, rtol=0, atol=1e-12)
    for (a, b), w in zip(cases[::5], want[::5]):
        law = m.exact_distribution(int(a), int(b), beta=beta, k=k, eps=eps)
        g = int(a >= 1 and b <= beta)
        wrong = law.probs[law.outputs.index(1 - g)]
        assert math.isclose(math.exp(log_value(wrong, law.theta)), w, rel_tol=1e-9, abs_tol=1e-15)


@pytest.mark.parametrize("pts, r, metric, beta", list(_world_cases()))
@pytest.mark.parametrize("eps", [0.3, 1.5])
def test_claims_hold_by_definition_on_the_worlds_edges(pts, r, metric, beta, eps):
    """Def. 2.1 / Def. 3.2 checked directly: for every edge (x, y) of the claimed graph (G for DP claims, G_S for
    SP claims) and both outputs, P(M(x) = o) <= e^claim_eps P(M(y) = o), the laws from the oracle's formulas."""
    W = O.World(pts, r, metric, beta)
    for name in PAPER_A_MECHS:
        m = mechanisms.get(name)
        for k in (1, 2):
            claim = m.claim(eps=eps, beta=beta, k=k)
            bound = math.exp(claim.epsilon) * (1 + 1e-12)
            for x in W.histograms(3 if W.n > 1 else 6):
                for y, j in W.neighbours(x):
                    if claim.neighbours == "sensitive_k" and not (W.k_sensitive(j, x, k) or W.k_sensitive(j, y, k)):
                        continue
                    for i in range(W.n):
                        px = [0.0, 0.0]
                        py = [0.0, 0.0]
                        for p, z in ((px, x), (py, y)):
                            e = O.mechanism_error(name, z[i], W.B(i, z), beta, k, eps)
                            g = W.g(i, z)
                            p[g], p[1 - g] = 1 - e, e
                        for o in (0, 1):
                            assert px[o] <= bound * py[o] and py[o] <= bound * px[o], (name, x, y, i, k, o)


# ------------------------------------------------------------------------------------------ radii read off the data
def _midpoints(d_beta: np.ndarray) -> set[float]:
    s = np.sort(d_beta)
    return {float((a + b) / 2) for a, b in zip(s[:-1], s[1:])}


@pytest.mark.parametrize("metric", METRICS)
def test_growth_reads_r_off_the_metric_of_its_ball_counts(metric):
    """Each subsample's r flags round(f m) records as (β, r)-anomalies in the metric of its ball counts: the
    (β+1)-NN distances it is read from are measured in that metric (here continuous data: no ties)."""
    from privanomaly.paper_a.growth import growth_curve

    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 3))
    y = (rng.random(120) < 0.1).astype(np.int8)
    beta, f = 3, 0.1
    df = growth_curve(X, y, beta, f, [0.5, 1.0], np.random.default_rng(0), 1.0, 1, None, metric=metric)
    perm = np.random.default_rng(0).permutation(len(X))
    for row in df.itertuples():
        Xs = X[np.sort(perm[: row.n_records])]
        d = O.knn_radius(Xs, beta, metric)
        assert row.r in _midpoints(d)
        assert row.n_anomalies == int((d > row.r).sum()) == max(1, round(f * row.n_records))


@pytest.mark.parametrize("metric", METRICS)
def test_api_choose_beta_r_reads_r_off_the_chosen_metric(metric):
    from privanomaly import api

    rng = np.random.default_rng(8)
    X = np.vstack([rng.normal(size=(90, 2)), rng.normal(size=(10, 2)) * 0.2 + [4.0, 4.0]])
    y = np.r_[np.zeros(90, bool), np.ones(10, bool)]
    data = api.Data(X, y, ["a", "b"], None, "toy")
    beta, r = api.choose_beta_r(data, betas=[2, 5], fractions=[0.05, 0.1, 0.2], metric=metric)
    assert r in _midpoints(O.knn_radius(X, beta, metric))


@pytest.mark.parametrize("k", [1, 2])
def test_sensitive_graph_of_figure4_against_definition(k):
    """G_S of Figure 4 (X = {1..5}, l1, beta = 3, r = 1) on the box {0..2}^5: exactly the edges (x, x + e_j) of G
    whose record j is k-sensitive w.r.t. x or y by Def. 3.1 (searched, not Lemma A.2)."""
    n, cap, beta, r = 5, 2, 3, 1.0
    hists = sp.enumerate_histograms(n, cap)
    u, v, _ = sp.sensitive_graph(n, cap, r, beta, k, positions=np.arange(1, n + 1))
    W = O.World([[i + 1.0] for i in range(n)], r, "manhattan", beta)
    want = {(x, y) for x in map(tuple, hists) for y, j in W.neighbours(x)
            if max(y) <= cap and y[j] == x[j] + 1 and (W.k_sensitive(j, x, k) or W.k_sensitive(j, y, k))}
    assert {(tuple(hists[a]), tuple(hists[b])) for a, b in zip(u, v)} == want


# ------------------------------------------------------------------------------------------ scale
@pytest.mark.parametrize("scale", [2.0**-700, 2.0**-540, 2.0**600, 1e-200, 1e200])
@pytest.mark.parametrize("metric", METRICS)
def test_ball_counts_are_exact_at_extreme_scales(scale, metric):
    """d(i, j) <= r does not depend on the unit: the data and r times 2^-700 or 1e200 give the exact counts
    (Euclidean squares of such distances under/overflow: r*r = 0 or inf must not put every pair within r)."""
    X = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 6.0], [10.0, 0.0], [10.0, 0.0], [0.0, 2.0]]) * scale
    for r in np.array([0.0, 1.0, 2.0, 4.5, 6.0, 20.0]) * scale:
        want = O.ball_counts(X, r, metric)
        assert np.array_equal(sp.ball_counts(X, r, metric=metric), want), r
        assert np.array_equal(sp.ball_counts_bruteforce(X, r, metric=metric), want), r
        assert np.array_equal(sp.ball_counts_at(X[:3], X, r, metric=metric, cap=4), np.minimum(want[:3], 4)), r
    radii = np.array([1.0, 4.5, 6.0]) * scale
    want = np.array([np.minimum(O.ball_counts(X, r, metric), 5) for r in radii])
    assert np.array_equal(sp.ball_counts_radii(X, radii, metric=metric, cap=5), want)


@pytest.mark.parametrize("t", [2.0**-600, 2.0**-540, 1e-200, 1e-150])
@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("cap", [2, 6])
def test_ball_counts_radii_exact_for_zero_and_tiny_radii_beside_large_ones(t, metric, cap):
    """One call with r = 0, radii of the data's tiny unit t and radii 2^600 times larger: every row equals the
    exact counts and the single-radius count (the largest radius's scale alone squared the small ones to 0,
    putting rows 1e-180 apart within r = 0)."""
    T = 2.0**600 * t
    X = np.array([[0.0, 0.0], [t, 0.0], [t, 0.0], [0.0, 3 * t], [T, 0.0]])
    radii = [0.0, t, 2.5 * t, 3.5 * t, T / 2, 2 * T]
    want = np.array([np.minimum(O.ball_counts(X, r, metric), cap) for r in radii])
    if metric == "euclidean":
        assert want.tolist() == np.minimum([[1, 2, 2, 1, 1], [3, 3, 3, 1, 1], [3, 3, 3, 1, 1], [4, 4, 4, 4, 1],
                                            [4, 4, 4, 4, 1], [5, 5, 5, 5, 5]], cap).tolist()
    got = sp.ball_counts_radii(X, radii, metric=metric, cap=cap)
    assert np.array_equal(got, want), (got, want)
    assert np.array_equal(got, [sp.ball_counts(X, r, metric=metric, cap=cap) for r in radii])
    assert np.array_equal(sp.ball_counts_radii(X, [0.0], metric=metric, cap=cap), want[:1])


@pytest.mark.parametrize("scale", [2.0**-700, 2.0**600])
@pytest.mark.parametrize("metric", METRICS)
def test_radii_read_off_the_data_do_not_depend_on_the_unit(scale, metric):
    """The (β+1)-NN distances d_β and the radius flagging a fraction f are in the data's unit: times 2^-700 (an
    exact scaling) the same floats times 2^-700 - checked against brute-force d_β at unit scale, and the
    radius still flags round(f n) records in the exact ball counts."""
    from privanomaly.paper_a import selection

    rng = np.random.default_rng(12)
    X = rng.normal(size=(60, 2))
    p = sp.minkowski_p(metric)
    d = O.knn_radius(X, 3, metric)
    np.testing.assert_allclose(selection.knn_radius_table(X * scale, [3], p=p)[:, 0] / scale, d, rtol=1e-14)
    r = selection.radius_at_fraction(X * scale, 3, 0.1, p=p)
    assert r / scale == selection.radius_at_fraction(X, 3, 0.1, p=p) and r / scale in _midpoints(d)
    assert int((O.ball_counts(X * scale, r, metric) <= 3).sum()) == 6


# ------------------------------------------------------------------------------------------ count cap
@pytest.mark.parametrize("errors, detection", [(["sp", "optimal_dp", "compiler"], ["sp"]),
                                               (["sp"], ["laplace_noisy_threshold", "laplace_count"])])
def test_record_cap_keeps_every_configured_mechanism_within_2_to_the_minus_60(errors, detection):
    """Paper A's record tables cap B at cap_for(β, eps_min(paper_a)); every configured mechanism's error at every
    ε it is evaluated at must then be that of the uncapped counts to 2^-60 (records.py) - also those whose noise
    runs at ε/2 (the compiler's input, the noisy threshold): errors from the oracle's uncapped law. (The noisy
    threshold's tail P(Z1 - Z2 >= n) carries a factor ~n (1 - e^-a) over e^(-a n): 2^-54 there.)"""
    from privanomaly.paper_a import records
    from privanomaly.paper_a import plan as workflow_checks

    pa = {"eps_grid": [0.25, 1.0], "eps_ref": 0.25, "fig2": {"eps": 0.5}, "compiler": {"eps": 1.0},
          "mechanisms": {"errors": errors, "detection": detection}}
    beta, k = 4, 1
    cap = records.cap_for(beta, workflow_checks.eps_min(pa))
    for names, grid in ((errors, pa["eps_grid"]), (detection, [pa["eps_ref"]])):
        for name in names:
            m = mechanisms.get(name)
            for eps in grid:
                for xi, B in ((1, cap + 3), (2, cap), (1, 10 * cap), (0, cap + 1)):
                    got = float(m.error(xi, min(B, cap), beta=beta, k=k, eps=eps, cap=cap))
                    tol = 2.0**-54 if name == "laplace_noisy_threshold" else 2.0**-60
                    assert abs(got - O.mechanism_error(name, xi, B, beta, k, eps)) <= tol, (name, eps, B)
