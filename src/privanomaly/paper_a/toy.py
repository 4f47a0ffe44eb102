"""Data behind paper A's illustrative figures: Fig 1 (DP trade-off), Fig 2/3 (per-record accuracy and
privacy on 2-D data), Fig 4 (a 1-sensitive neighbourhood graph), and the compiler figure (Construction 2).
Each function returns tidy DataFrames; plotting lives in :mod:`privanomaly.paper_a.plots`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly import sp
from privanomaly.paper_a.records import rec_cap


# ---------------------------------------------------------------- Figure 1
def dp_tradeoff_frontier(eps_values: list[float], n_points: int = 201) -> pd.DataFrame:
    """Lower frontier of the feasible (error on x, error on y) region for neighbours x ~ y with
    g(i,x) = 1 ≠ g(i,y) = 0 under ε-DP (Def. 2.1).

    With a = P(M(x)=0) (error on x) and b = P(M(y)=1) (error on y), ε-DP requires
    1−a ≤ e^ε b and 1−b ≤ e^ε a, so the smallest feasible a for a given b is max(1 − e^ε b, e^{−ε}(1−b), 0).
    """
    b = np.linspace(0.0, 1.0, n_points)
    rows = []
    for eps in eps_values:
        a = np.maximum.reduce([1 - np.exp(eps) * b, np.exp(-eps) * (1 - b), np.zeros_like(b)])
        rows.append(pd.DataFrame({"eps": float(eps), "error_y": b, "min_error_x": a}))
    return pd.concat(rows, ignore_index=True)


def dp_min_worst_error(eps_grid: np.ndarray) -> pd.DataFrame:
    """min over ε-DP mechanisms of max(error on x, error on y) = 1/(1+e^ε) (attained at a = b)."""
    eps_grid = np.asarray(eps_grid, float)
    return pd.DataFrame({"eps": eps_grid, "min_worst_error": 1.0 / (1.0 + np.exp(eps_grid))})


# ---------------------------------------------------------------- Figures 2 and 3
def per_record_privacy(rec: pd.DataFrame, coords: np.ndarray, beta: int, eps: float, k_main: int,
                       k_values: list[int], r: float = float("nan")) -> pd.DataFrame:
    """Per record of the 2-D data: accuracy 1 − error of SP (k_main) and optimal DP at ε, and for every k the
    privacy level: e^{−ε} where the record is k-sensitive (Lemma A.2: B ≥ β+1−k), NaN (no guarantee
    beyond the graph distance) where it is not. DP protects every record at e^{−ε}."""
    x_i = rec["x_i"].to_numpy()
    B = rec["B"].to_numpy()
    out = pd.DataFrame({"record": rec["record"].to_numpy(), "x0": coords[:, 0], "x1": coords[:, 1],
                        "label": rec["label"].to_numpy(), "anomaly": rec["anomaly"].to_numpy(), "B": B})
    cap = rec_cap(rec)
    out["accuracy_sp"] = 1 - np.asarray(sp.sp_error(x_i, B, beta, k_main, eps, cap=cap), float)
    out["accuracy_dp"] = 1 - np.asarray(sp.optimal_dp_error(x_i, B, beta, eps, cap=cap), float)
    out["privacy_dp"] = np.exp(-eps)
    for k in sorted(set([k_main, *k_values])):
        sens = np.asarray(sp.is_k_sensitive(B, beta, k), bool)
        out[f"privacy_sp_k{k}"] = np.where(sens, np.exp(-eps), np.nan)
    out["eps"] = eps
    out["k_main"] = k_main
    out["beta"] = int(beta)
    out["r"] = float(r)
    return out


def sensitive_fraction(rec: pd.DataFrame, beta: int, k_values: list[int]) -> pd.DataFrame:
    """Fraction of records that are k-sensitive (protected exactly as under DP) for each k."""
    B = rec["B"].to_numpy()
    rows = []
    for k in sorted(k_values):
        sens = np.asarray(sp.is_k_sensitive(B, beta, k), bool)
        rows.append(dict(k=int(k), n_records=len(B), n_sensitive=int(sens.sum()), frac_sensitive=float(sens.mean()),
                         frac_anomalies_sensitive=float(sens[rec["anomaly"].to_numpy()].mean())
                         if rec["anomaly"].any() else np.nan))
    return pd.DataFrame(rows)


def density_grid(coords: np.ndarray, n_grid: int = 120, pad: float = 0.05) -> pd.DataFrame:
    """Gaussian-KDE density of the 2-D data on a regular grid (tidy: x0, x1, density)."""
    from scipy.stats import gaussian_kde

    lo, hi = coords.min(0), coords.max(0)
    span = hi - lo
    g0 = np.linspace(lo[0] - pad * span[0], hi[0] + pad * span[0], n_grid)
    g1 = np.linspace(lo[1] - pad * span[1], hi[1] + pad * span[1], n_grid)
    G0, G1 = np.meshgrid(g0, g1)
    dens = gaussian_kde(coords.T)(np.vstack([G0.ravel(), G1.ravel()]))
    return pd.DataFrame({"x0": G0.ravel(), "x1": G1.ravel(), "density": dens})


# ---------------------------------------------------------------- compiler figure
def compiler_table(rec: pd.DataFrame, beta: int, k: int, eps: float) -> pd.DataFrame:
    """Construction 2 on a constant-error input: M errs with c = 1/(1+e^{ε/2}) on every database (the
    smallest constant error an ε/2-DP mechanism can have); the compiled SP mechanism errs with
    c·e^{−εδ/4}, δ = L − Δ_G (Theorem 4.7). One row per record, ranked by compiled error."""
    x_i = rec["x_i"].to_numpy()
    B = rec["B"].to_numpy()
    c = 1.0 / (1.0 + np.exp(eps / 2))
    inp = np.full(len(rec), c)
    cap = rec_cap(rec)
    comp = np.asarray(sp.compiled_error(inp, x_i, B, beta, k, eps, cap=cap), float)
    delta = np.asarray(sp.compiler_delta(x_i, B, beta, k, cap=cap))
    out = pd.DataFrame({"record": rec["record"].to_numpy(), "anomaly": rec["anomaly"].to_numpy(),
                        "sensitive": np.asarray(sp.is_k_sensitive(B, beta, k), bool), "B": B, "x_i": x_i,
                        "delta": delta.astype(int), "input_error": inp, "compiled_error": comp})
    out = out.sort_values(["compiled_error", "record"], ascending=[False, True], kind="mergesort")
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    out["eps"] = eps
    out["k"] = k
    return out.reset_index(drop=True)


# ---------------------------------------------------------------- Figure 4
def sensitive_neighbourhood(center: list[int], beta: int, r: float, k: int, hops: int = 1):
    """Nodes and edges of G around ``center`` (a histogram over X = {1..m}, ℓ1) up to ``hops`` steps.

    Built with :mod:`privanomaly.sp.graphs` (the exhaustive small-world code the SP proofs are tested
    with): the box {0..max(center)+hops}^m, its neighbourhood graph G and k-sensitive graph G_S (Sec. 3,
    Lemma A.2), and a BFS from the centre. Returns (nodes, edges); ``edges.in_gs`` marks G_S edges and
    ``record_added`` is the value (1-based) added from ``source`` to ``target``.
    """
    from privanomaly.sp import graphs

    center = np.asarray(center, dtype=np.int64)
    if center.ndim != 1 or np.any(center < 0):
        raise ValueError(f"paper_a.fig4.center must be a list of counts >= 0, got {center.tolist()}")
    m, cap = len(center), int(center.max()) + int(hops)
    H = graphs.enumerate_histograms(m, cap)
    u, v, j = graphs.neighbourhood_graph(m, cap)
    gu, gv, _ = graphs.sensitive_graph(m, cap, r, beta, k, "manhattan", edges=(u, v, j))
    in_gs = set(zip(gu.tolist(), gv.tolist()))
    c_idx = int(graphs.hist_index(center, cap))
    dist = graphs.bfs_distance_to(len(H), u, v, np.array([c_idx]))
    keep = np.flatnonzero(dist <= hops)
    keep_set = set(keep.tolist())
    name = {int(t): str(tuple(int(a) for a in H[t])) for t in keep}
    B = graphs.ball_count_hist(H[keep], None, r, "manhattan")
    n_anom = ((H[keep] >= 1) & (B <= beta)).sum(axis=1)
    nodes = pd.DataFrame({"node": [name[int(t)] for t in keep], "hops": dist[keep].astype(int),
                          "size": H[keep].sum(axis=1), "n_anomalous_values": n_anom})
    sel = [e for e in range(len(u)) if int(u[e]) in keep_set and int(v[e]) in keep_set]
    edges = pd.DataFrame({"source": [name[int(u[e])] for e in sel], "target": [name[int(v[e])] for e in sel],
                          "record_added": [int(j[e]) + 1 for e in sel],
                          "in_gs": [(int(u[e]), int(v[e])) in in_gs for e in sel]})
    return nodes.sort_values("node").reset_index(drop=True), edges


def layout(nodes: pd.DataFrame, center: str) -> pd.DataFrame:
    """Deterministic ring layout: the centre database at the origin, databases h steps away on ring h,
    ordered clockwise from the top by (records added − removed, descending), so additions sit on the right
    and removals on the left."""
    nodes = nodes.copy()
    csize = int(nodes.loc[nodes["node"] == center, "size"].iloc[0])
    nodes["x"] = 0.0
    nodes["y"] = 0.0
    for h, grp in nodes.groupby("hops"):
        if h == 0:
            continue
        order = grp.assign(dsize=grp["size"] - csize).sort_values(["dsize", "node"], ascending=[False, True])
        n = len(order)
        theta = np.pi / 2 - 2 * np.pi * (np.arange(n) + 0.5) / n
        nodes.loc[order.index, "x"] = h * np.cos(theta)
        nodes.loc[order.index, "y"] = h * np.sin(theta)
    return nodes
