"""Scenario 2 of paper B (Figs. 5-7): top-h subspace discovery (Algorithm 3), precision and recall.

Ground truth (not defined operationally in the paper, "the subspace containing outliers"): a candidate
subspace S is *true* under rule ``labelled_outlier`` iff at least ``min_outliers`` records labelled as
outliers are distance outliers (Def. 8, same k and r as the query) in S; under rule ``any_outlier`` iff
q_count(X, k, r, S) >= min_outliers. The rule is a config key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from privanomaly import outliers as ol

TRUE_RULES = ("labelled_outlier", "any_outlier")
EXPONENTS = ("standard", "printed")
#: default of ``paper_b.scenario2.max_subspaces``: the candidate subspaces one Scenario-2 job may enumerate
MAX_SUBSPACES = 1000


@dataclass(frozen=True)
class TopH:
    """Algorithm 3 (top-h subspaces, eps/h per draw) under one reading of the exponential mechanism.

    ``standard``: weights ``exp((eps/h) u / (2 Δu))`` - McSherry-Talwar, (eps/h)-DP per draw, eps-DP in total
    (:mod:`privanomaly.outliers.exponential`). ``printed``: weights ``exp((eps/h) u)`` as paper B prints
    eq. (11) - the registered mechanism ``exp_top_h_printed``
    (:class:`privanomaly.mechanisms.paper_b_printed.TopHPrinted`), 2 eps Δu-DP by Theorem 3. (``standard`` calls
    the functions the registered ``exp_top_h`` calls, with the configured Δu.)
    """

    exponent: str = "standard"
    sensitivity: float = 1.0  # the Δu the standard weights assume; the guarantee uses Theorem 7's Δu <= 1 (epsilon)

    def __post_init__(self) -> None:
        if self.exponent not in EXPONENTS:
            raise ValueError(f"exponent: expected one of {EXPONENTS}, got {self.exponent!r}")
        if not self.sensitivity > 0:
            raise ValueError(f"sensitivity: expected Δu > 0, got {self.sensitivity!r}")

    @property
    def _printed(self):
        from privanomaly import mechanisms

        return mechanisms.get("exp_top_h_printed")

    def epsilon(self, eps: float) -> float:
        """The pure-DP guarantee of the whole top-h selection run with total parameter ``eps``, at the rational
        rate the exact sampler uses (``rate = rational_rate(eps) <= eps``) and the utility's true sensitivity
        ``Δu* =`` :data:`~privanomaly.outliers.exponential.UTILITY_SENSITIVITY` (Theorem 7), not the Δu the weights
        assume: weights ``exp(rate u / (2 h Δu))`` make each draw ``(rate/h) Δu*/Δu``-DP (``rate`` at the configured
        Δu = 1; ``2 rate`` if Δu = 1/2 is configured); the printed weights ``exp(rate u / h)`` are
        ``2 rate Δu*``-DP (Theorem 3), whatever Δu is configured."""
        if self.exponent == "standard":
            return float(ol.exponential.draw_rate(eps)) * ol.exponential.UTILITY_SENSITIVITY / self.sensitivity
        return self._printed.claim(eps=eps, sensitivity=ol.exponential.UTILITY_SENSITIVITY).epsilon

    def epsilon_differs(self, eps: float) -> bool:
        """Whether the guarantee (:meth:`epsilon`) is not the draws' rate ``rational_rate(eps)``, the ε a table
        row states by default: then the row carries ``dp_epsilon``."""
        return self.epsilon(eps) != float(ol.exponential.draw_rate(eps))

    def claim(self) -> str:
        """Human-readable guarantee: ``"ε-DP ..."`` or ``"2ε-DP (Theorem 3 ...)"``."""
        factor = self.epsilon(1.0) / float(ol.exponential.draw_rate(1.0))
        if self.exponent == "standard":
            if factor == 1.0:
                return "ε-DP (McSherry-Talwar, ε/h per draw)"
            return (f"{factor:g}ε-DP (McSherry-Talwar with weights at Δu = {self.sensitivity:g}; Theorem 7: "
                    f"Δu ≤ {ol.exponential.UTILITY_SENSITIVITY:g})")
        return (f"{factor:g}ε-DP (Theorem 3 with Δu ≤ {ol.exponential.UTILITY_SENSITIVITY:g}: printed exponent "
                f"exp(ε u))")

    def trials(self, utility: np.ndarray, h: int, eps: float, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        """``n_trials`` runs: bool ``(n_trials, n_subspaces)`` with h True per row."""
        if self.exponent == "standard":
            return ol.top_h_trials(utility, h, eps, rng, n_trials, sensitivity=self.sensitivity)
        return self._printed.sample(utility, h=h, eps=eps, rng=rng, n_trials=n_trials)

    def inclusion_probs(self, utility: np.ndarray, h: int, eps: float) -> np.ndarray:
        """Exact ``Pr[subspace i is among the h chosen]``."""
        if self.exponent == "standard":
            return ol.top_h_inclusion_probs(utility, h, eps, sensitivity=self.sensitivity)
        return self._printed.inclusion_probs(utility, h=h, eps=eps)

    def sequence_probs(self, utility: np.ndarray, h: int, eps: float) -> dict[tuple[int, ...], float]:
        """Exact probability of every ordered output (enumeration; small worlds only)."""
        if self.exponent == "standard":
            return ol.top_h_sequence_probs(utility, h, eps, sensitivity=self.sensitivity)
        return self._printed.exact_distribution(utility, h=h, eps=eps)


def subspace_name(S: tuple[int, ...], columns: list[str] | None = None) -> str:
    """Readable subspace label: column names when given, else 1-based attribute indices as in the paper."""
    if columns is not None:
        return "{" + ", ".join(columns[i] for i in S) + "}"
    return "{" + ", ".join(str(i + 1) for i in S) + "}"


def subspace_table(
    X: np.ndarray,
    y: np.ndarray,
    k: int,
    r: float,
    dim: int,
    true_rule: str,
    min_outliers: int,
    columns: list[str] | None = None,
    max_subspaces: int = MAX_SUBSPACES,
) -> pd.DataFrame:
    """Every candidate subspace of size ``dim``: its q_count, labelled outliers flagged in it, utility, truth.

    utility = q_count / GS^UB_{q_count,|S|}(k) (eq. 51, N-capped upper bound of eq. 18). More than
    ``max_subspaces`` candidates (C(d, dim)) is an error before any is enumerated.
    """
    d = np.asarray(X).shape[1]
    if not 1 <= dim <= d:
        raise ValueError(f"config paper_b.scenario2.subspace_dim: {dim} is not in [1, {d}] (the data has {d} "
                         "columns; the paper's figures use 1)")
    m = math.comb(d, dim)
    if m > max_subspaces:  # checked before the enumeration: C(d, dim) grows as d^dim
        raise ValueError(
            f"config paper_b.scenario2.subspace_dim: {dim} on data with {d} columns gives C({d}, {dim}) = {m:,} "
            f"candidate subspaces, more than paper_b.scenario2.max_subspaces = {max_subspaces:,} (each is counted, "
            "and the exact precision/recall costs O(m^2) quadratures per (eps, h)); use a smaller subspace_dim "
            "(the paper's figures use 1), fewer columns (the dataset's preprocess.keep_columns or pca), or raise "
            "paper_b.scenario2.max_subspaces")
    if true_rule not in TRUE_RULES:
        raise ValueError(f"true_subspace.rule: expected one of {TRUE_RULES}, got {true_rule!r}")
    X = np.asarray(X, dtype=float)
    y = np.asarray(y).astype(int)
    N, d = X.shape
    subspaces = [tuple(int(i) for i in S) for S in ol.all_subspaces(d, dim)]
    rows = []
    for j, S in enumerate(subspaces):
        mask = np.asarray(ol.outlier_mask(X, k, r, S), dtype=bool)
        count = int(mask.sum())
        flagged = int((mask & (y == 1)).sum())
        gs_ub = int(ol.gs_upper(N, len(S), k))
        is_true = flagged >= min_outliers if true_rule == "labelled_outlier" else count >= min_outliers
        rows.append(
            {
                "subspace_index": j,
                "subspace": subspace_name(S, columns),
                "attributes": ",".join(str(i + 1) for i in S),
                "q_count": count,
                "labelled_outliers_flagged": flagged,
                "gs_upper": gs_ub,
                "utility": float(ol.subspace_utility(count, N, len(S), k)),
                "is_true": bool(is_true),
            }
        )
    return pd.DataFrame(rows)


def precision_recall(selected: np.ndarray, is_true: np.ndarray, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-trial precision TP/(TP+FP) = TP/h and recall TP/(TP+FN) = TP/#true of top-h selections.

    ``selected``: bool (n_trials, n_subspaces) with h True per row. Recall is NaN when no subspace is true.
    """
    selected = np.asarray(selected, dtype=bool)
    is_true = np.asarray(is_true, dtype=bool)
    tp = (selected & is_true[None, :]).sum(axis=1)
    n_sel = selected.sum(axis=1)
    if not np.all(n_sel == h):
        raise ValueError(f"each trial must select exactly h={h} subspaces, got {np.unique(n_sel)}")
    precision = tp / h
    n_true = int(is_true.sum())
    recall = tp / n_true if n_true else np.full(len(tp), np.nan)
    return precision, recall


def expected_precision_recall(inclusion: np.ndarray, is_true: np.ndarray, h: int) -> tuple[float, float]:
    """Exact E[precision] = E[TP]/h and E[recall] = E[TP]/#true, E[TP] = sum of Pr[S chosen] over true S."""
    is_true = np.asarray(is_true, dtype=bool)
    etp = float(np.asarray(inclusion, dtype=float)[is_true].sum())
    n_true = int(is_true.sum())
    return etp / h, (etp / n_true if n_true else float("nan"))


def sweep(
    utility: np.ndarray,
    is_true: np.ndarray,
    eps_grid: list[float],
    hs: list[int],
    n_trials: int,
    rng_for: Callable[[float, int], np.random.Generator],
    sensitivity: float = 1.0,
    exact: bool = True,
    progress: Callable = lambda it, **kw: it,
    exponent: str = "standard",
) -> pd.DataFrame:
    """Mean precision/recall (with standard errors) of Algorithm 3 over ``n_trials`` per (eps, h), and the
    exact expectations from the inclusion probabilities (:func:`privanomaly.outliers.top_h_inclusion_probs`).

    ``eps`` is the total budget of the top-h discovery; Algorithm 3 spends eps/h per draw
    (:func:`privanomaly.outliers.top_h_trials`). ``rng_for(eps, h)`` gives each cell its own stream.
    ``exponent``: the reading of the weights (:class:`TopH`); with ``printed`` the guarantee is 2 eps Δu.
    """
    mech = TopH(exponent, sensitivity)
    utility = np.asarray(utility, dtype=float)
    is_true = np.asarray(is_true, dtype=bool)
    m = len(utility)
    rows = []
    cells = [(h, eps) for h in hs for eps in eps_grid]
    for h, eps in progress(cells, desc="top-h cells"):
        if h > m:
            raise ValueError(f"paper_b.scenario2.h: h={h} exceeds the number of candidate subspaces ({m})")
        sel = mech.trials(utility, h, eps, rng_for(eps, h), n_trials)
        p, rc = precision_recall(sel, is_true, h)
        se = (lambda v: float(v.std(ddof=1) / np.sqrt(n_trials))) if n_trials > 1 else (lambda v: float("nan"))
        finite = bool(np.isfinite(rc).all())
        row = {
            "h": int(h),
            "eps": float(eps),
            "eps_per_draw": float(eps) / h,
            "n_trials": int(n_trials),
            "n_subspaces": int(m),
            "n_true": int(is_true.sum()),
            "precision": float(p.mean()),
            "precision_se": se(p),
            "recall": float(rc.mean()) if finite else float("nan"),
            "recall_se": se(rc) if finite else float("nan"),
            "precision_exact": float("nan"),
            "recall_exact": float("nan"),
        }
        if exact:
            inc = mech.inclusion_probs(utility, h, eps)
            row["precision_exact"], row["recall_exact"] = expected_precision_recall(inc, is_true, h)
        if exponent != "standard" or mech.epsilon_differs(eps):
            # our tables keep their columns; other readings and weights state their guarantee
            row["exponent"] = exponent
            row["dp_epsilon"] = mech.epsilon(eps)
        rows.append(row)
    return pd.DataFrame(rows)
