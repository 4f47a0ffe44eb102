"""Small argument helpers shared by the :mod:`privanomaly.sp` modules (validation, broadcasting)."""

from __future__ import annotations

import numpy as np

_INT = (int, np.integer)  # integer scalars (bool included, as numpy compares it)


def _int_scalar(a) -> bool:
    """An integer scalar or a 0-d integer array."""
    return isinstance(a, _INT) or (isinstance(a, np.ndarray) and a.ndim == 0 and a.dtype.kind in "iub")


def as_int_array(a, name: str) -> np.ndarray:
    """``a`` as an int64 array; raises ``ValueError`` if it holds non-integral values."""
    arr = np.asarray(a)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64, copy=False)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(f"{name} must hold integers, got non-integral values")
        return arr.astype(np.int64)
    raise ValueError(f"{name} must be an integer array, got dtype {arr.dtype}")


def check_counts(x_i: np.ndarray, B: np.ndarray, beta=None) -> None:
    """x_i >= 0 and B >= x_i (the ball of i contains i's own copies).

    With ``beta``, B < x_i is accepted where B > beta: a count capped at cap >= beta + 1 can be below
    the multiplicity of a heavily duplicated value, and such a record is normal either way.
    """
    if _int_scalar(x_i) and _int_scalar(B) and (beta is None or isinstance(beta, _INT)):
        x, b = int(x_i), int(B)  # one record (the audit's exhaustive checks): the same tests without numpy
        if x < 0:
            raise ValueError("x_i (multiplicity of the record) must be >= 0")
        if b < x and (beta is None or b <= beta):
            raise ValueError("B (ball count) must be >= x_i: the ball B_x(i, r) contains i's own copies")
        return
    if np.any(x_i < 0):
        raise ValueError("x_i (multiplicity of the record) must be >= 0")
    bad = B < x_i
    if beta is not None:
        bad = bad & (B <= np.asarray(beta))
    if np.any(bad):
        raise ValueError("B (ball count) must be >= x_i: the ball B_x(i, r) contains i's own copies")


def check_beta_k(beta, k=None) -> None:
    """beta >= 1 and k >= 1 integers, as assumed by Lemma A.2 of paper A."""
    if isinstance(beta, _INT) and (k is None or isinstance(k, _INT)):  # scalars: the same tests without numpy
        if beta < 1:
            raise ValueError(f"beta must be an integer >= 1, got {beta!r}")
        if k is not None and k < 1:
            raise ValueError(f"k must be an integer >= 1, got {k!r}")
        return
    b = np.asarray(beta)
    if np.any(b < 1) or np.any(b != np.round(b)):
        raise ValueError(f"beta must be an integer >= 1, got {beta!r}")
    if k is not None:
        kk = np.asarray(k)
        if np.any(kk < 1) or np.any(kk != np.round(kk)):
            raise ValueError(f"k must be an integer >= 1, got {k!r}")


def check_eps(eps) -> np.ndarray:
    e = np.asarray(eps, dtype=np.float64)
    if np.any(~np.isfinite(e)) or np.any(e <= 0):
        raise ValueError(f"eps must be finite and > 0, got {eps!r}")
    return e


def check_cap(cap, beta) -> None:
    if cap is None:
        return
    if isinstance(cap, _INT) and isinstance(beta, _INT):
        if cap < beta + 1:
            raise ValueError(f"cap must be >= beta + 1 (so anomaly status stays decidable), got cap={cap!r}")
        return
    if np.any(np.asarray(cap) < np.asarray(beta) + 1):
        raise ValueError(f"cap must be >= beta + 1 (so anomaly status stays decidable), got cap={cap!r}")
