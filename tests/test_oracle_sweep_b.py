"""End to end: a paper-B sweep job's rows (sweeps.sigma.dataset_rows) recomputed with the independent oracle of
tests/oracle_paper_b.py - the true count (eq. 14), Theorem 4's bounds, beta, the smooth bound of eqs. (29)-(31)
(on a line, from its definition), sigma_Global / sigma_Smooth of Theorems 1-2 for every reading, and the exact
expected precision/recall of Algorithm 3 from its law by enumeration."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import oracle_paper_a
import oracle_paper_b as O
from privanomaly.sweeps import sigma, spec

SETTINGS = {"eps": [0.2, 0.9], "delta": 0.01, "conventions": ["printed", "alpha_without_5", "beta_equals_eps",
                                                               "log10_global", "global_variance_as_std",
                                                               "local_theorem1"],
            "methods": ["paper", "fast"], "h": [1, 2], "subspace_dims": [1, 2], "max_subspaces": 10,
            "max_work": None, "fast_exact_max": 64, "timeout": None,
            "true_subspace": {"rule": "labelled_outlier", "min_outliers": 1}, "sensitivity": 1.0}


@pytest.mark.slow
def test_sigma_rows_on_a_line_equal_the_oracle():
    x = np.array([0, 1, 1, 2, 3, 5, 6, 6, 6, 9, 12, 12.5, 20], dtype=float)
    y = np.zeros(len(x), int)
    y[[9, 12]] = 1
    s = {**SETTINGS, "h": [], "subspace_dims": []}
    t = sigma.dataset_rows(x[:, None], y, "line", [2, 3], spec.radii("value", [1, 0.5]), s, None)
    N, d = len(x), 1
    c = math.sqrt(2 * math.log(2 / 0.01))
    assert len(t) == 2 * 2 * len(s["methods"]) * len(s["conventions"]) * len(s["eps"])
    for _, row in t.iterrows():
        k, r, eps = int(row.k), float(row.r), float(row.eps)
        assert r == row.r_spec and row.true_count == O.q_count(x[:, None], k, r)
        assert row.gs_lower == min(N, 2 * d * k + 1) and row.gs_upper == min(N, k * 2 + 1)  # K_1 = 2
        printed_beta = eps / (4 * (1 + math.log(2 / 0.01)))
        beta = eps if row.convention in ("beta_equals_eps", "local_theorem1") else printed_beta
        assert math.isclose(row.beta, beta, rel_tol=1e-12)
        value, bounds = O.theorem6_smooth_1d(x, k, r, row.beta)
        S = bounds[0] if row.convention == "local_theorem1" else value
        if row.method == "paper":
            assert math.isclose(row.smooth_sensitivity, S, rel_tol=1e-12)
        else:
            assert row.smooth_sensitivity >= S * (1 - 1e-12)
        factor = 1.0 if row.convention in ("alpha_without_5", "local_theorem1") else 5.0
        assert math.isclose(row.sigma_smooth, row.smooth_sensitivity * factor * c / eps, rel_tol=1e-12)
        gs_c = {"log10_global": math.sqrt(2 * math.log10(2 / 0.01)),
                "global_variance_as_std": None}.get(row.convention, c)
        for col, gs in (("sigma_global", row.gs_lower), ("sigma_global_upper", row.gs_upper)):
            want = gs**2 * c**2 / eps**2 if gs_c is None else gs * gs_c / eps
            assert math.isclose(row[col], want, rel_tol=1e-12), (row.convention, col)
        assert math.isclose(row.ratio, row.sigma_global / row.sigma_smooth, rel_tol=1e-12)
        # what the theorems prove: Theorem 1 needs a GS upper bound, the printed constants and its condition
        assert not row.sigma_global_proven
        assert bool(row.sigma_global_upper_proven) == (row.convention == "printed")
        assert bool(row.sigma_smooth_proven) == (row.convention == "printed")


def test_top_h_rows_equal_the_law_of_algorithm3():
    rng = np.random.default_rng(4)
    X = np.round(rng.normal(size=(30, 3)), 1)
    X[:3, 0] += 8.0  # outliers in attribute 1
    y = np.zeros(len(X), int)
    y[:3] = 1
    k, r = 3, 0.4
    s = {**SETTINGS, "conventions": ["printed"], "methods": ["fast"]}
    t = sigma.dataset_rows(X, y, "cube", [k], spec.radii("value", [0.4]), s, None)
    top = t[t["part"] == "top_h"]
    N = len(X)
    for _, row in top.iterrows():
        dim, h, eps = int(row.subspace_dim), int(row.h), float(row.eps)
        subs = list(itertools.combinations(range(3), dim))
        assert row.n_subspaces == len(subs)
        K = {1: 2, 2: 6}[dim]
        util, truth = [], []
        for S in subs:
            deg = O.degrees(X, r, S)
            out = [dg < k for dg in deg]
            util.append(sum(out) / min(N, k * K + 1))  # eq. (51)
            truth.append(any(o and lab for o, lab in zip(out, y)))
        assert row.n_true == sum(truth)
        if h >= len(subs):
            assert row.skipped != ""
            continue
        inc = O.inclusion(O.top_h_law(util, h, oracle_paper_a.rate(eps)), len(subs))
        etp = sum(p for p, tr in zip(inc, truth) if tr)
        assert math.isclose(row.precision, etp / h, rel_tol=1e-9)
        assert math.isclose(row.recall, etp / sum(truth), rel_tol=1e-9)
