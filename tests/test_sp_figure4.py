"""Paper A, Figure 4: the 1-sensitive neighbourhood graph for X = {1..5}, l1, (beta = 3, r = 1)-anomaly.

The figure's drawing is not in our copy of the paper; we reproduce the graph it depicts and check hand-
derived facts about it. With beta = 3, k = 1, a record j is 1-sensitive iff B_x(j, 1) >= 3 (Lemma A.2),
so an edge adding j at x exists iff B_x(j, 1) >= 2 (the ball of j contains >= 2 records before j is added).
"""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly import sp

N, BETA, R, K, CAP = 5, 3, 1, 1, 4


def idx(h):
    return int(sp.hist_index(np.array(h), CAP))


def setup():
    H = sp.enumerate_histograms(N, CAP)
    G = sp.neighbourhood_graph(N, CAP)
    GS = sp.sensitive_graph(N, CAP, R, BETA, K, "manhattan", edges=G)
    return H, G, GS


def neighbours(GS, h):
    i = idx(h)
    return set(GS[1][GS[0] == i].tolist()) | set(GS[0][GS[1] == i].tolist())


def test_figure4_edges_and_mdd():
    H, G, GS = setup()
    # sparse databases are isolated: nothing can be added or removed sensitively
    assert neighbours(GS, (0, 0, 0, 0, 0)) == set()
    assert neighbours(GS, (0, 1, 0, 0, 0)) == set()
    assert neighbours(GS, (1, 1, 0, 0, 0)) == {idx((2, 1, 0, 0, 0)), idx((1, 2, 0, 0, 0))}
    # (0,3,0,0,0): record 2 has B = 3 -> 1-sensitive; records 1, 2, 3 may be added, record 2 removed
    assert neighbours(GS, (0, 3, 0, 0, 0)) == {
        idx((1, 3, 0, 0, 0)), idx((0, 4, 0, 0, 0)), idx((0, 3, 1, 0, 0)), idx((0, 2, 0, 0, 0))
    }
    # edge colours: the record added along each edge (arrowhead end) is j + 1 in the paper's labels
    u, v, j = GS
    assert np.all(H[v] - H[u] == np.eye(N, dtype=int)[j])
    # Delta_GS by BFS for record 2 (index 1) and record 1 (index 0)
    Ball = sp.ball_count_hist(H, None, R, "manhattan")
    for rec, h, expect_gs, expect_g in (
        (1, (0, 1, 0, 0, 0), np.inf, 1),  # isolated anomaly: G_S never reaches a normal/absent state
        (0, (1, 1, 0, 0, 0), 2, 1),  # add one record near 1 (allowed), then one more makes 1 normal
        (1, (0, 3, 0, 0, 0), 1, 1),  # already sensitive: one added neighbour makes it normal
    ):
        g = ((H[:, rec] >= 1) & (Ball[:, rec] <= BETA)).astype(int)
        dGS = sp.bfs_mdd(g, GS[0], GS[1])[idx(h)]
        dG = sp.bfs_mdd(g, G[0], G[1])[idx(h)]
        assert dGS == expect_gs and dG == expect_g
        x_i, B = h[rec], Ball[idx(h), rec]
        assert sp.mdd_dp(x_i, B, BETA) == expect_g
        assert sp.mdd_sp_lower(x_i, B, BETA, K) <= expect_gs
    # the closed-form L for the isolated anomaly is 3: SP error e^{-3 eps}/(1+e^{-eps}) vs DP 1/(1+e^eps)
    assert sp.mdd_sp_lower(1, 1, BETA, K) == 3


@pytest.mark.slow
def test_figure4_networkx_export():
    H, G, GS = setup()
    Gx = sp.to_networkx(N, 2, *sp.sensitive_graph(N, 2, R, BETA, K, "manhattan"))
    assert Gx.number_of_nodes() == 3**N
    assert Gx.has_edge((0, 2, 0, 0, 0), (1, 2, 0, 0, 0))  # B(1) = 2 before adding 1: allowed
    assert not Gx.has_edge((0, 1, 0, 0, 0), (1, 1, 0, 0, 0))  # B(1) = 1: not sensitive
    assert Gx.number_of_edges() == len(sp.sensitive_graph(N, 2, R, BETA, K, "manhattan")[0])
    assert all(d["record"] in range(N) for _, _, d in Gx.edges(data=True))
