"""A paper-B sweep on one dataset (rule ``sweep_b_dataset``): at every (k, r) point, σ_Global vs σ_Smooth over
ε, the named count mechanisms' noise and claims, and top-h precision/recall (:func:`dataset_rows`; one job per
dataset, every point inside).

* ``part = sigma``: :func:`privanomaly.paper_b.scenario1.scenario1_table` for every smooth bound
  (``method``: Algorithm 2 = ``paper``, our polynomial bound = ``fast``) and every noise convention, over
  the sweep's ε - the smooth bound is computed once per distinct β(ε) and shared by the conventions. If
  Algorithm 2 exceeds its feasibility guard (``max_work``) at a point, that method's cells are kept as rows
  with ``skipped`` saying so - no other bound is put in its place (no data-dependent switch).
* ``part = mechanism``: every registry name of the sweep's ``mechanisms`` (paper-B count mechanisms, those
  with ``noise_sd``): the noise its exact law adds to q_count and its claim (:func:`mechanism_rows`).
* ``part = top_h``: the exact expected precision/recall of Algorithm 3 (inclusion probabilities,
  :func:`privanomaly.outliers.top_h_inclusion_probs`) for every h and subspace dimension, on the candidate
  subspaces of :func:`privanomaly.paper_b.scenario2.subspace_table`. A dimension is evaluated when its
  number of candidate subspaces is at most ``max_subspaces`` (exact probabilities cost O(m^2) quadratures)
  and an h when it is below that number; skipped cells are rows with ``skipped`` saying why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Callable

import numpy as np
import pandas as pd

from privanomaly import outliers as ol
from privanomaly.paper_b import scenario1, scenario2
from privanomaly.paper_b.released_bound import AlgorithmTooCostly, SafetyTimeout

#: the work guard a skipped cell names when the settings do not say which sweep's (the script passes its key)
GUARD_KEY = "the sweep's max_work (default paper_b.scenario1.max_work)"


def sigma_rows(
    X: np.ndarray,
    k: int,
    r: float,
    eps_grid: list[float],
    delta: float,
    conventions: list[str],
    methods: list[str],
    smooth_for: Callable[[str], Callable[[float], dict]],
) -> pd.DataFrame:
    """Scenario-1 rows for every method; ``smooth_for(method)`` returns the β -> smooth-bound function."""
    parts = []
    for method in methods:
        try:
            df = scenario1.scenario1_table(X, k, r, list(eps_grid), delta, list(conventions), smooth_for(method))
            df["skipped"] = ""
        except (AlgorithmTooCostly, SafetyTimeout) as exc:  # no other bound takes its place (and a wall-clock
            # limit never fails the run): the cells are kept with why, and
            # with what does not depend on the bound (σ_Global, the count, GS): the columns of a computed cell

            def none(beta, exc=exc):
                raise exc

            df = scenario1.scenario1_table(X, k, r, list(eps_grid), delta, list(conventions), none,
                                           skip_infeasible=True)
            df["skipped"] = f"{method}: {exc}"
        df.insert(0, "method", method)
        parts.append(df)
    out = pd.concat(parts, ignore_index=True)
    out.insert(0, "part", "sigma")
    return out


def top_h_rows(
    X: np.ndarray,
    y: np.ndarray,
    k: int,
    r: float,
    eps_grid: list[float],
    hs: list[int],
    dims: list[int],
    true_rule: str,
    min_outliers: int,
    sensitivity: float,
    max_subspaces: int,
) -> pd.DataFrame:
    """Exact E[precision], E[recall] of top-h discovery per (dimension, h, ε); skipped cells kept as rows.

    Weights at a configured ``sensitivity`` below Theorem 7's Δu = 1 spend more than ε: such rows state the
    guarantee in ``dp_epsilon`` (:meth:`privanomaly.paper_b.scenario2.TopH.epsilon`), as Scenario 2's tables do."""
    mech = scenario2.TopH("standard", sensitivity)
    d = X.shape[1]
    rows = []
    # every row has every column (NaN where not computed; dp_epsilon where the settings make it differ): the
    # columns follow from the settings, not from which cells the data let compute
    blank = {"n_true": np.nan, "precision": np.nan, "recall": np.nan}
    if any(mech.epsilon_differs(e) for e in eps_grid):
        blank["dp_epsilon"] = np.nan
    for dim in dims:
        m = comb(d, dim) if dim <= d else 0
        base = {"part": "top_h", "subspace_dim": int(dim), "n_subspaces": int(m), **blank}
        if m == 0 or m > max_subspaces:
            why = f"d = {d} has no {dim}-D subspace" if m == 0 else f"{m} subspaces > max_subspaces = {max_subspaces}"
            rows += [{**base, "h": int(h), "eps": float(e), "skipped": why} for h in hs for e in eps_grid]
            continue
        subs = scenario2.subspace_table(X, y, k, r, dim, true_rule, min_outliers)
        util, truth = subs["utility"].to_numpy(), subs["is_true"].to_numpy()
        for h in hs:
            for eps in eps_grid:
                row = {**base, "h": int(h), "eps": float(eps), "n_true": int(truth.sum()), "skipped": ""}
                if h >= m:
                    row["skipped"] = f"h = {h} >= {m} subspaces (every subspace is output)"
                else:
                    inc = ol.top_h_inclusion_probs(util, h, eps, sensitivity=sensitivity)
                    row["precision"], row["recall"] = scenario2.expected_precision_recall(inc, truth, h)
                    if mech.epsilon_differs(eps):
                        row["dp_epsilon"] = mech.epsilon(eps)
                rows.append(row)
    return pd.DataFrame(rows)


def mechanism_rows(X: np.ndarray, k: int, r: float, eps_grid: list[float], delta: float, names: Sequence[str],
                   timeout: float | None = None) -> pd.DataFrame:
    """One row per named count mechanism and ε: the standard deviation of the noise its release adds to
    ``q_count(X, k, r)`` (its ``noise_sd``: its exact law at this dataset) and the claim it states at (ε, δ).

    Each mechanism computes what its law needs (a smooth bound: Algorithm 2 to completion for
    ``gaussian_smooth_paper``). An ε where a mechanism has no law (its ``noise_sd`` raises ``ValueError``, e.g.
    Theorem 1 past its condition) is a row with ``skipped`` saying why and no noise. ``timeout`` is the safety
    net per mechanism and (k, r) point, as for the σ rows: past it the mechanism's rows say ``skipped`` (naming
    the mechanism and the key), never a failed job."""
    from privanomaly import mechanisms
    from privanomaly.paper_b.timing import run_with_time_limit

    N, d = X.shape
    count = int(ol.q_count(X, k, r))
    rows = []
    for name in names:
        m = mechanisms.get(name)

        def noise(m=m) -> list[float | str]:
            from privanomaly.outliers.smooth import reuse_block_bounds

            by_eps: dict[float, float | str] = {}
            with reuse_block_bounds():  # a smooth-bound mechanism computes the windows once (smallest eps first)
                for e in sorted(eps_grid):  # an ε where the mechanism has no law (Theorem 1 past its condition)
                    try:
                        by_eps[e] = float(m.noise_sd(X, k=k, r=r, eps=float(e), delta=delta))
                    except ValueError as exc:
                        by_eps[e] = f"{name}: {exc}"
            return [by_eps[e] for e in eps_grid]

        run = run_with_time_limit(noise, seconds=timeout)
        if run.error is not None:
            raise RuntimeError(f"mechanism {name}: noise_sd failed: {run.error}")
        values = run.value if run.completed else [
            f"mechanism {name}: its noise at k = {k}, r = {r:.6g} took more than the safety timeout of {timeout} s "
            "(paper_b.scenario1.timeout_seconds; machine-dependent, so skipped): raise it (null = none), or list "
            "another of the sweep's mechanisms"] * len(eps_grid)
        for e, sd in zip(eps_grid, values):
            c = m.claim(eps=float(e), delta=delta)
            why = sd if isinstance(sd, str) else ""
            rows.append({"part": "mechanism", "mechanism": name, "eps": float(e), "noise_sd": np.nan if why else sd,
                         "claim_eps": float(c.epsilon), "claim_delta": float(c.delta), "claim_proven": bool(c.proven),
                         "claim_note": c.note, "neighbours": c.neighbours, "delta": float(delta), "N": int(N),
                         "d": int(d), "true_count": count, "skipped": why})
    return pd.DataFrame(rows)


def _fast_memo(X: np.ndarray, k: int, r: float, s: Mapping, deltas: list) -> dict:
    """("fast", beta) -> the fast bound, at every beta of the sweep's eps x delta x conventions at once; past
    the safety timeout every entry is the :class:`SafetyTimeout` (its cells say skipped)."""
    from privanomaly.paper_b import released_bound

    N, d = X.shape
    betas = sorted({b for dl in deltas for b in scenario1.scenario1_betas(N, d, k, s["eps"], dl, s["conventions"])})
    try:
        pre = released_bound.fast_bounds(X, k, r, betas, s["fast_exact_max"], s["timeout"])
    except SafetyTimeout as exc:
        return {("fast", b): exc for b in betas}
    return {("fast", b): v for b, v in pre.items()}


def dataset_rows(X: np.ndarray, y: np.ndarray, dataset: str, ks: Sequence[int], radii: Sequence[Mapping],
                 s: Mapping, provenance: Mapping | None, log=None) -> pd.DataFrame:
    """Every (k, r) point of a paper-B sweep on one dataset: :func:`sigma_rows` and (when ``s["h"]`` and
    ``s["subspace_dims"]``) :func:`top_h_rows`, grid columns first (dataset, k, r_kind, r_spec, r), the scope
    of each row's claim last (:func:`privanomaly.privacy.scope.add_sweep_columns`).

    ``s`` holds the sweep's settings (eps, delta - one δ or a list -, conventions, methods, mechanisms, h,
    subspace_dims, max_subspaces, max_work; ``guard_key``, the config key of max_work that a skipped cell tells
    to raise) and paper B's (fast_exact_max, timeout, true_subspace, sensitivity). r is read off the data per
    (k, r) of ``radii`` (:class:`privanomaly.sweeps.spec.Radius` records;
    :func:`privanomaly.sweeps.counts.resolve_r_paper_b`)."""
    from privanomaly.outliers.smooth import reuse_block_bounds

    parts = []
    for k in (int(x) for x in ks):
        for radius in radii:
            # one block per point: the fast bound's B_t, computed once for its σ rows, serve its mechanisms' noise
            with reuse_block_bounds():
                parts.append(_point_rows(X, y, dataset, k, radius, s, provenance, log))
    return pd.concat(parts, ignore_index=True)


def _point_rows(X: np.ndarray, y: np.ndarray, dataset: str, k: int, radius: Mapping, s: Mapping,
                provenance: Mapping | None, log=None) -> pd.DataFrame:
    """The rows of one (k, r) point of :func:`dataset_rows` (``radius``: a :class:`privanomaly.sweeps.spec.Radius`)."""
    from privanomaly.paper_b import released_bound
    from privanomaly.sweeps import counts

    r_kind, r_value = radius["r_kind"], float(radius["r_spec"])
    try:
        r = counts.resolve_r_paper_b(X, r_kind, r_value, k)
    except ValueError as exc:  # e.g. a k the dataset has too few records for: name the dataset
        raise ValueError(f"dataset {dataset} ({len(X)} records): {exc}") from exc
    if log is not None:
        log.info("%s: k = %d, r (%s %s) = %.6g", dataset, k, r_kind, r_value, r)
    # Algorithm 2 past max_work: its σ cells are skipped (the rows say why), a choice made from the data
    # unless the bound from the shape fits
    guard = released_bound.guard_scope("paper", s["max_work"], True, len(X), k, X.shape[1])

    memo: dict = {}  # (method, β) -> the bound: a β two δ share (β = ε readings) is computed once

    def smooth_for(method, k=k, r=r, memo=memo):
        def smooth_fn(beta):  # the configured method to completion, as in paper_b_scenario1 (no fallback)
            if (method, beta) not in memo:
                memo[(method, beta)] = released_bound.smooth_bound(
                    X, k, r, beta, method, s["max_work"], s["fast_exact_max"], s["timeout"],
                    s.get("guard_key", GUARD_KEY))
            if isinstance(memo[(method, beta)], Exception):
                raise memo[(method, beta)]
            return memo[(method, beta)]

        return smooth_fn

    deltas = list(s["delta"]) if isinstance(s["delta"], (list, tuple)) else [s["delta"]]
    if "fast" in s["methods"]:  # every beta of the point in one computation (released_bound.fast_bounds)
        memo.update(_fast_memo(X, k, r, s, deltas))
    rows = [sigma_rows(X, k, r, s["eps"], dl, s["conventions"], s["methods"], smooth_for) for dl in deltas]
    if s.get("mechanisms"):
        rows += [mechanism_rows(X, k, r, s["eps"], dl, s["mechanisms"], s["timeout"]) for dl in deltas]
    if s["h"] and s["subspace_dims"]:
        rows.append(top_h_rows(X, y, k, r, s["eps"], s["h"], s["subspace_dims"], s["true_subspace"]["rule"],
                               s["true_subspace"]["min_outliers"], s["sensitivity"], s["max_subspaces"]))
    out = pd.concat(rows, ignore_index=True)
    out = out.drop(columns=[c for c in ("k", "r") if c in out.columns])
    for i, (col, val) in enumerate({"dataset": dataset, "k": k, "r_kind": r_kind, "r_spec": r_value,
                                    "r": r}.items()):
        out.insert(i, col, val)
    return _with_scope(out, r_kind, r_value, provenance, guard)


def _with_scope(out: pd.DataFrame, r_kind: str, r_value: float, provenance: Mapping | None, guard) -> pd.DataFrame:
    """The sweep's scope columns (:func:`privanomaly.privacy.scope.add_sweep_columns`); Algorithm 2's σ rows
    also name ``guard`` (:func:`privanomaly.paper_b.released_bound.guard_scope`: skipped past max_work), top-h rows
    h and the candidate subspaces (public in Algorithm 3's claim, as in Scenario 2's tables)."""
    from privanomaly.privacy import scope

    alg2 = (out["part"] == "sigma") & (out["method"] == "paper") if "method" in out else out["part"] != out["part"]
    top_h = out["part"] == "top_h"
    candidates = scope.Scope(("h, candidate subspaces (every subspace of the dimension)",), ())
    groups = ((out[alg2], guard), (out[top_h], candidates), (out[~alg2 & ~top_h], None))
    done = [scope.add_sweep_columns(rows, "paper_b", r_kind, r_value, provenance, extra)
            for rows, extra in groups if len(rows)]
    return pd.concat(done).sort_index()
