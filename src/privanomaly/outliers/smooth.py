r"""Local and smooth sensitivity of the outlier count (paper B, Sections 4.2-4.3).

Notation (paper B, eqs. 19-21, 32): ``deg(x)`` = number of neighbours (eq. 19), ``V(c)`` = records of degree
exactly ``c`` (eq. 20), ``CV(X, x, c, r) = B(x, r) ∩ V(c)`` (eq. 21).  For a *centre* ``c`` (= k or k - 1)
and ``t >= 0`` the *window* is ``W_t^c(X) = ∪_{i=-t..t} V(X, c + i) = {x : |deg(x) - c| <= t}`` and
``M(P) = max_{x in D} |B(x, r) ∩ P|`` is the largest subset of ``P`` enclosed by a closed ball of radius ``r``
(eqs. 45-46; computed exactly by Algorithm 1, :func:`largest_enclosed_subset`).  Theorem 6 (eq. 31) reads

    LS^(t)(X) <= B_t(X) := max{ M(W_t^k), M(W_t^{k-1}) } + t + 1,

and the smooth bound is ``S(X) = max_{t >= 0} e^{-t beta} min(N, B_t(X))`` (eq. 29 with ``beta`` of Theorem 2
in place of the printed ``epsilon``; see ``docs/paper_b_resolutions.md``, R3).

Why ``S`` is a beta-smooth upper bound (Def. 4) - the argument used for *both* methods below
-------------------------------------------------------------------------------------------
Let ``G_t^c(X)`` be any function of the window with (a) ``G_t^c(X) >= M(W_t^c(X))`` and (b) for all
neighbouring ``X ~ X'`` (one record ``j`` replaced) ``G_t^c(X) <= G_{t+1}^c(X') + 1``.  Put
``B_t = min(N, max_c G_t^c + t + 1)``.  Then

1. ``B_0(X) >= LS(X)``: by Theorem 5 (eq. 23, re-derived and checked by brute force in the tests),
   ``LS(X) <= max{max_{x in X}|CV(X,x,k)|, max_{x in D}|CV(X,x,k-1)|} + 1 <= max_c M(W_0^c) + 1``, and
   ``LS <= N`` because ``q_count`` takes values in ``[0, N]``.
2. ``B_t(X) <= B_{t+1}(X')``: from (b), ``max_c G_t^c(X) + t + 1 <= max_c G_{t+1}^c(X') + (t+1) + 1``, and
   ``min(N, .)`` is monotone.
3. Hence ``S(X) = max_t e^{-t beta} B_t(X) <= max_t e^{-t beta} B_{t+1}(X') = e^{beta} max_{t>=1}
   e^{-t beta} B_t(X') <= e^{beta} S(X')`` (eq. 7) and ``S(X) >= B_0(X) >= LS(X)`` (eq. 6).  By symmetry
   of the neighbour relation also ``S(X') <= e^beta S(X)``.

Property (b) follows from one observation: replacing record ``j`` changes the degree of every *other*
record by at most one and does not move it, so ``W_t^c(X) \ {j} ⊆ W_{t+1}^c(X')`` with the same positions.
*Paper method*: ``G = M`` (exact).  (a) is equality; (b) holds because for every fixed ball ``B``,
``|B ∩ W_t(X)| <= |B ∩ W_{t+1}(X')| + 1`` and taking the max over balls keeps the ``+1``.  (This is the
content of Lemma 1 / Theorem 6; the early stop of Algorithm 2 (Propositions 1-2) returns exactly
``max_t e^{-t beta} B_t`` because the Proposition 1 bound ``M(W_{t'}) + |W_t \ W_{t'}|`` dominates ``M(W_t)``.)
*Fast method*: ``G_t^c = min(|W_t^c|, min_g max_{b in g} |b ∩ W_t^c|)`` where each ``g`` is a fixed
(data-independent) grid of axis-parallel boxes ("blocks") of 2 x ... x 2 cells of side ``a > 2r`` on a
fixed set of axes (all axes when m <= ``max_block_dims``; else fixed consecutive chunks of axes and,
optionally, all m axes, the latter maximised exactly through cliques of cell-compatible points; two grids
per axis set, offset by half a cell).  (a): a set enclosed by a closed ball of radius ``r`` has
extent ``<= 2r < a`` along every axis, so it meets at most two consecutive cells per axis, i.e. lies in
one block of every grid; trivially also ``M(P) <= |P|``.  (b): blocks and grids do not depend on the data,
so for every fixed block ``|b ∩ W_t(X)| <= |b ∩ W_{t+1}(X')| + 1``; max over blocks and min over grids
preserve this, as does ``|W_t(X)| <= |W_{t+1}(X')| + 1``.  Therefore the fast bound is a valid
beta-smooth upper bound, and since ``G >= M`` pointwise it is never below the paper's bound.

(c) Mixing: the fast method uses ``G = M`` (exact) on windows with ``|W_t| <= L - t`` (L = ``exact_max``)
and the block bound otherwise.  (b) still holds: if X uses M at t, ``M(W_t(X)) <= M(W_{t+1}(X')) + 1
<= G_{t+1}(X') + 1`` whatever X' uses (G >= M); if X uses the block bound at t then ``|W_t(X)| > L - t``,
so ``|W_{t+1}(X')| >= |W_t(X)| - 1 > L - (t+1)`` and X' uses the block bound at t + 1 as well.

(d) Horizon: both methods compute the windows only for t < T = :func:`horizon` (N, beta) - a public number -
and take ``B_t = N`` for t >= T, so they need degrees only up to k + T (neighbour counts capped there, as
``q_count`` needs them only up to k).  (b) holds below T as above and at or above it because
``B_{t+1}(X') = N``; T is chosen so that no t >= T can raise ``max_t e^{-t beta} B_t`` (every B_t >= min(N,
t + 1) bounds S from below), so the value is the same as over every t = 0..N (tested).

Note: the tempting "max number of points of P within 2r of a point of P" satisfies (a) but NOT (b) - the
maximising centre may be the replaced record itself (a "star" whose arms are pairwise > 2r apart), and the
resulting bound can violate eq. (7); ``tests/test_outliers_smooth.py`` exhibits such a pair.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy.spatial import cKDTree

from privanomaly.sp.balls import euclidean_scale

from ._blocks import max_block_counts
from .enclosing import (WorkBudgetExceeded, _check_r, _norms, _Work, largest_enclosed_subset, scaled_to_r,
                        shared_radii)

PROGRESS_SECONDS = 5.0  # Algorithm 2 and the fast bound write a progress line to the job's log at most this often
from .distance import RADIUS_RTOL, _check_k, _counts_scaled, subspace_coords

__all__ = [
    "SmoothResult",
    "local_sensitivity_bound",
    "local_sensitivity_exact_grid",
    "smooth_sensitivity",
    "algorithm2",
    "block_smooth_bound",
    "window_sizes",
]


@dataclass(frozen=True)
class SmoothResult:
    """Result of :func:`smooth_sensitivity`.

    ``value``: the beta-smooth upper bound S(X); ``t_max``: the t attaining ``max_t e^{-t beta} B_t``;
    ``t_stop``: number of distances t evaluated (Algorithm 2 stops at t_stop by Proposition 2; the fast
    method evaluates every t below the public horizon T of :func:`horizon`, t_stop = T, and both take
    B_t = N from T on); ``ls_bounds[t]`` = ``min(N, B_t)``, the bound
    on LS^(t)(X) (Theorem 6 / eq. 31) for t < t_stop; ``method``: "paper" or "fast"; ``beta``: smoothing
    parameter used; ``m_k``/``m_km1``: the values of M (paper) or G (fast) for the two windows per t.
    """

    value: float
    t_max: int
    t_stop: int
    ls_bounds: np.ndarray
    method: str
    beta: float
    m_k: np.ndarray = field(repr=False)
    m_km1: np.ndarray = field(repr=False)
    work: int = field(default=0, repr=False)  # Algorithm-1 work units used (see :class:`WorkBudgetExceeded`)


# ----------------------------------------------------------------------------------------------------------
# local sensitivity
# ----------------------------------------------------------------------------------------------------------
def local_sensitivity_bound(X: np.ndarray, k: int, r: float, S=None) -> int:
    """Theorem 5 (eq. 23): ``max{ max_{x in X} |CV(X,x,k,r)|, max_{x in D} |CV(X,x,k-1,r)| } + 1``.

    As printed (no ``min(N, .)`` cap).  ``CV`` includes the centre record itself when its degree matches
    (eq. 21 literally), which only loosens the bound.  The second term is Algorithm 1 on ``V(k-1)``.
    """
    _check_k(k)
    _check_r(r)
    Zs = subspace_coords(X, S)
    deg = _counts_scaled(Zs, r)  # q_count's own arithmetic (see _windows)
    Z, r = scaled_to_r(Zs, r)  # exact power-of-two scaling (see largest_enclosed_subset)
    inV = deg == k
    if inV.any():
        tree = cKDTree(Z[inV])
        first = int(np.asarray(tree.query_ball_point(Z, r * (1 + RADIUS_RTOL), return_length=True)).max())
    else:
        first = 0
    second = largest_enclosed_subset(Z[deg == k - 1], r)
    return max(first, second) + 1


def local_sensitivity_exact_grid(X: np.ndarray, k: int, r: float, grid: np.ndarray, S=None) -> int:
    """Brute-force ``max |q_count(X) - q_count(X')|`` over all X' obtained by replacing one record of X
    by a row of ``grid`` or by another record of X (eq. 22 restricted to these candidates; a lower bound
    on the true LS that is exact when the grid contains a maximiser).  Rows of ``grid`` are full records
    (same columns as X).  O(n^2 |grid|) - for tests on small data."""
    _check_k(k)
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    grid = np.asarray(grid, dtype=float)
    if grid.ndim == 1:
        grid = grid[:, None]
    _check_r(r)
    Zs, Gs = subspace_coords(X, S), subspace_coords(np.vstack([grid, X]), S)
    scale = euclidean_scale(r, Zs, Gs, max_exponent=500)  # exact (see scaled_to_r); norms by hypot
    Z, G, r = Zs * scale, Gs * scale, r * scale
    n = len(Z)
    DX = _norms(Z[:, None, :] - Z[None, :, :])
    A = DX <= r * (1 + RADIUS_RTOL)
    np.fill_diagonal(A, False)
    deg = A.sum(1)
    q0 = int((deg < k).sum())
    E = _norms(G[:, None, :] - Z[None, :, :]) <= r * (1 + RADIUS_RTOL)  # (G, n)
    best = 0
    for i in range(n):
        others = np.arange(n) != i
        base = deg - A[i]  # degrees without record i
        newdeg = base[None, :] + E  # (G, n): degrees of others after adding the candidate
        cnt_others = (newdeg[:, others] < k).sum(1)
        self_deg = E[:, others].sum(1)
        q1 = cnt_others + (self_deg < k)
        best = max(best, int(np.abs(q1 - q0).max()))
    return best


# ----------------------------------------------------------------------------------------------------------
# smooth sensitivity
# ----------------------------------------------------------------------------------------------------------
def window_sizes(keys: np.ndarray, n_t: int) -> np.ndarray:
    """``|W_t|`` for t = 0..n_t-1 where ``W_t = {keys <= t}``."""
    bc = np.bincount(np.minimum(keys, n_t), minlength=n_t + 1)[:n_t]
    return np.cumsum(bc)


def horizon(N: int, beta: float) -> int:
    """The public horizon T of the smooth bound (from N and beta only): windows are computed for t < T, and
    ``B_t = N`` for t >= T.

    Every B_t >= min(N, t + 1), so ``S >= L = max_t e^{-t beta} min(N, t + 1)``; T is the first t past L's
    maximiser with ``e^{-T beta} N <= L`` (one more for rounding), so no t >= T can raise the maximum: the value
    is the one over all t = 0..N, and only degrees below k + T are needed (capped neighbour counts).  Validity
    for any public T: ``B_t(X) <= B_{t+1}(X')`` holds below T by the window argument (module docstring) and at
    or above it because ``B_{t+1}(X') = N``.  Never more than N + 1 (every t).  T must never depend on the data
    (e.g. on how many degrees lie near k): a horizon chosen by the data switches between bounds by the data, a
    leak like the budget switch of :func:`privanomaly.audit.controls.budget_switch_bound` (tested)."""
    _check_beta(beta)
    N = int(N)
    # e^{-t beta} (t + 1) is unimodal with its peak at t + 1 = 1 / beta, and min(N, .) only lowers t >= N - 1:
    # the maximum is at one of these points (no array of 1 / beta entries for a tiny beta)
    peak = 1.0 / beta - 1.0
    cands = {0, N - 1, *(min(N - 1, max(0, int(f(peak)))) for f in (math.floor, math.ceil) if peak < N)}
    t_l, low = max(((t, math.exp(-t * beta) * min(N, t + 1)) for t in cands), key=lambda tv: (tv[1], -tv[0]))
    need = math.log(N / low) / beta  # e^{-T beta} N <= L  <=>  T >= ln(N / L) / beta
    return int(min(N + 1, max(t_l + 1, math.ceil(need) + 1)))


def _check_beta(beta: float) -> None:
    if not (beta > 0 and math.isfinite(beta)):
        raise ValueError(f"smoothing parameter beta must be a positive finite number, got {beta!r}")


def smooth_sensitivity(
    X: np.ndarray,
    k: int,
    r: float,
    beta: float,
    method: Literal["paper", "fast"] = "paper",
    S=None,
    early_stop: bool = True,
    max_block_dims: int = 8,
    exact_max: int | None = None,
    full_grid: bool = False,
    max_work: int | None = None,
) -> SmoothResult:
    """beta-smooth upper bound on the local sensitivity of ``q_count`` (Def. 4; eqs. 29-31) by ``method``:
    ``paper`` = :func:`algorithm2` (Algorithm 2), ``fast`` = :func:`block_smooth_bound` (beyond the paper).

    Both methods are valid beta-smooth upper bounds (proof in the module docstring); fast >= paper always.
    ``beta`` is the smoothing parameter of Theorem 2 (see :func:`privanomaly.outliers.gaussian.smooth_parameters`).
    ``max_work``: deterministic work budget of all Algorithm-1 calls of this call together (work units of
    :class:`~privanomaly.outliers.enclosing.WorkBudgetExceeded`, which is raised past it); None = no limit.
    ``result.work`` = units used.
    """
    if method == "paper":
        return algorithm2(X, k, r, beta, S, early_stop=early_stop, max_work=max_work)
    if method == "fast":
        return block_smooth_bound(X, k, r, beta, S, max_block_dims=max_block_dims, exact_max=exact_max,
                                  full_grid=full_grid, max_work=max_work)
    raise ValueError(f"method must be 'paper' or 'fast', got {method!r}")


@dataclass(frozen=True)
class _Windows:
    """The windows W_t^c of both centres c = k, k - 1 for t = 0..T-1 (T = :func:`horizon`; B_t = N beyond)."""

    Z: np.ndarray  # coordinates times a power of two (exact)
    r: float  # r times the same power of two
    Zr: np.ndarray  # coordinates in units of r (the block grid's cells)
    N: int
    keys: dict[int, np.ndarray]  # |deg - c| per record: record in W_t^c iff key <= t (exact where key < T)
    sizes: dict[int, np.ndarray]  # |W_t^c|, t < T
    tt: np.ndarray  # t = 0..T-1
    decay: np.ndarray  # e^{-t beta}
    T: int


def _windows(X: np.ndarray, k: int, r: float, beta: float, S, max_work: int | None,
             T: int | None = None) -> tuple[_Windows, _Work]:
    """The windows up to the horizon ``T`` (None: :func:`horizon` of N and beta), from neighbour counts capped
    at k + T: a record with more neighbours has key >= T for both centres and enters no computed window."""
    _check_k(k)
    _check_beta(beta)
    _check_r(r)
    work = _Work(max_work)
    Zs = subspace_coords(X, S)
    N = len(Zs)
    if N == 0:
        raise ValueError("X has no records")
    T = horizon(N, beta) if T is None else int(T)
    # the degrees in the released query's own arithmetic (q_count: dist_S <= r (1 + RADIUS_RTOL) on the
    # unscaled coordinates): in units of r the rounding differs, and a record at the boundary could get
    # another degree here than in q_count, putting it in the wrong window (S < LS at the float boundary)
    deg = _counts_scaled(Zs, r, k + T)
    # Algorithm 1 on exactly scaled coordinates (dividing by r would round each coordinate to ~1e-16 of its
    # magnitude: far from the origin, more than the enclosure test's margin); the block grid in units of r
    Z, rs = scaled_to_r(Zs, r)
    keys = {c: np.abs(deg - c) for c in (k, k - 1)}
    tt = np.arange(T)
    sizes = {c: window_sizes(keys[c], T) for c in keys}
    return _Windows(Z, rs, Zs / r, N, keys, sizes, tt, np.exp(-tt * beta), T), work


def auto_exact_max(dims: int) -> int:
    """The default ``exact_max`` of the fast bound, from the subspace dimension only (public): the exact
    refinement never runs unbounded.  Calls of Algorithm 1 are at most 2 per window size (nested windows), so
    at most 2 L of them on at most L points each: in 1-D/2-D a closed form, polynomial (O(L^3)); in >= 3-D
    the pruned search tests each subset at most twice, <= 2 L 2^(L+1) work units (L = 6: 1,536)."""
    return 64 if dims <= 2 else 6


def block_smooth_bound(
    X: np.ndarray,
    k: int,
    r: float,
    beta: float,
    S=None,
    max_block_dims: int = 8,
    exact_max: int | None = None,
    full_grid: bool = False,
    max_work: int | None = None,
) -> SmoothResult:
    """The fast beta-smooth upper bound (beyond the paper): the KD/grid block bound G >= M described in the
    module docstring, all t < T at once (T = :func:`horizon`, B_t = N beyond), from neighbour counts capped at
    k + T: O(N log N + N 2^m) with m = min(|S|, max_block_dims) (at most 16), using the exact M (Algorithm 1,
    pruned) instead on windows with ``|W_t| <= exact_max - t`` (``exact_max=0``: never; None: :func:`auto_exact_max`
    of the dimension, a bounded refinement).  ``full_grid=True`` (only matters when |S| > max_block_dims) adds
    the full-dimensional box grids, maximised exactly through cliques - tighter but can take tens of seconds.

    beta enters through T and the decay e^{-t beta} of ``max_t``: inside :func:`reuse_block_bounds` the bounds
    B_t of a database are computed once per T (same values as a fresh computation: tested)."""
    _check_beta(beta)
    X = np.asarray(X, dtype=float)
    dims = None if S is None else tuple(int(j) for j in S)
    N = len(X)
    T = horizon(N, beta) if N else 1
    if exact_max is None:
        exact_max = auto_exact_max(X.shape[1] if dims is None else len(dims))
    args = (X, k, r, dims, T, max_block_dims, exact_max, full_grid, max_work)
    if _BLOCK_MEMO is None:
        B, g_k, g_km1, work_t = _block_bounds(*args)
    else:
        key = _memo_key(X, k, r, dims, max_block_dims, exact_max, full_grid, max_work)
        if key not in _BLOCK_MEMO or len(_BLOCK_MEMO[key][0]) < T:
            _BLOCK_MEMO[key] = _block_bounds(*args)
        # windows below T are exact whatever horizon they were computed at: a longer computation's prefix is this one
        B, g_k, g_km1, work_t = (a[:T] for a in _BLOCK_MEMO[key])
        if max_work is not None and int(work_t.sum()) > max_work:
            raise WorkBudgetExceeded(int(max_work), int(work_t.sum()))
    used = int(work_t.sum())
    vals = np.exp(-np.arange(len(B)) * beta) * B
    t_max = int(np.argmax(vals))
    value = float(vals[t_max])
    if T <= N and math.exp(-T * beta) * N > value:  # never, by the choice of T (kept for any public T)
        value, t_max = math.exp(-T * beta) * N, T
    return SmoothResult(value, t_max, len(B), B.astype(np.int64), "fast", float(beta), g_k.copy(), g_km1.copy(),
                        used)


_BLOCK_MEMO: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None = None


def _memo_key(X: np.ndarray, k: int, r: float, dims, max_block_dims: int, exact_max: int, full_grid: bool,
              max_work: int | None) -> tuple:
    """What the bounds B_t of :func:`block_smooth_bound` depend on besides the horizon: the database and settings."""
    return (X.shape, X.tobytes(), int(k), float(r), dims, int(max_block_dims), int(exact_max), bool(full_grid),
            max_work)


def kept_block_bounds(X: np.ndarray, k: int, r: float, exact_max: int | None = 0,
                      max_block_dims: int = 8) -> tuple | None:
    """The bounds B_t (with G_k, G_{k-1}, the work per t) kept for the full-space database (X, k, r) with these
    settings inside :func:`reuse_block_bounds` (None: not kept, or no block): to hand them to the caller of a
    forked child (:func:`keep_block_bounds`)."""
    if _BLOCK_MEMO is None:
        return None
    X = np.asarray(X, dtype=float)
    exact_max = auto_exact_max(X.shape[1]) if exact_max is None else exact_max
    return _BLOCK_MEMO.get(_memo_key(X, k, r, None, max_block_dims, exact_max, False, None))


def keep_block_bounds(X: np.ndarray, k: int, r: float, kept: tuple | None, exact_max: int | None = 0,
                      max_block_dims: int = 8) -> None:
    """Keep bounds of (X, k, r) computed elsewhere (:func:`kept_block_bounds` of a forked child: the same
    computation, so the same values) in the active :func:`reuse_block_bounds` block; no block or nothing kept: no-op.
    A later :func:`block_smooth_bound` of the database at a horizon they cover reads them instead of recomputing."""
    if _BLOCK_MEMO is None or kept is None:
        return
    X = np.asarray(X, dtype=float)
    exact_max = auto_exact_max(X.shape[1]) if exact_max is None else exact_max
    key = _memo_key(X, k, r, None, max_block_dims, exact_max, False, None)
    if key not in _BLOCK_MEMO or len(_BLOCK_MEMO[key][0]) < len(kept[0]):
        arrays = tuple(np.array(a) for a in kept)
        for a in arrays:
            a.flags.writeable = False  # shared, never changed
        _BLOCK_MEMO[key] = arrays


@contextmanager
def reuse_block_bounds() -> Iterator[None]:
    """Within the block, :func:`block_smooth_bound` computes the bounds B_t of a database (X, k, r, S, settings)
    once and reuses them at every beta whose horizon T is not longer (a prefix: an audit checks the same worlds
    at several eps, Scenario 1 one dataset at every eps - smallest beta first). Off elsewhere: a timed or one-off
    call always computes."""
    global _BLOCK_MEMO
    outer, _BLOCK_MEMO = _BLOCK_MEMO, ({} if _BLOCK_MEMO is None else _BLOCK_MEMO)
    try:
        yield
    finally:
        _BLOCK_MEMO = outer


@shared_radii()  # the nested windows' Algorithm-1 searches test many of the same point sets
def _block_bounds(X: np.ndarray, k: int, r: float, S, T: int, max_block_dims: int, exact_max: int, full_grid: bool,
                  max_work: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """min(N, max(G_k, G_{k-1}) + t + 1) for t = 0..T-1 (:func:`block_smooth_bound`), G_k, G_{k-1} and the
    Algorithm-1 work units spent on the windows of each t (their sum up to T' is that of horizon T')."""
    from privanomaly.run.log import Ticker

    w, work = _windows(X, k, r, 1.0, S, max_work, T)  # beta only sets w.decay, not used here
    Z, N, keys, sizes, tt = w.Z, w.N, w.keys, w.sizes, w.tt
    if not 1 <= max_block_dims <= 16:
        raise ValueError(f"max_block_dims must be in [1, 16] (2^m rows per record), got {max_block_dims}")
    tick = Ticker(f"fast smooth bound (N = {N}, k = {k}, horizon T = {T})", PROGRESS_SECONDS)
    G = {c: np.minimum(sizes[c], _block_bound(w.Zr, keys[c], 1.0, T, max_block_dims, full_grid,
                                              _progress(tick, i, len(keys))))
         for i, c in enumerate(keys)}
    work_t = np.zeros(T, dtype=np.int64)
    memo: dict[tuple[int, int], int] = {}
    for t in range(T):  # exact M on small windows: |W_t| <= exact_max - t (rule (c) of the module doc)
        before = work.used
        for c in keys:
            size = int(sizes[c][t])
            if size > exact_max - t:
                continue
            if (c, size) not in memo:  # nested windows: same size => same set
                memo[(c, size)] = largest_enclosed_subset(Z[keys[c] <= t], w.r, _work=work)
            G[c][t] = min(G[c][t], memo[(c, size)])
        work_t[t] = work.used - before
    B = np.minimum(N, np.maximum(G[k], G[k - 1]) + tt + 1)
    for a in (B, G[k], G[k - 1], work_t):
        a.flags.writeable = False  # kept in the memo: shared, never changed
    return B, G[k], G[k - 1], work_t


@shared_radii()  # the nested windows' Algorithm-1 searches test many of the same point sets
def algorithm2(
    X: np.ndarray, k: int, r: float, beta: float, S=None, early_stop: bool = True, max_work: int | None = None
) -> SmoothResult:
    """Algorithm 2 of paper B: ``S(X) = max_t e^{-t beta} min(N, B_t(X))`` with the exact M of Algorithm 1
    and the early stop of Propositions 1-2 (``early_stop=False`` evaluates every t below the horizon T of
    :func:`horizon`, with B_t = N beyond it: same value, tested)."""
    from privanomaly.run.log import Ticker

    w, work = _windows(X, k, r, beta, S, max_work)
    Z, N, keys, sizes, tt, decay = w.Z, w.N, w.keys, w.sizes, w.tt, w.decay
    r, n_t = w.r, w.T
    tail = math.exp(-n_t * beta) * N if n_t <= N else 0.0  # max over t >= T of e^{-t beta} N
    cache: dict[tuple[int, int], int] = {}
    tick = Ticker(f"Algorithm 2 (N = {N}, k = {k}, beta = {beta:.4g})", PROGRESS_SECONDS)
    at = {"t": 0}
    work.tick = lambda used: tick(lambda: f"window t = {at['t']} of at most {n_t - 1} (records with |deg - k| <= t: "
                                          f"{int(sizes[k][min(at['t'], n_t - 1)])} of {N}), Algorithm-1 work "
                                          f"{used}{_time_left(tick, used, max_work)}")

    def M(c: int, t: int) -> int:
        if t < 0:
            return 0
        key = (c, int(sizes[c][min(t, n_t - 1)]))  # windows are nested: same size => same set
        if key not in cache:
            cache[key] = largest_enclosed_subset(Z[keys[c] <= t], r, _work=work)
        return cache[key]

    s_max = 0.0
    t_max = 0
    Bs: list[int] = []
    mk: list[int] = []
    mk1: list[int] = []
    t_stop = n_t
    for t in range(n_t):
        at["t"] = t
        if early_stop:
            # S_UB^{t-1} (Proposition 1, eqs. 47-50): bound for every t'' >= t from the stored M at t-1
            tpp = tt[t:]
            prev = {c: (sizes[c][t - 1] if t >= 1 else 0) for c in keys}
            U = np.maximum(
                M(k, t - 1) + sizes[k][tpp] - prev[k], M(k - 1, t - 1) + sizes[k - 1][tpp] - prev[k - 1]
            )
            s_ub = max(float((decay[tpp] * np.minimum(N, U + tpp + 1)).max(initial=0.0)), tail)
            if s_ub <= s_max:
                t_stop = t
                break
        a, b = M(k, t), M(k - 1, t)
        Bt = min(N, max(a, b) + t + 1)
        Bs.append(Bt)
        mk.append(a)
        mk1.append(b)
        v = decay[t] * Bt
        if v > s_max:
            s_max, t_max = float(v), t
    if t_stop == n_t and tail > s_max:  # never, by the choice of T (kept for any public T)
        s_max, t_max = tail, n_t
    return SmoothResult(
        s_max, t_max, t_stop, np.array(Bs, dtype=np.int64), "paper", float(beta), np.array(mk), np.array(mk1),
        work.used,
    )


def _time_left(tick, used: int, max_work: int | None) -> str:
    """Algorithm 2's time left: at most the guard's remaining work units at the rate so far (no guard: unknown)."""
    if max_work is None:
        return " (no work guard: time left unknown, Algorithm 1 is exponential)"
    rate = used / max(tick.clock() - tick.start, 1e-9)
    return f" of max_work {max_work}, at most about {(max_work - used) / max(rate, 1e-9):.0f} s left"


def _progress(tick, part: int, parts: int):
    """(done, total) -> a progress line of part ``part`` of ``parts`` with the time left, extrapolated from the
    time spent (the clock only paces and estimates; no result depends on it)."""
    def report(done: int, total: int) -> None:
        tick(lambda: f"block grids {part * total + done} of {parts * total} done, "
                     f"{tick.time_left(part * total + done, parts * total)}")
    return report


def _block_bound(
    Z: np.ndarray, keys: np.ndarray, r: float, n_t: int, max_block_dims: int, full_grid: bool = False,
    progress=None,
) -> np.ndarray:
    """``min over grids g of max over blocks b in g of |b ∩ {keys <= t}|`` for t = 0..n_t-1."""
    m = Z.shape[1]
    if m <= max_block_dims:
        chunks = [np.arange(m)]
    else:
        chunks = [np.arange(s, min(s + max_block_dims, m)) for s in range(0, m, max_block_dims)]
    a = 2.0 * r * (1.0 + 1e-6)  # cell side > 2r (strictly, with margin for rounding)
    out = np.full(n_t, np.iinfo(np.int64).max, dtype=np.int64)
    inside = keys < n_t  # records that enter a window t < n_t
    Zin, kin = Z[inside], keys[inside]
    grids = [(ax, shift) for ax in chunks for shift in (0.0, 0.5)]
    for done, (ax, shift) in enumerate(grids, 1):
        cells = np.floor(Zin[:, ax] / a + shift).astype(np.int64)
        out = np.minimum(out, max_block_counts(cells, kin, n_t))
        if progress is not None:
            progress(done, len(grids))
    if full_grid and m > max_block_dims:  # also the full-dimensional grids, evaluated exactly by cliques
        kmax = int(min(kin.max(), n_t - 1)) if len(kin) else 0
        for shift in (0.0, 0.5):
            cells = np.floor(Zin / a + shift).astype(np.int64)
            full = np.zeros(n_t, dtype=np.int64)
            prev_size, prev_val = -1, 0
            for t in range(kmax + 1):
                sel = kin <= t
                size = int(sel.sum())
                if size != prev_size:
                    prev_val = _full_block_max(cells[sel]) if size else 0
                    prev_size = size
                full[t] = prev_val
            full[kmax + 1 :] = full[kmax]
            out = np.minimum(out, full)
    return out


def _full_block_max(cells: np.ndarray) -> int:
    """Exact ``max over blocks of 2 x ... x 2 cells (all m axes) of #points`` for integer cells.

    A set of points lies in one block iff along every axis its cells span at most two consecutive values.
    For a point p, the others that can share a block with it are its Chebyshev-1 cell neighbours q, with
    offsets ``delta_q`` in {-1, 0, 1}^m; two of them fit together (with p) iff no axis has opposite signs.
    So the best block containing p is 1 + a maximum-weight clique of that compatibility graph (exact,
    networkx), and the family maximum is the max over p."""
    import networkx as nx

    U, w = np.unique(cells, axis=0, return_counts=True)
    best = int(w.max())
    if len(U) == 1:
        return best
    nbs = cKDTree(U.astype(float)).query_ball_point(U.astype(float), 1.0 + 1e-9, p=np.inf)
    for i, nb in enumerate(nbs):
        nb = [j for j in nb if j != i]
        if not nb or w[i] + w[nb].sum() <= best:
            continue
        D = U[nb] - U[i]
        pos, neg = (D == 1).astype(np.int64), (D == -1).astype(np.int64)
        conflict = (pos @ neg.T + neg @ pos.T) > 0
        G = nx.Graph()
        for a_, j in enumerate(nb):
            G.add_node(a_, weight=int(w[j]))
        ia, ib = np.nonzero(np.triu(~conflict, 1))
        G.add_edges_from(zip(ia.tolist(), ib.tolist()))
        _, cw = nx.max_weight_clique(G, weight="weight")
        best = max(best, int(w[i]) + int(cw))
    return best
