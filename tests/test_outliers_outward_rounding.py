"""The scales that carry paper B's proven claims are on the safe side of the exact real formula
(privanomaly.outliers.gaussian: sigma_Global up, alpha and beta down), checked against 60-digit decimals."""

from decimal import Decimal, getcontext

import numpy as np
import pytest

from privanomaly.outliers import gaussian as g

getcontext().prec = 60


def _d(x: float) -> Decimal:
    return Decimal(float(x))  # exact: every float is a dyadic rational


def _exact_c(delta: float) -> Decimal:
    return (2 * (Decimal(2) / _d(delta)).ln()).sqrt()


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(20261123)
    eps = np.exp(rng.uniform(np.log(0.003), np.log(7.0), 400))
    delta = np.exp(rng.uniform(np.log(1e-9), np.log(0.2), 400))
    gs = rng.integers(1, 10**6, 400)
    return list(zip(gs.tolist(), eps.tolist(), delta.tolist()))


def test_sigma_global_is_never_below_theorem1(inputs):
    for gs, eps, delta in inputs:
        if g.theorem1_exact_delta(eps, delta) > delta:
            continue
        exact = Decimal(gs) * _exact_c(delta) / _d(eps)
        got = _d(g.sigma_global(gs, eps, delta))
        assert got >= exact, (gs, eps, delta)
        assert got <= exact * (1 + Decimal(2) ** -46)  # and only just above it


def test_alpha_and_beta_are_never_above_theorem2(inputs):
    for _, eps, delta in inputs:
        alpha, beta = g.smooth_parameters(eps, delta)
        exact_alpha = _d(eps) / (5 * _exact_c(delta))
        exact_beta = _d(eps) / (4 * (1 + (Decimal(2) / _d(delta)).ln()))
        assert exact_alpha * (1 - Decimal(2) ** -46) <= _d(alpha) <= exact_alpha, (eps, delta)
        assert exact_beta * (1 - Decimal(2) ** -46) <= _d(beta) <= exact_beta, (eps, delta)
        assert _d(g.sigma_smooth(3.0, eps, delta)) >= 3 / exact_alpha
