"""A column constant on the public split: refitted z-scores stay finite and small (float std need not be 0)."""

from __future__ import annotations

import numpy as np

from privanomaly.privacy import public_split, scope


def test_column_constant_on_the_public_rows_is_set_to_zero_not_blown_up():
    """n copies of 0.3 have a float std of ~1e-16, not 0: dividing by it sent the other rows to ~1e16."""
    Z = np.zeros((1000, 2))
    Z[:, 0] = np.linspace(-1.0, 1.0, 1000)
    Z[:, 1] = np.where(np.arange(1000) < 500, 0.3, -0.5)  # a binary feature, one value on the public rows
    prov = {"steps": [{"step": "standardize", "fitted_on": scope.FITTED_ON_DATA}]}
    out, prov_h = public_split.refit_standardisation(Z, np.arange(500), prov)
    assert (out[:, 1] == 0.0).all()
    assert prov_h["steps"][0]["constant_on_public_split"] == [1]
    P = Z[:500, 0]
    np.testing.assert_allclose(out[:, 0], (Z[:, 0] - P.mean()) / P.std(), rtol=0, atol=1e-12)
