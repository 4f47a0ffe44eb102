"""Exact per-record errors of registered mechanisms over ε and k grids, and their summaries.

Mechanisms are named in config (``paper_a.mechanisms.errors``, registry names of
:mod:`privanomaly.mechanisms`; the paper's pair is SP = Construction 1 with L, Theorem 4.6, and the
Pareto-optimal DP mechanism, Theorem 4.4). Errors are each mechanism's exact closed form; the ``mechanism``
column holds its label ("SP", "DP", ...). Sampled trials — drawn with each mechanism's own exact sampler —
are used only to show that sampling agrees with the exact values (Wilson confidence intervals).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly import mechanisms
from privanomaly.paper_a.records import rec_cap

GROUPS = ("anomaly", "normal", "all", "labelled")
PAPER_PAIR = ("sp", "optimal_dp")
"""Registry names of the paper's comparison (Table 2, Figs. 2-3): SP and the optimal DP mechanism."""


def aiq_mechanisms(names) -> list:
    out = []
    for n in names:
        m = mechanisms.get(n)
        if m.family != "aiq":
            raise ValueError(f"mechanism {n!r} ({m.describe()}) does not answer paper A's query (family {m.family!r})")
        out.append(m)
    labels = [m.label for m in out]
    if len(set(labels)) != len(labels):
        raise ValueError(f"mechanisms {list(names)} have clashing labels {labels}")
    return out


def exact_errors(rec: pd.DataFrame, beta: int, eps_grid: list[float], k_grid: list[int],
                 mechanism_names=PAPER_PAIR) -> pd.DataFrame:
    """Long table ``record, eps, k, mechanism, error`` (mechanism = label; DP mechanisms repeated per k)."""
    x_i = rec["x_i"].to_numpy()
    B = rec["B"].to_numpy()
    cap = rec_cap(rec)
    mechs = aiq_mechanisms(mechanism_names)
    parts = []
    for eps in eps_grid:
        for k in k_grid:
            for m in mechs:
                err = np.asarray(m.error(x_i, B, beta=beta, k=k, eps=eps, cap=cap), dtype=float)
                parts.append(pd.DataFrame({"record": rec["record"].to_numpy(), "eps": float(eps), "k": int(k),
                                           "mechanism": m.label, "error": err}))
    return pd.concat(parts, ignore_index=True)


def group_masks(rec: pd.DataFrame) -> dict[str, np.ndarray]:
    """Boolean masks of the record groups summarised everywhere: (β,r)-anomalies, normal, all, labelled."""
    g = rec["anomaly"].to_numpy(dtype=bool)
    return {"anomaly": g, "normal": ~g, "all": np.ones(len(rec), bool), "labelled": rec["label"].to_numpy() == 1}


def summarise(rec: pd.DataFrame, errs: pd.DataFrame) -> pd.DataFrame:
    """Exact mean/median error per (eps, k, mechanism, group): the error of a record picked uniformly at
    random from the group (Table 2 is the 'all' and 'anomaly' rows)."""
    masks = group_masks(rec)
    rows = []
    for (eps, k, mech), sub in errs.groupby(["eps", "k", "mechanism"], sort=True):
        e = sub.sort_values("record")["error"].to_numpy()
        for gname, m in masks.items():
            n = int(m.sum())
            rows.append(dict(eps=eps, k=k, mechanism=mech, group=gname, n_records=n,
                             mean_error=float(e[m].mean()) if n else np.nan,
                             median_error=float(np.median(e[m])) if n else np.nan,
                             frac_below_1e2=float(np.mean(e[m] < 1e-2)) if n else np.nan))
    return pd.DataFrame(rows)


def wilson(successes: np.ndarray, n: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (vectorised)."""
    # lazy, and scipy.special rather than scipy.stats (~1 s of start-up): ndtri is what norm.ppf computes, bit for bit
    from scipy.special import ndtri

    z = ndtri(0.5 + level / 2)
    successes = np.asarray(successes, float)
    n = np.asarray(n, float)
    p = successes / n
    den = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / den
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def sampled_errors(rec: pd.DataFrame, errs: pd.DataFrame, rng: np.random.Generator, n_trials: int, beta: int,
                   mechanism_names=PAPER_PAIR, group: str = "anomaly", level: float = 0.95) -> pd.DataFrame:
    """Run each mechanism's exact sampler ``n_trials`` times on every record of ``group``; pooled error
    rate + Wilson CI, beside the exact mean error from ``errs`` (:func:`exact_errors` of the same mechanisms).

    Records are independent but not identically distributed, so the binomial (Wilson) interval on the
    pooled mistakes is conservative (the Poisson-binomial variance is at most the binomial one).
    """
    by_label = {m.label: m for m in aiq_mechanisms(mechanism_names)}
    m = group_masks(rec)[group]
    truth = rec["anomaly"].to_numpy()[m]
    x_i, B, cap = rec["x_i"].to_numpy()[m], rec["B"].to_numpy()[m], rec_cap(rec)
    rows = []
    for (eps, k, mech), sub in errs.groupby(["eps", "k", "mechanism"], sort=True):
        e = sub.sort_values("record")["error"].to_numpy()[m]
        if len(e) == 0:
            continue
        if mech not in by_label:
            raise ValueError(f"sampled_errors: mechanism {mech!r} of errs is not among {list(mechanism_names)}")
        answers = by_label[mech].sample(x_i, B, beta=beta, k=int(k), eps=float(eps), rng=rng, n_trials=n_trials,
                                        cap=cap)
        mistakes = int(np.sum(answers != truth[None, :].astype(answers.dtype)))
        total = int(answers.size)
        lo, hi = wilson(np.array([mistakes]), np.array([total]), level)
        rows.append(dict(eps=eps, k=k, mechanism=mech, group=group, n_records=len(e), n_trials=n_trials,
                         sampled_error=mistakes / total, ci_low=float(lo[0]), ci_high=float(hi[0]),
                         exact_error=float(e.mean())))
    return pd.DataFrame(rows)


def ranked_anomalies(rec: pd.DataFrame, errs: pd.DataFrame, eps: float, k: int) -> pd.DataFrame:
    """(β,r)-anomalies at (ε, k) ranked by SP error (ascending, ties by DP error then record)."""
    sel = errs[np.isclose(errs["eps"], eps) & (errs["k"] == k)]
    wide = sel.pivot_table(index="record", columns="mechanism", values="error").reset_index()
    wide = wide.merge(rec[["record", "x_i", "B", "anomaly", "label"]], on="record")
    wide = wide[wide["anomaly"]].rename(columns={"SP": "error_sp", "DP": "error_dp"})
    wide = wide.sort_values(["error_sp", "error_dp", "record"], kind="mergesort").reset_index(drop=True)
    wide.insert(0, "rank", np.arange(1, len(wide) + 1))
    wide["eps"] = float(eps)
    wide["k"] = int(k)
    return wide[["rank", "record", "x_i", "B", "label", "eps", "k", "error_sp", "error_dp"]]
