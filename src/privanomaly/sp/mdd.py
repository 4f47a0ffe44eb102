"""(beta, r)-anomaly identification, k-sensitivity and minimum discrepant distances (paper A, Sec. 2-4).

Notation (paper A): a database x is a histogram over the record universe X; for a record i,
``x_i`` is its multiplicity and ``B = B_x(i, r) = sum_{j: d(i,j) <= r} x_j`` its ball count
(i's own copies included). Every function here is vectorised: arguments broadcast like numpy arrays.

Closed forms (each is *proved* exhaustively against breadth-first search in ``tests/test_sp_mdd.py``):

* g(i, x) = 1 iff x_i >= 1 and B <= beta                                   (Def. 2.2)
* i is k-sensitive w.r.t. x iff B >= beta + 1 - k                           (Lemma A.2)
* Delta_G(i, x), the mdd (Eq. 1) in the neighbourhood graph G:
    anomaly        -> min(x_i, beta + 1 - B)      (remove every copy of i, or fill the ball)
    present normal -> B - beta                    (empty the ball down to beta)
    absent         -> 1 + max(0, B + 1 - beta)    (empty the ball, then add i)
* L(i, x), a 1-Lipschitz lower bound of Delta_GS in the k-sensitive graph G_S (used by Theorem 4.6):
    anomaly        -> min(beta + 1 - B, x_i + max(0, beta - k - B + x_i))
    present normal -> B - beta
    absent         -> 1 + max(0, beta - k - B)  if B + 1 <= beta  else  B + 2 - beta
  (In G_S a copy of i can only be removed while B >= beta + 1 - k, and i can only be added while
  B >= beta - k; hence the extra additions in the anomaly/absent branches.)

Count cap. The ball counts may be computed *capped*, B_c = min(B, cap) with cap >= beta + 1
(:func:`privanomaly.sp.balls.ball_counts`). Passing the same ``cap`` here returns
``min(Delta(B), cap - beta)``, which equals ``min(Delta(B_true), cap - beta)`` exactly: the capped
mdd is still a 1-Lipschitz lower bound (min with a constant preserves both), so mechanisms built on it
keep their exact privacy guarantee, and their error exceeds the uncapped one by at most
exp(-eps (cap - beta)) / (1 + exp(-eps)), only where a distance reaches cap - beta (records with B >= cap and,
when cap - beta < beta, anomalies whose L is cut).
"""

from __future__ import annotations

import math

import numpy as np

from ._util import as_int_array, check_beta_k, check_cap, check_counts

__all__ = [
    "is_anomaly",
    "is_k_sensitive",
    "mdd_dp",
    "mdd_sp_lower",
    "compiler_delta",
    "recommended_cap",
]


def _prep(x_i, B, beta, k=None, cap=None):
    x_i = as_int_array(x_i, "x_i")
    B = as_int_array(B, "B")
    check_beta_k(beta, k)
    check_counts(x_i, B, beta)
    check_cap(cap, beta)
    beta = as_int_array(beta, "beta")
    return x_i, B, beta


def _apply_cap(d: np.ndarray, beta, cap) -> np.ndarray:
    if cap is None:
        return d
    return np.minimum(d, as_int_array(cap, "cap") - beta)


def is_anomaly(x_i, B, beta) -> np.ndarray:
    """g(i, x) of Def. 2.2: True iff i is present (x_i >= 1) and B_x(i, r) <= beta. Returns a bool mask
    (``records[is_anomaly(...)]`` selects the anomalies; an int8 0/1 array would index rows 0 and 1)."""
    x_i, B, beta = _prep(x_i, B, beta)
    return (x_i >= 1) & (B <= beta)


def is_k_sensitive(B, beta, k) -> np.ndarray:
    """Lemma A.2: i is k-sensitive w.r.t. x (Def. 3.1) iff B_x(i, r) >= beta + 1 - k. Returns bool.

    Holds for present and absent records alike (k, beta >= 1, r >= 0). A capped count with
    cap >= beta + 1 decides it exactly.
    """
    check_beta_k(beta, k)
    B = as_int_array(B, "B")
    return B >= np.asarray(beta) + 1 - np.asarray(k)


def mdd_dp(x_i, B, beta, *, cap=None) -> np.ndarray:
    """Delta_G(i, x): the mdd (Eq. 1) in the neighbourhood graph G (add/remove one record).

    Construction 1 with this distance is the Pareto-optimal eps-DP mechanism (Theorem 4.4). int64, >= 1.
    With ``cap`` (B given as min(B, cap)), returns min(Delta_G, cap - beta) exactly (module docstring).
    """
    x_i, B, beta = _prep(x_i, B, beta, cap=cap)
    present = x_i >= 1
    anomaly = present & (B <= beta)
    d = np.where(
        anomaly,
        np.minimum(x_i, beta + 1 - B),
        np.where(present, B - beta, 1 + np.maximum(0, B + 1 - beta)),
    )
    return _apply_cap(d.astype(np.int64), beta, cap)


def mdd_sp_lower(x_i, B, beta, k, *, cap=None) -> np.ndarray:
    """L(i, x): a 1-Lipschitz (on G_S) lower bound of Delta_GS, the mdd in the k-sensitive graph.

    Construction 1 with L is (eps, k)-SP (Lemma 4.5 / Theorem 4.6). L >= Delta_G >= 1 everywhere; L = 1
    wherever a G_S neighbour has the other label. L can exceed Delta_G even for a k-sensitive record
    (e.g. x_i = 2, B = 2, beta = 5, k = 4: L = 3, Delta_G = 2: after one removal i is no longer
    sensitive), but the big gains are for non-sensitive records (B <= beta - k). int64.
    ``cap``: as in :func:`mdd_dp`.
    """
    x_i, B, beta = _prep(x_i, B, beta, k, cap=cap)
    k = as_int_array(k, "k")
    present = x_i >= 1
    anomaly = present & (B <= beta)
    d_anom = np.minimum(beta + 1 - B, x_i + np.maximum(0, beta - k - B + x_i))
    d_absent = np.where(B + 1 <= beta, 1 + np.maximum(0, beta - k - B), B + 2 - beta)
    d = np.where(anomaly, d_anom, np.where(present, B - beta, d_absent))
    return _apply_cap(d.astype(np.int64), beta, cap)


def compiler_delta(x_i, B, beta, k, *, cap=None) -> np.ndarray:
    """delta = L - Delta_G: non-negative, 2-Lipschitz on G_S and <= Delta_GS - Delta_G (Theorem 4.7 input).

    With ``cap`` both terms are capped at cap - beta, which keeps all three properties.
    """
    return mdd_sp_lower(x_i, B, beta, k, cap=cap) - mdd_dp(x_i, B, beta, cap=cap)


NO_CAP = 2**62  # a cap no count reaches (the counting kernels' int64 "no cap")


#: the cap's exponential term is held below tol / TAIL_MARGIN: a tail with a polynomial factor - the noisy
#: threshold's difference of two DLap, P(Z1 - Z2 >= n) <= (1 + n tanh(a)) e^(-a n), a factor < 47 at the cap
#: for tol = 2^-60 - stays below tol too
TAIL_MARGIN = 64.0


def recommended_cap(beta, eps, *, tol: float = 2.0**-60) -> int:
    """Smallest cap with exp(-eps * (cap - beta)) <= tol / :data:`TAIL_MARGIN`: beyond it every error of the
    registered paper-A mechanisms, evaluated at ``eps`` times their ``noise_share``, is within tol of the uncapped
    one; at most :data:`NO_CAP` (for an eps so small that the cap would pass it, which no count can reach anyway).

    Use the smallest eps of a grid. The mechanisms stay exactly private with any cap >= beta + 1;
    the cap only bounds how much larger than the uncapped error the reported error can be.
    """
    check_beta_k(beta)
    e = float(np.min(np.asarray(eps, dtype=float)))
    if not e > 0:
        raise ValueError(f"eps must be > 0, got {eps!r}")
    extra = math.log(TAIL_MARGIN / tol) / e
    if not extra < NO_CAP:  # no count reaches it: the largest cap an int64 kernel takes, i.e. none
        return NO_CAP
    return min(NO_CAP, int(np.max(beta)) + max(1, math.ceil(extra)))
