"""A column constant on the public part: its public z-scores are 0, not blown up (float std need not be 0)."""

from __future__ import annotations

import numpy as np

from privanomaly.privacy import public_fit


def test_column_constant_on_the_public_rows_is_set_to_zero_not_blown_up():
    """n copies of 0.3 have a float std of ~1e-16, not 0: dividing by it sent the other rows to ~1e16."""
    X = np.zeros((1000, 2))
    X[:, 0] = np.linspace(-1.0, 1.0, 1000)
    X[:, 1] = np.where(np.arange(1000) < 500, 0.3, -0.5)  # a binary feature, one value on the public rows
    f = public_fit.fit(X[:500], public_fit.Spec(standardize=True))
    out = f.transform(X)
    assert (out[:, 1] == 0.0).all() and f.const.tolist() == [False, True]
    P = X[:500, 0]
    np.testing.assert_allclose(out[:, 0], (X[:, 0] - P.mean()) / P.std(), rtol=0, atol=1e-12)
