"""Capped ball counts change a reported error by at most 2^-60 (``sp.recommended_cap`` at ε times the mechanism's
``noise_share``), for every registered paper-A mechanism: an exhaustive check over (x_i, B) up to past the cap.

Two mechanisms broke it: the compiler (``noise_share`` 1/2, but the gain e^(-ε δ/4) of an anomaly whose L the
cap cut falls at ε/4 per unit: β = 50, ε = 4 reported 2.5e-10 for an error of 6.2e-23) and the noisy threshold
(its difference of two DLap tails has a linear factor: 9.7e-18 at β = 1, ε = 0.25)."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly import mechanisms, sp

TOL = 2.0**-60


@pytest.mark.parametrize("name", mechanisms.names("aiq"))
def test_capped_error_is_within_tol_of_the_uncapped(name):
    m = mechanisms.get(name)
    worst = 0.0
    for beta in (1, 2, 5, 20, 50):
        for eps in (0.05, 0.25, 1.0, 4.0, 10.0):
            cap = sp.recommended_cap(beta, eps * m.noise_share)
            B = np.arange(0, cap + 200)
            for k in sorted({1, 5, beta} & set(range(1, beta + 1))):
                for x_i in (0, 1, 2, 5):
                    b = np.maximum(B, x_i)
                    x = np.full_like(b, x_i)
                    capped = np.asarray(m.error(x, np.minimum(b, cap), beta=beta, k=k, eps=eps, cap=cap))
                    exact = np.asarray(m.error(x, b, beta=beta, k=k, eps=eps, cap=None))
                    worst = max(worst, float(np.max(np.abs(capped - exact))))
    assert worst <= TOL, f"{name}: a capped error differs by {worst:.3g} > 2^-60"


def test_the_compiler_decays_at_a_quarter_of_eps():
    """The case the cap missed: an anomaly (x_i = 1, B = 1) at β = 50, ε = 4."""
    m = mechanisms.get("compiler")
    cap = sp.recommended_cap(50, 4.0 * m.noise_share)
    assert m.noise_share == 0.25
    assert m.error(1, 1, beta=50, k=1, eps=4.0, cap=cap) == pytest.approx(
        float(m.error(1, 1, beta=50, k=1, eps=4.0, cap=None)), rel=0, abs=TOL)
    assert float(m.error(1, 1, beta=50, k=1, eps=4.0, cap=None)) < 1e-22
