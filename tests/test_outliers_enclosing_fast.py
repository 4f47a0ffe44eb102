"""The fast parts of Algorithm 1 and of the smooth bounds return, bit for bit, what the code they replaced returned,
above all at the float boundary of the closed radius (the worlds of privanomaly.audit.float_boundary_worlds sit on
it): the compiled disc count in the plane (kept here in its former numpy form), the small-array unique rows, the
shared smallest-enclosing-ball radii of one bound, and the block counts keyed by the cells themselves."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from privanomaly.audit import float_boundary_worlds as fb
from privanomaly.outliers import _blocks, enclosing, smooth
from privanomaly.outliers.distance import RADIUS_RTOL
from privanomaly.outliers.gaussian import smooth_parameters

BETA = smooth_parameters(0.5, 0.01)[1]


def _reference_2d(U: np.ndarray, w: np.ndarray, r: float, work=None) -> int:
    """The numpy version of enclosing._largest_enclosed_2d that the compiled kernel replaced (verbatim)."""
    rr = r * (1.0 + enclosing.SEB_RTOL)
    rd = r * (1.0 + RADIUS_RTOL)
    if work is not None:
        work.charge()
    total = int(w.sum())
    best = 0
    for a, nb in enumerate(enclosing.cKDTree(U).query_ball_point(U, 2.0 * rr)):
        nb = np.asarray(nb, dtype=np.int64)
        D = U[nb] - U[a]
        W = w[nb]
        dist = enclosing._norms(D)
        best = max(best, int(W[dist <= rr].sum()))
        sel = (nb > a) & (dist <= 2.0 * rr)
        if best == total:
            return best
        if not sel.any():
            continue
        Db, half = D[sel], dist[sel] / 2.0
        h = np.sqrt(np.maximum(rd * rd - half * half, 0.0))
        perp = np.stack([-Db[:, 1], Db[:, 0]], axis=1) / (2.0 * half)[:, None]
        self_a = nb == a
        pos_b = np.nonzero(sel)[0]
        for sgn in (1.0, -1.0):
            C = Db / 2.0 + sgn * h[:, None] * perp
            inside = enclosing._norms(D[None, :, :] - C[:, None, :]) <= rr
            inside[:, self_a] = True
            inside[np.arange(len(pos_b)), pos_b] = True
            best = max(best, int((inside @ W).max()))
    return best


def _reference_enclosed_rows(U, rows, r, work=None) -> bool:
    """The former call of the pruned search: the smallest enclosing ball of U[rows] as listed, no shared radii."""
    return enclosing._enclosed(U[rows], r, work)


def _reference_unique_rows(P):
    return np.unique(P, axis=0, return_counts=True)


def _old_code(monkeypatch) -> None:
    """Every replaced part back in its former form."""
    monkeypatch.setattr(enclosing, "_largest_enclosed_2d", _reference_2d)
    monkeypatch.setattr(enclosing, "_enclosed_rows", _reference_enclosed_rows)
    monkeypatch.setattr(enclosing, "_unique_rows", _reference_unique_rows)
    monkeypatch.setattr(_blocks, "SMALL_PAIRS", -1)


def _windows_of(Y: np.ndarray, k: int, r: float):
    """The point sets the smooth bounds hand to Algorithm 1 on dataset Y: every window W_t^c (scaled coordinates)."""
    w, _ = smooth._windows(Y, k, r, BETA, None, None)
    for c in w.keys:
        for t in range(w.T):
            P = w.Z[w.keys[c] <= t]
            if len(P):
                yield P, w.r


def _boundary_sets(dims: tuple[int, ...], n: int, seed: int):
    rng = np.random.default_rng(seed)
    worlds = fb.fixed_worlds(rng, dims) + list(fb.random_worlds(rng, n, dims))
    seen = set()
    for wd in worlds:
        for Y in (wd.X, wd.Xp):
            for P, r in _windows_of(Y, wd.k, wd.r):
                key = (P.tobytes(), r)
                if key not in seen:
                    seen.add(key)
                    yield P, r


def _random_sets(dim: int, count: int, seed: int, most: int = 30):
    """Lattice points (ties at exactly r for r = 1, sqrt 2 / 2, ...), duplicates, and points far from the origin;
    at most ``most`` points (the pruned search is exponential on dense sets in 3-D)."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.integers(1, most))
        P = rng.integers(0, 4, size=(n, dim)).astype(float) * [1.0, 0.5][i % 2]
        if i % 3 == 0:
            P = P + 1e8
        r = float(rng.choice([0.5, 1.0, np.sqrt(2) / 2, np.sqrt(2), 1.5]))
        yield enclosing.scaled_to_r(P, r)


@pytest.mark.slow
@pytest.mark.parametrize("seb_rtol", [enclosing.SEB_RTOL, RADIUS_RTOL])  # the fixed and the old tolerance
def test_compiled_2d_disc_count_is_the_numpy_one_at_the_boundary(seb_rtol, monkeypatch):
    monkeypatch.setattr(enclosing, "SEB_RTOL", seb_rtol)
    checked = 0
    for P, r in itertools.chain(_boundary_sets((2,), 100, 3), _random_sets(2, 200, 4)):
        U, w = np.unique(P, axis=0, return_counts=True)
        assert enclosing._largest_enclosed_2d(U, w, r) == _reference_2d(U, w, r), (U, w, r)
        checked += 1
    assert checked > 700


def test_unique_rows_are_numpys_bit_for_bit():
    rng = np.random.default_rng(5)
    for i in range(500):
        n, d = int(rng.integers(0, 40)), int(rng.integers(1, 5))
        P = rng.integers(-2, 3, size=(n, d)).astype(float) * 0.5
        if i % 4 == 0:
            P[rng.random(P.shape) < 0.2] = -0.0  # signed zeros: numpy's own unique
        if i % 9 == 0 and n:
            P[0, 0] = np.nan
        if i % 2:
            P = P + rng.normal(size=P.shape) * 1e-15  # near-duplicates stay apart
        got, want = enclosing._unique_rows(P), np.unique(P, axis=0, return_counts=True)
        assert got[0].tobytes() == want[0].tobytes() and got[0].shape == want[0].shape
        assert np.array_equal(got[1], want[1])


@pytest.mark.slow
def test_shared_radii_give_the_same_sizes_and_work_in_3d(monkeypatch):
    sets = list(itertools.chain(_boundary_sets((3,), 40, 6), _random_sets(3, 150, 7, 12)))

    def run():
        out = []
        for P, r in sets:
            work = enclosing._Work()
            out.append((enclosing.largest_enclosed_subset(P, r, _work=work), work.used))
        return out

    fast = run()
    with enclosing.shared_radii():  # one block for all: also sets repeated across the calls
        assert run() == fast
    monkeypatch.setattr(enclosing, "_enclosed_rows", _reference_enclosed_rows)
    monkeypatch.setattr(enclosing, "_unique_rows", _reference_unique_rows)
    assert run() == fast and sum(u for _, u in fast) > 500


def _result(Y, k, r, method, exact_max):
    res = smooth.smooth_sensitivity(Y, k, r, BETA, method, **({} if exact_max is None else {"exact_max": exact_max}))
    return (res.value.hex(), res.t_max, res.t_stop, res.ls_bounds.tolist(), np.asarray(res.m_k).tolist(),
            np.asarray(res.m_km1).tolist(), res.work)


@pytest.mark.slow
@pytest.mark.parametrize("dims", [(2,), (3,)])
def test_smooth_bounds_equal_the_former_code_on_boundary_worlds(dims, monkeypatch):
    """Every field of every bound of fb.BOUND_VARIANTS (value bit for bit, B_t, M/G per t, work) on both datasets
    of boundary worlds and of random lattice data (ties) is what the former code computes."""
    rng = np.random.default_rng(8)
    data = [(Y, wd.k, wd.r) for wd in fb.random_worlds(rng, 60 if dims == (2,) else 40, dims) for Y in (wd.X, wd.Xp)]
    for i in range(20 if dims == (2,) else 10):
        n = int(rng.integers(5, 40 if dims == (2,) else 10))
        data.append((rng.integers(0, 5, size=(n, dims[0])).astype(float) * 0.5 + 1e7 * (i % 2),
                     int(rng.integers(1, 6)), float(rng.choice([0.5, 1.0, np.sqrt(2) / 2]))))
    runs = [(Y, k, r, m, em) for (Y, k, r) in data for m, em in fb.BOUND_VARIANTS]
    fast = [_result(*run) for run in runs]
    _old_code(monkeypatch)
    assert fast == [_result(*run) for run in runs]

