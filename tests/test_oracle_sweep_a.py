"""End to end: the paper-A sweep's released rows (sweeps.chunks.count_tables + chunk_rows) recomputed column by
column with the independent oracle of tests/oracle_paper_a.py (exact ball counts, Def. 2.2, Lemma A.2, each
mechanism's law, precision/recall as ratios of expectations, the claims the theorems prove)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import oracle_paper_a as O
from privanomaly import seeding
from privanomaly.sweeps import chunks, counts, partition, spec

MECHS = ["sp", "optimal_dp", "compiler", "laplace_count", "laplace_noisy_threshold"]
# what Theorems 4.4 / 4.6 / 4.7 and the Laplace mechanism prove at parameter ε: (rate, neighbour relation)
CLAIMS = {"optimal_dp": (1.0, "add_remove"), "sp": (1.0, "sensitive_k"), "compiler": (1.0, "sensitive_k"),
          "laplace_count": (1.0, "add_remove"), "laplace_noisy_threshold": (0.5, "add_remove")}


def _data():
    """A 2-D integer dataset with duplicates, pairs at exactly r = 1 and 2, a sparse corner."""
    X = np.array([[0, 0], [0, 0], [0, 1], [1, 0], [1, 1], [0, 2], [2, 0], [5, 5], [5, 6], [9, 0],
                  [9, 0], [9, 0], [12, 12], [3, 3], [3, 4], [4, 4], [0, 0]], dtype=float)
    y = np.zeros(len(X), np.int8)
    y[[7, 8, 12]] = 1
    return X, y


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev"])
def test_sweep_rows_equal_the_oracle(metric):
    X, y = _data()
    sw = spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": MECHS, "eps": [0.25, 1.0],
                          "k": [1, 2], "beta": [2, 4], "r": {"value": [1.0, 2.0]}, "n_absent": 25, "metric": metric})
    cap = counts.sweep_cap(sw.beta, sw.eps)
    absent = counts.absent_points(X, sw.n_absent, seeding.rng(0, "sweep_counts", "s", "d"))
    table = chunks.count_tables("d", X, y, spec.balls(sw), sw.metric, cap, absent)
    out = pd.concat([chunks.chunk_rows(table, "d", pts, MECHS, cap) for pts in partition.chunks(sw, 5)],
                    ignore_index=True)
    assert len(out) == 2 * 2 * 2 * 2 * len(MECHS)
    xi = O.multiplicities(X)
    for _, row in out.iterrows():
        beta, k, eps, r, name = int(row.beta), int(row.k), float(row.eps), float(row.r), row.mechanism
        assert r == row.r_spec
        B = O.ball_counts(X, r, metric)
        Bab = O.ball_counts(X, r, metric, queries=absent)
        g = (xi >= 1) & (B <= beta)
        err = np.array([O.mechanism_error(name, int(a), int(b), beta, k, eps) for a, b in zip(xi, B)])
        err_ab = np.array([O.mechanism_error(name, 0, int(b), beta, k, eps) for b in Bab])
        assert row.n_records == len(X) and row.n_anomalies == int(g.sum()) and row.n_labelled == int(y.sum())
        assert row.n_absent == len(absent) and row.n_absent_void == int((Bab == 0).sum())
        for col, want in (("error_anomaly", err[g].mean() if g.any() else math.nan),
                          ("error_normal", err[~g].mean()), ("error_all", err.mean()),
                          ("error_absent", err_ab.mean()),
                          ("error_absent_void", err_ab[Bab == 0].mean() if (Bab == 0).any() else math.nan)):
            if math.isnan(want):
                assert math.isnan(row[col]), col
            else:
                assert math.isclose(row[col], want, rel_tol=1e-9, abs_tol=1e-15), (col, row[col], want)
        p_one = np.where(g, 1 - err, err)
        for truth, suffix in ((y == 1, "labels"), (g, "br")):
            prec, rec = O.expected_pr(p_one, truth)
            assert math.isclose(row[f"recall_{suffix}"], rec, rel_tol=1e-9)
            assert math.isclose(row[f"precision_{suffix}"], prec, rel_tol=1e-9)
        sens = B >= beta + 1 - k
        assert math.isclose(row.share_k_sensitive, sens.mean())
        share_anom = sens[g].mean() if g.any() else math.nan
        assert (math.isnan(share_anom) and math.isnan(row.share_k_sensitive_anomalies)) or math.isclose(
            row.share_k_sensitive_anomalies, share_anom)
        factor, relation = CLAIMS[name]
        assert row.claim_eps == O.rate(factor * eps) and row.claim_eps <= factor * eps
        assert row.claim_delta == 0.0 and row.neighbours == relation and bool(row.claim_proven)
