"""privanomaly.outliers.smooth.reuse_block_bounds: inside the block the fast smooth bound computes a database's
bounds B_t once and reuses them at every beta - the same results as fresh computations, nothing kept outside."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly.outliers import smooth


def _fields(res: smooth.SmoothResult) -> tuple:
    return (res.value, res.t_max, res.t_stop, res.ls_bounds.tolist(), res.method, res.beta, res.m_k.tolist(),
            res.m_km1.tolist(), res.work)


@pytest.mark.parametrize("S", [None, (0,), [1, 0]])
@pytest.mark.parametrize("exact_max", [0, 512])
def test_reused_bounds_equal_fresh_ones_at_every_beta(S, exact_max):
    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(40, 2)), 1)  # duplicates and ties at r
    betas = [0.01, 0.3, 2.0, 0.3]
    fresh = [_fields(smooth.block_smooth_bound(X, 2, 0.5, b, S, exact_max=exact_max)) for b in betas]
    with smooth.reuse_block_bounds():
        reused = [_fields(smooth.block_smooth_bound(X, 2, 0.5, b, S, exact_max=exact_max)) for b in betas]
        assert len({smooth.horizon(len(X), b) for b in betas}) == 3  # three horizons, the longest first
        assert len(smooth._BLOCK_MEMO) == 1  # one database: computed once (smallest beta first: longest horizon)
        other = _fields(smooth.block_smooth_bound(X + 1e8, 2, 0.5, 0.3, S, exact_max=exact_max))
        assert len(smooth._BLOCK_MEMO) == 2
    assert reused == fresh
    assert other == _fields(smooth.block_smooth_bound(X + 1e8, 2, 0.5, 0.3, S, exact_max=exact_max))
    assert smooth._BLOCK_MEMO is None  # off again outside the block


def test_the_memo_tells_databases_and_settings_apart_and_nested_blocks_share_it():
    X = np.array([[0.0], [0.4], [0.8], [3.0], [3.1]])
    with smooth.reuse_block_bounds():
        a = smooth.block_smooth_bound(X, 1, 0.5, 0.2).value
        with smooth.reuse_block_bounds():
            assert smooth.block_smooth_bound(X, 1, 0.5, 0.2).value == a
            assert len(smooth._BLOCK_MEMO) == 1
            # another k, r or record is another database: its own bounds, as computed without the memo
            inside = {args[1:] + (len(args[0]),): smooth.block_smooth_bound(*args, 0.2).ls_bounds.tolist()
                      for args in ((X, 2, 0.5), (X, 1, 0.3), (X[:4], 1, 0.5))}
        assert len(smooth._BLOCK_MEMO) == 4
    outside = {args[1:] + (len(args[0]),): smooth.block_smooth_bound(*args, 0.2).ls_bounds.tolist()
               for args in ((X, 2, 0.5), (X, 1, 0.3), (X[:4], 1, 0.5))}
    assert inside == outside and len({str(v) for v in inside.values()}) > 1
    with pytest.raises(ValueError, match="beta"):  # beta is still checked on a reused database
        with smooth.reuse_block_bounds():
            smooth.block_smooth_bound(X, 1, 0.5, 0.2)
            smooth.block_smooth_bound(X, 1, 0.5, -1.0)


def test_a_returned_result_cannot_change_the_kept_bounds():
    X = np.array([[0.0, 0.0], [0.3, 0.0], [2.0, 2.0]])
    with smooth.reuse_block_bounds():
        res = smooth.block_smooth_bound(X, 1, 0.5, 0.1)
        res.ls_bounds[:] = 0
        res.m_k[:] = 0
        again = smooth.block_smooth_bound(X, 1, 0.5, 0.1)
    assert again.value > 0 and again.ls_bounds.max() > 0 and again.m_k.max() > 0
