"""Algorithm 1 at the float boundary of the closed radius: whatever the degree test of
:mod:`privanomaly.outliers.distance` counts within r of one centre must be one enclosed set for Algorithm 1
(eqs. 45-46), or Theorem 2's premise S >= LS can fail. Worlds: copies of the vertices of a regular polygon
(2-D) or a triangle in 3-D at circumradius r(1 + RADIUS_RTOL)(1 ± j·1e-16), centre at the circumcentre."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from privanomaly.outliers.distance import RADIUS_RTOL
from privanomaly.outliers.enclosing import largest_enclosed_subset


def boundary_world(rng: np.random.Generator, dim: int, n_vertices: int, copies: int, r: float):
    """Vertices of a regular polygon (in a random plane for 3-D) around a random centre, each repeated
    ``copies`` times at circumradius r(1 + RADIUS_RTOL)(1 + j·1e-16), j in -copies..copies."""
    centre = rng.uniform(-5, 5, size=dim)
    basis = np.linalg.qr(rng.normal(size=(dim, dim)))[0][:, :2]
    ang = rng.uniform(0, 2 * np.pi) + 2 * np.pi * np.arange(n_vertices) / n_vertices
    unit = np.cos(ang)[:, None] * basis[:, 0] + np.sin(ang)[:, None] * basis[:, 1]
    j = rng.integers(-copies, copies + 1, size=(copies, n_vertices))
    rho = r * (1 + RADIUS_RTOL) * (1 + j * 1e-16)
    P = centre + (rho[..., None] * unit[None, :, :]).reshape(-1, dim)
    return P, centre


@pytest.mark.slow
@pytest.mark.parametrize("dim, n_vertices", [(2, 3), (2, 4), (2, 6), (3, 3), (3, 4)])
def test_what_the_degree_test_sees_within_r_of_a_point_is_enclosed(dim, n_vertices):
    rng = np.random.default_rng(7 + dim * 10 + n_vertices)
    failures, checked = 0, 0
    for _ in range(4000 if dim == 2 else 800):
        r = float(rng.choice([1.0, 0.37, 3.1, 1e-3]))
        P, c = boundary_world(rng, dim, n_vertices, int(rng.integers(1, 4)), r)
        within = cKDTree(P).query_ball_point(c, r * (1.0 + RADIUS_RTOL))  # the degree test's arithmetic
        if len(within) < 2:
            continue
        checked += 1
        failures += largest_enclosed_subset(P[within], r) < len(within)
    assert checked >= 600
    assert failures == 0, f"{failures} of {checked} boundary sets not enclosed"


@pytest.mark.parametrize("dim, n_vertices", [(2, 3), (2, 4), (3, 3)])
def test_smooth_bound_is_at_least_the_local_sensitivity_at_the_boundary(dim, n_vertices):
    """Theorem 2's premise S(X) >= LS(X) on boundary worlds plus one far record that moves to the centre:
    Algorithm 2 and the fast bound at every ``exact_max``."""
    from privanomaly.outliers.smooth import local_sensitivity_exact_grid, smooth_sensitivity

    rng = np.random.default_rng(100 + dim * 10 + n_vertices)
    checked = 0
    for _ in range(40):
        copies = int(rng.integers(2, 5))
        P, c = boundary_world(rng, dim, n_vertices, copies, 1.0)
        X = np.vstack([P, c + 50.0]) * np.sqrt(dim)  # paper B's dist_S scales by 1/sqrt(d)
        k = copies
        ls = local_sensitivity_exact_grid(X, k, 1.0, (c * np.sqrt(dim))[None, :])
        for method, exact_max in [("paper", None), ("fast", 0), ("fast", 8), ("fast", 64), ("fast", 512)]:
            kw = {} if exact_max is None else {"exact_max": exact_max}
            s = smooth_sensitivity(X, k, 1.0, 0.1, method, **kw).value
            assert s >= ls, (method, exact_max, s, ls)
            checked += 1
    assert checked == 200
