"""Exhaustive proofs of paper A's closed forms on small worlds (privanomaly.sp.mdd vs BFS on G and G_S).

World: records 1..n on a line (l1 metric; in 1-D every l_p metric agrees), every histogram with counts
0..CAP. For each (beta, r, k) and every record i we compute by breadth-first search the exact mdd (Eq. 1)
in the enumerated G and G_S and compare with the closed forms. The enumerated graphs are truncated at CAP;
instead of discarding states near the cap we use a *certified* bound: the untruncated distance D of a
state h satisfies  min(D_box, CAP + 1 - max(h)) <= D <= D_box  (a path leaving the box needs at least
CAP + 1 - max(h) steps; the box graph is an induced subgraph). So the closed form is checked against
rigorous two-sided bounds on every state, and is forced to equal D_box wherever D_box <= CAP + 1 - max(h).

For L (a lower bound of Delta_GS) the proof is local and therefore not affected by truncation: if L is
1-Lipschitz on G_S and L = 1 at both ends of every G_S edge whose labels differ, then along any G_S path
from x to a differently labelled y, L can drop by at most 1 per step down to 1 at the last same-labelled
state, so L(x) <= d_GS(x, y). Both conditions are asserted on every edge of the box.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from privanomaly import sp

CAP = 6
# (n, beta, r, k): several anomaly definitions and sensitivity levels, incl. r = 0 (exact duplicates only)
CONFIGS = [
    (4, 1, 1, 1),
    (4, 3, 1, 1),
    (4, 3, 1, 2),
    (4, 5, 2, 3),
    (4, 2, 0, 1),
    (5, 3, 1, 1),
    (5, 4, 1, 2),
    (5, 6, 2, 2),
    (5, 8, 1, 4),
]


@functools.lru_cache(maxsize=None)
def world(n: int, beta: int, r: float, k: int):
    H = sp.enumerate_histograms(n, CAP)
    Ball = sp.ball_count_hist(H, None, r, "manhattan")
    G = sp.neighbourhood_graph(n, CAP)
    GS = sp.sensitive_graph(n, CAP, r, beta, k, "manhattan", edges=G)
    return H, Ball, G, GS


def bfs_for(n, beta, r, k, i):
    H, Ball, G, GS = world(n, beta, r, k)
    g = ((H[:, i] >= 1) & (Ball[:, i] <= beta)).astype(np.int8)
    dG = sp.bfs_mdd(g, G[0], G[1])
    dGS = sp.bfs_mdd(g, GS[0], GS[1])
    return H, Ball[:, i], g, dG, dGS


@pytest.mark.parametrize("n,beta,r,k", CONFIGS)
def test_delta_G_closed_form_equals_bfs(n, beta, r, k):
    certified_total = 0
    for i in range(n):
        H, B, g, dG, _ = bfs_for(n, beta, r, k, i)
        closed = sp.mdd_dp(H[:, i], B, beta)
        lower = sp.certified_lower_bound(dG, H, CAP)
        assert np.all(closed <= dG), "closed form above a realisable distance"
        assert np.all(closed >= lower), "closed form below the certified untruncated distance"
        cert = dG <= CAP + 1 - H.max(axis=1)
        np.testing.assert_array_equal(closed[cert], dG[cert])
        certified_total += cert.mean()
        assert np.all(np.isfinite(dG)) and np.all(dG >= 1)
        np.testing.assert_array_equal(sp.is_anomaly(H[:, i], B, beta), g)
    assert certified_total / n > 0.1  # states where the bounds pin the exact value (dense states are not)


@pytest.mark.parametrize("n,beta,r,k", CONFIGS)
def test_L_is_lower_bound_of_delta_GS_and_lipschitz(n, beta, r, k):
    H, Ball, G, GS = world(n, beta, r, k)
    tight = cert_tot = 0
    for i in range(n):
        _, B, g, dG, dGS = bfs_for(n, beta, r, k, i)
        L = sp.mdd_sp_lower(H[:, i], B, beta, k)
        DG = sp.mdd_dp(H[:, i], B, beta)
        # necessary on every state (true Delta_GS <= box distance); exact where the box distance is certified
        assert np.all(L <= dGS), "L exceeds a realisable G_S distance"
        assert np.all(dGS >= dG)  # G_S is a subgraph of G
        # 1-Lipschitz on every G_S edge; Delta_G 1-Lipschitz on every G edge
        assert np.max(np.abs(L[GS[0]] - L[GS[1]])) <= 1
        assert np.max(np.abs(DG[G[0]] - DG[G[1]])) <= 1
        # compiler input: delta = L - Delta_G >= 0, 2-Lipschitz on G_S
        delta = sp.compiler_delta(H[:, i], B, beta, k)
        np.testing.assert_array_equal(delta, L - DG)
        assert delta.min() >= 0
        assert np.max(np.abs(delta[GS[0]] - delta[GS[1]])) <= 2
        # L >= 1 everywhere and L = 1 at both ends of a G_S edge whose labels differ (privacy of Constr. 1)
        assert L.min() >= 1
        flip = g[GS[0]] != g[GS[1]]
        assert np.all(L[GS[0]][flip] == 1) and np.all(L[GS[1]][flip] == 1)
        cert = dGS <= CAP + 1 - H.max(axis=1)
        tight += np.sum(L[cert] == dGS[cert])
        cert_tot += cert.sum()
    # L is not only a bound: it is attained on most certified states
    assert tight / cert_tot > 0.5


@pytest.mark.parametrize("n,beta,r,k", CONFIGS)
def test_lemma_A2_from_definition_3_1(n, beta, r, k):
    """Def. 3.1 checked directly: i is k-sensitive w.r.t. x iff some y with ||x-y||_1 <= k has i normal."""
    H, Ball, G, _ = world(n, beta, r, k)
    inside = H.max(axis=1) + k <= CAP  # every y within l1 distance k of x is in the box
    for i in range(n):
        normal = (H[:, i] >= 1) & (Ball[:, i] > beta)  # p(i, y) = 1
        dist = sp.bfs_distance_to(len(H), G[0], G[1], normal)  # graph distance in G == l1 distance
        by_definition = dist <= k
        by_lemma = sp.is_k_sensitive(Ball[:, i], beta, k)
        np.testing.assert_array_equal(by_definition[inside], by_lemma[inside])


@pytest.mark.parametrize("n,beta,r,k", CONFIGS[:4])
def test_sensitive_graph_matches_definition(n, beta, r, k):
    """An edge x - (x + e_j) is in G_S iff j is k-sensitive w.r.t. x or x + e_j (Sec. 3), checked both ends."""
    H, Ball, G, GS = world(n, beta, r, k)
    u, v, j = G
    sens_u = sp.is_k_sensitive(Ball[u, j], beta, k)
    sens_v = sp.is_k_sensitive(Ball[v, j], beta, k)
    expect = sens_u | sens_v
    in_gs = np.zeros(len(u), bool)
    key = {(a, b) for a, b in zip(GS[0].tolist(), GS[1].tolist())}
    for t, (a, b) in enumerate(zip(u.tolist(), v.tolist())):
        in_gs[t] = (a, b) in key
    np.testing.assert_array_equal(in_gs, expect)


def test_cap_semantics_exact():
    """min(Delta(min(B, cap)), cap - beta) == min(Delta(B), cap - beta), for Delta_G and L."""
    beta, k = 5, 2
    x_i = np.arange(0, 30)[:, None] * np.ones(60, dtype=np.int64)[None, :]
    B = x_i + np.arange(60)[None, :]
    for cap in (beta + 1, beta + 2, 17, 40):
        Bc = np.minimum(B, cap)
        xc = np.minimum(x_i, Bc)  # the capped count still includes i's own copies
        for f in (lambda a, b, **kw: sp.mdd_dp(a, b, beta, **kw), lambda a, b, **kw: sp.mdd_sp_lower(a, b, beta, k, **kw)):
            np.testing.assert_array_equal(f(xc, Bc, cap=cap), np.minimum(f(x_i, B), cap - beta))
        np.testing.assert_array_equal(sp.is_anomaly(xc, Bc, beta), sp.is_anomaly(x_i, B, beta))
        np.testing.assert_array_equal(sp.is_k_sensitive(Bc, beta, k), sp.is_k_sensitive(B, beta, k))


def test_closed_forms_spot_values():
    # anomaly, x_i = 2, B = 3, beta = 5: remove both copies (2) or add 3 -> 2
    assert sp.mdd_dp(2, 3, 5) == 2
    # normal: B - beta
    assert sp.mdd_dp(1, 9, 5) == 4 and sp.mdd_sp_lower(1, 9, 5, 1) == 4
    # absent, B = 7 > beta: remove 3 then add i
    assert sp.mdd_dp(0, 7, 5) == 4 and sp.mdd_sp_lower(0, 7, 5, 2) == 4
    # absent, sparse: add i directly in G; in G_S first fill up to beta - k
    assert sp.mdd_dp(0, 0, 5) == 1 and sp.mdd_sp_lower(0, 0, 5, 1) == 5
    # isolated anomaly: L = min(beta + 1 - B, x_i + beta - k - B + x_i)
    assert sp.mdd_sp_lower(1, 1, 10, 1) == min(10, 1 + 9)
    with pytest.raises(ValueError, match="B"):
        sp.mdd_dp(3, 2, 5)
    with pytest.raises(ValueError, match="beta"):
        sp.mdd_dp(1, 2, 0)
    with pytest.raises(ValueError, match="k"):
        sp.mdd_sp_lower(1, 2, 3, 0)
    with pytest.raises(ValueError, match="cap"):
        sp.mdd_dp(1, 2, 3, cap=3)


def test_recommended_cap():
    cap = sp.recommended_cap(10, [0.01, 0.5])
    margin = sp.mdd.TAIL_MARGIN  # the tail's polynomial factor (noisy threshold) stays under 2^-60 too
    assert np.exp(-0.01 * (cap - 10)) <= 2.0**-60 / margin < np.exp(-0.01 * (cap - 11))


def test_capped_count_below_multiplicity():
    """A value with more copies than the cap: capped B < x_i is accepted (the record is normal either way)."""
    beta, cap = 5, 8
    x_i, B_true = 12, 15
    Bc = min(B_true, cap)
    assert sp.is_anomaly(x_i, Bc, beta) == 0
    assert sp.mdd_dp(x_i, Bc, beta, cap=cap) == min(sp.mdd_dp(x_i, B_true, beta), cap - beta)
    assert sp.mdd_sp_lower(x_i, Bc, beta, 2, cap=cap) == min(sp.mdd_sp_lower(x_i, B_true, beta, 2), cap - beta)
    with pytest.raises(ValueError, match="x_i"):
        sp.is_anomaly(4, 3, 5)  # B <= beta < x_i cannot come from any (capped) count
