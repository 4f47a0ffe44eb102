"""The exact samplers draw the same integers however a round's bounds reach the generator.

:func:`privanomaly.sp.dlap.bernoulli_exp` passes a bound shared by every draw of a round (a single ``den``; CKS
Algorithm 1 runs every pending draw in the same round K) to ``rng.integers`` as one number instead of an array
of it: the audit's Clopper-Pearson and goodness-of-fit counts, and every table drawn from a seed, stay those
of the per-draw bounds. The reference below draws every round with a per-draw bound ``den_i K_i``.
"""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly.outliers import exact_normal
from privanomaly.sp import dlap


def _per_draw_bounds(rng: np.random.Generator, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """CKS Algorithm 1, Bernoulli(exp(-num/den)) for num <= den, each round's draws with bounds den_i K_i."""
    out = np.empty(num.size, dtype=bool)
    K = np.ones(num.size, dtype=np.int64)
    active = np.arange(num.size)
    while active.size:
        a = rng.integers(0, den[active] * K[active], dtype=np.int64) < num[active]
        done = active[~a]
        out[done] = (K[done] % 2) == 1
        active = active[a]
        K[active] += 1
    return out


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 1000, 2**30 + 5, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 3, 2**62 - 1])
def test_a_scalar_bound_draws_what_an_array_of_it_draws(bound):
    a, b = np.random.default_rng(bound), np.random.default_rng(bound)
    assert np.array_equal(a.integers(0, np.full(1001, bound, dtype=np.int64), dtype=np.int64),
                          b.integers(0, bound, size=1001, dtype=np.int64))
    assert a.integers(0, 2**40) == b.integers(0, 2**40)  # and leaves the generator in the same state


@pytest.mark.parametrize("den", [1, 2, 9, 2**30 + 7, "mixed"])
def test_bernoulli_exp_draws_the_per_draw_bound_stream(den):
    for seed in range(5):
        g = np.random.default_rng(seed)
        d = np.where(np.arange(4000) % 3 == 0, 7, 13) if den == "mixed" else np.full(4000, den, dtype=np.int64)
        num = g.integers(0, d + 1, dtype=np.int64)
        a, b = np.random.default_rng([seed, 1]), np.random.default_rng([seed, 1])
        assert np.array_equal(dlap.bernoulli_exp(a, num, d if den == "mixed" else den), _per_draw_bounds(b, num, d))
        assert a.integers(0, 2**40) == b.integers(0, 2**40)


@pytest.mark.parametrize("rate", [0.003, 0.5, 1.0, 4.0, 30.0, 0.1234567])
def test_discrete_laplace_and_exact_normal_draw_the_per_draw_bound_stream(rate, monkeypatch):
    fast = [dlap.sample_dlap(rate, (300, 7), np.random.default_rng(s)) for s in range(3)]
    normal = exact_normal.gaussian_release_exact(3.0, 1.0 + rate, np.random.default_rng(9), 3000)
    monkeypatch.setattr(dlap, "_bernoulli_exp_le1", _per_draw_bounds)
    for s, got in enumerate(fast):
        assert np.array_equal(got, dlap.sample_dlap(rate, (300, 7), np.random.default_rng(s)))
    assert np.array_equal(normal, exact_normal.gaussian_release_exact(3.0, 1.0 + rate, np.random.default_rng(9),
                                                                      3000))
