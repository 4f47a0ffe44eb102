"""The fast smooth bound at scale: capped degrees up to the public horizon T, and the hashed block counts.

Cross-checks: the compiled block kernel against the sort-based reference it replaced; both smooth bounds with
the horizon against the same bounds over every t = 0..N (T = N + 1, uncapped degrees): the same value; any
public T (even a tiny one) gives a valid beta-smooth upper bound (eq. 7 on neighbours, S >= LS by brute force).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from privanomaly.outliers import _blocks, distance, local_sensitivity_exact_grid, smooth
from privanomaly.outliers._blocks import max_block_counts


def _reference_block_counts(cells: np.ndarray, keys: np.ndarray, n_t: int) -> np.ndarray:
    """The sort-based computation of max over 2^m-cell blocks of #points with key <= t (the former kernel)."""
    n, m = cells.shape
    best = np.zeros(n_t, dtype=np.int64)
    blocks: dict[tuple, list[int]] = {}
    for i in range(n):
        for off in itertools.product((0, 1), repeat=m):
            blocks.setdefault(tuple(cells[i] - np.array(off)), []).append(int(keys[i]))
    for t in range(n_t):
        best[t] = max(sum(1 for key in ks if key <= t) for ks in blocks.values())
    return best


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("small_pairs", [_blocks.SMALL_PAIRS, 0])  # the cells as keys / the distinct cells' codes
def test_hashed_block_counts_equal_the_reference(seed, small_pairs, monkeypatch):
    monkeypatch.setattr(_blocks, "SMALL_PAIRS", small_pairs)
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 40)), int(rng.integers(1, 5))
    span = int(rng.choice([2, 5, 10**5, 2**40]))  # 2**40 per axis: codes split into several int64 groups
    cells = rng.integers(-span, span, size=(n, m))
    if rng.random() < 0.5:
        cells = cells % 3  # crowded: many points per block
    keys = rng.integers(0, 12, size=n)
    n_t = int(rng.integers(1, 14))
    got = max_block_counts(cells, keys, n_t)
    ref = _reference_block_counts(cells[keys < n_t], keys[keys < n_t], n_t) if (keys < n_t).any() else np.zeros(n_t)
    assert got.tolist() == ref.tolist()


def _db(rng: np.random.Generator) -> tuple[np.ndarray, int, float]:
    d = int(rng.integers(1, 4))
    n = int(rng.integers(5, 30))
    centres = rng.uniform(0, 3, size=(3, d))
    X = centres[rng.integers(0, 3, n)] + rng.normal(scale=0.35, size=(n, d))
    if rng.random() < 0.5:
        X = np.round(X, 1)  # duplicates and pairs at exactly r
    return X, int(rng.integers(1, 4)), 0.5


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("method", ["paper", "fast"])
@pytest.mark.slow
def test_the_horizon_gives_the_value_over_every_t(seed, method, monkeypatch):
    rng = np.random.default_rng(seed)
    X, k, r = _db(rng)
    beta = float(rng.choice([0.005, 0.05, 0.3, 1.0, 3.0]))
    capped = smooth.smooth_sensitivity(X, k, r, beta, method, exact_max=0 if method == "fast" else 512)
    assert capped.t_stop <= smooth.horizon(len(X), beta)
    monkeypatch.setattr(smooth, "horizon", lambda N, b: N + 1)  # every t, degrees uncapped (cap >= N)
    full = smooth.smooth_sensitivity(X, k, r, beta, method, exact_max=0 if method == "fast" else 512)
    assert capped.value == full.value and capped.t_max == full.t_max
    if method == "fast":
        assert capped.ls_bounds.tolist() == full.ls_bounds[: capped.t_stop].tolist()


def test_the_horizon_is_public_and_cuts_the_degrees():
    # the horizon is a function of (N, beta) only; degrees beyond k + T are never counted
    assert smooth.horizon(284807, 0.1 / (4 * (1 + np.log(200)))) == 2024
    assert smooth.horizon(50, 0.05) == 39 and smooth.horizon(1, 0.3) == 1
    for N in (1, 2, 7, 100, 10**6):
        for beta in (1e-9, 1e-4, 0.01, 0.3, 5.0):  # 1e-9: no array of 1 / beta entries
            T = smooth.horizon(N, beta)
            tt = np.arange(min(N, T))
            lower = (np.exp(-tt * beta) * np.minimum(N, tt + 1)).max()  # S >= this whatever the data
            assert 1 <= T <= N + 1 and (T == N + 1 or np.exp(-T * beta) * N <= lower)
    X = np.zeros((300, 2))  # 299 neighbours each
    assert (distance._counts_scaled(X, 0.5, 10) == 10).all() and (distance._counts_scaled(X, 0.5) == 299).all()


def _neighbours(X: np.ndarray, rng: np.random.Generator, count: int):
    for _ in range(count):
        Xp = X.copy()
        j = int(rng.integers(len(X)))
        Xp[j] = X[int(rng.integers(len(X)))] + rng.normal(scale=0.3, size=X.shape[1]) * (rng.random() < 0.7)
        yield Xp


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("T", [1, 2, 4])
def test_any_public_horizon_gives_a_valid_smooth_upper_bound(seed, T, monkeypatch):
    rng = np.random.default_rng(100 + seed)
    X, k, r = _db(rng)
    X = X[:12]
    beta = 0.2
    monkeypatch.setattr(smooth, "horizon", lambda N, b: min(T, N + 1))
    for method in ("paper", "fast"):
        s = smooth.smooth_sensitivity(X, k, r, beta, method, exact_max=0).value
        grid = np.vstack([X, X + 0.25, X - 0.25])
        assert s >= local_sensitivity_exact_grid(X, k, r, grid)  # eq. (6): S >= LS
        for Xp in _neighbours(X, rng, 6):  # eq. (7) both ways
            sp = smooth.smooth_sensitivity(Xp, k, r, beta, method, exact_max=0).value
            assert s <= np.exp(beta) * sp * (1 + 1e-12) and sp <= np.exp(beta) * s * (1 + 1e-12)


def test_default_exact_refinement_is_bounded_by_the_shape():
    assert smooth.auto_exact_max(2) == 64 and smooth.auto_exact_max(3) == 6
    rng = np.random.default_rng(3)
    X = rng.normal(scale=0.2, size=(60, 3))  # one dense cluster: the exact search would be exponential
    res = smooth.smooth_sensitivity(X, 3, 1.0, 0.05, "fast")  # library defaults
    L = smooth.auto_exact_max(3)
    assert res.work <= 2 * L * 2 ** (L + 1)


def test_every_beta_at_once_equals_one_call_per_beta():
    from privanomaly.paper_b import released_bound, scenario1

    rng = np.random.default_rng(11)
    X = np.round(rng.normal(size=(80, 3)), 1)
    betas = scenario1.scenario1_betas(80, 3, 3, [0.1, 0.5, 0.9], 0.01, ["printed", "beta_equals_eps"])
    assert betas == sorted(set(betas)) and len(betas) == 6
    together = released_bound.fast_bounds(X, 3, 0.6, betas, fast_exact_max=8)
    for b in betas:
        assert together[b] == released_bound.smooth_bound(X, 3, 0.6, b, "fast", fast_exact_max=8)


def test_the_work_a_dataset_needs_never_moves_the_horizon():
    # a dense dataset (every degree far above k) and a sparse one of the same N: the same t's are computed
    rng = np.random.default_rng(4)
    dense, sparse = np.zeros((400, 3)) + rng.normal(scale=1e-3, size=(400, 3)), rng.normal(scale=50.0, size=(400, 3))
    for beta in (0.004, 0.05, 0.9):
        runs = [smooth.smooth_sensitivity(X, 3, 0.5, beta, "fast", exact_max=0) for X in (dense, sparse)]
        assert [r.t_stop for r in runs] == [smooth.horizon(400, beta)] * 2


@pytest.mark.subprocess
def test_a_job_can_fork_for_its_safety_timeout_after_counting():
    # paper B's jobs count degrees (q_count) and then run the bound in a forked child (the safety timeout): the
    # counts must not start numba's GNU OpenMP thread pool, which aborts a forked child ("fork() called from a
    # process already using GNU OpenMP")
    import subprocess
    import sys

    code = ("import numpy as np; from privanomaly.outliers import q_count; from privanomaly.paper_b import released_bound;"
            "X = np.random.default_rng(0).normal(size=(6000, 3)); print(q_count(X, 3, 0.2));"
            "print(released_bound.smooth_bound(X, 3, 0.2, 0.05, 'fast', timeout_seconds=600)['value'])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "OpenMP" not in proc.stderr and len(proc.stdout.split()) == 2
