"""The smooth upper bound of q_count as the experiments release it: Algorithm 2 run to completion, or the fast bound.

Which bound is released depends only on public parameters - the configured ``method`` (``paper`` =
Algorithm 2 with the exponential Algorithm 1, :func:`privanomaly.outliers.algorithm2`; ``fast`` = the
polynomial block bound, :func:`privanomaly.outliers.block_smooth_bound`) - never on the data. Each is a beta-smooth upper bound
(Def. 4), so Theorem 2 applies to each. A *data-dependent* choice between them is not: the earlier
"Algorithm 2 under a work budget, else the fast bound" switch made S(X) jump from 17.5
to 25.0 between neighbours (8 triples at the corners of a cube of side 1.998 r plus one record moved next
to it, k = 3, d = 3), exact delta 0.0896 against the claimed 0.01 at eps = 0.5. That switch survives only
as :func:`privanomaly.audit.controls.budget_switch_bound`, a known-broken negative control for the audit.

``max_work`` (config ``paper_b.scenario1.max_work``) is now a *feasibility guard*: if Algorithm 2 needs more
smallest-enclosing-ball evaluations than that, :class:`AlgorithmTooCostly` is raised with a message naming
the key - there is no fallback: Scenario 1 writes the rows of that beta as ``skipped`` (config
``skip_infeasible``; false = the job fails). A wall-clock ``timeout_seconds`` is a safety net
(:class:`SafetyTimeout`) that only ever makes rows ``skipped`` (never a failed job, never another bound); the
fast bound is near N log N (:func:`privanomaly.outliers.smooth.horizon`), so on any machine it finishes well
inside the default. The fast bound is called with ``exact_max`` (config
``paper_b.fast_exact_max``): 0 keeps it polynomial.

Wall-clock timings are measured only by :func:`privanomaly.paper_b.timing.timed_bound` for the separate
benchmark table (``paper_b/tables/smooth_timing.csv``), which is machine-dependent by nature.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from privanomaly import outliers as ol
from privanomaly.paper_b.timing import run_with_time_limit


class SafetyTimeout(RuntimeError):
    """The wall-clock safety timeout fired. A machine-dependent limit never fails a run: Scenario 1 and the
    sweeps write the rows it stopped as ``skipped`` with this message, and the run goes on."""


class AlgorithmTooCostly(RuntimeError):
    """Algorithm 2 needed more work than ``paper_b.scenario1.max_work`` allows (no fallback: see module doc)."""


def _as_dict(res, method_used: str, work_paper: int) -> dict:
    ls = np.asarray(res.ls_bounds)
    return {
        "value": float(res.value),
        "ls0": float(ls[0]) if ls.size else np.nan,  # min(N, B_0): the un-smoothed t = 0 bound >= LS(X)
        "t_max": int(res.t_max),
        "t_stop": int(res.t_stop),
        "method_used": method_used,
        "work_paper": int(work_paper),
    }


#: the config key of Algorithm 2's work guard named in :class:`AlgorithmTooCostly` (Scenario 1's; a sweep's is
#: ``sweeps.<name>.max_work``)
SCENARIO1_GUARD = "paper_b.scenario1.max_work"


#: the config key of the per-dataset choice of bound, named where one bound cannot run
METHODS_KEY = "paper_b.scenario1.methods_by_dataset"
#: the config key of the wall-clock safety net (rows past it say skipped)
TIMEOUT_KEY = "paper_b.scenario1.timeout_seconds"


def _too_costly(what: str, error: str, guard_key: str = SCENARIO1_GUARD) -> AlgorithmTooCostly:
    return AlgorithmTooCostly(
        f"{what}: {error}. The released bound may not depend on the data, so there is no fallback: raise "
        f"{guard_key} (or set it to null), or give this dataset the fast bound only ({METHODS_KEY}: "
        "{<dataset>: [fast]})"
    )


def _timed_out(what: str, seconds: float) -> SafetyTimeout:
    """The message of a safety timeout: the key that set it and what else can be done - never the bound that
    has just run out of time."""
    other = (f"or give this dataset the fast bound only ({METHODS_KEY}: {{<dataset>: [fast]}})" if what == "Algorithm 2"
             else "or lower paper_b.fast_exact_max (0: no exact refinement)")
    return SafetyTimeout(f"{what} hit the safety timeout of {seconds} s ({TIMEOUT_KEY}; a machine-dependent limit, "
                         f"so these rows are skipped and the run goes on): raise {TIMEOUT_KEY} (null = none), {other}")


def _run(fn, *args, timeout_seconds, what: str, guard_key: str = SCENARIO1_GUARD):
    try:
        run = run_with_time_limit(fn, *args, seconds=timeout_seconds)
    except ol.WorkBudgetExceeded as exc:  # in-process (no timeout)
        raise _too_costly(what, str(exc), guard_key) from None
    if run.error is not None:
        if run.error.startswith("WorkBudgetExceeded"):  # in the forked child
            raise _too_costly(what, run.error, guard_key)
        raise RuntimeError(f"{what} failed: {run.error}")
    if not run.completed:
        raise _timed_out(what, timeout_seconds)
    return run.value


def smooth_bound(
    X: np.ndarray,
    k: int,
    r: float,
    beta: float,
    method: str,
    max_work: int | None = None,
    fast_exact_max: int = 0,
    timeout_seconds: float | None = None,
    guard_key: str = SCENARIO1_GUARD,
) -> dict:
    """S_beta(X) by ``method`` (``paper``: Algorithm 2 to completion; ``fast``: the block bound), a
    beta-smooth upper bound chosen by public parameters only.

    ``max_work`` (None = no limit) is a feasibility guard for Algorithm 2: past it
    :class:`AlgorithmTooCostly` is raised (never a fallback), naming ``guard_key``, the config key that set it.
    ``timeout_seconds`` (None = none) is a safety
    net per computation (:class:`SafetyTimeout`). ``work_paper`` = work units spent in Algorithm 2.
    """
    if method == "paper":
        fn = functools.partial(ol.algorithm2, max_work=max_work)
        res = _run(fn, X, k, r, beta, timeout_seconds=timeout_seconds, what="Algorithm 2", guard_key=guard_key)
        return _as_dict(res, "paper", res.work)
    if method == "fast":
        fn = functools.partial(ol.block_smooth_bound, exact_max=fast_exact_max)
        res = _run(fn, X, k, r, beta, timeout_seconds=timeout_seconds, what="fast smooth bound")
        return _as_dict(res, "fast", 0)
    raise ValueError(f"method: expected 'paper' or 'fast', got {method!r}")


def fast_bounds(X: np.ndarray, k: int, r: float, betas: list[float], fast_exact_max: int = 0,
                timeout_seconds: float | None = None) -> dict[float, dict]:
    """The fast bound (:func:`smooth_bound` ``method="fast"``) at every beta of ``betas`` in one computation:
    smallest beta first inside :func:`privanomaly.outliers.smooth.reuse_block_bounds`, so the windows are
    computed once, at the longest horizon, and every other beta reads their prefix (the same values as one call
    per beta: tested). One safety timeout for all (:class:`SafetyTimeout`). Inside the caller's
    :func:`~privanomaly.outliers.smooth.reuse_block_bounds` block the bounds computed (in the safety timeout's
    forked child) are kept there too, so a later fast bound of the same database (a mechanism's noise at a beta
    they cover) reads them instead of computing them again."""
    from privanomaly.outliers.smooth import keep_block_bounds, kept_block_bounds, reuse_block_bounds

    def every_beta() -> tuple[dict[float, dict], tuple | None]:
        with reuse_block_bounds():
            out = {float(b): _as_dict(ol.block_smooth_bound(X, k, r, float(b), exact_max=fast_exact_max), "fast", 0)
                   for b in sorted(betas)}
            return out, kept_block_bounds(X, k, r, fast_exact_max)

    out, kept = _run(every_beta, timeout_seconds=timeout_seconds, what="fast smooth bound")
    keep_block_bounds(X, k, r, kept, fast_exact_max)
    return out


# Above this many records in >= 3 dimensions Algorithm 2 is expected to exceed a work guard of a few thousand
# units: its Algorithm-1 calls are exponential in the number of window records within 2r of each other. Measured
# here: Synthetic 1 and Adult 1 (N = 50, d = 2 and 7) need <= ~1,000 units; 40 Gaussian points in 3-D at r = 0.8
# (k = 3) need 57,199; a 1,831 x 21 dataset exceeded max_work = 5,000 after 4 of 9 eps.
LIKELY_TOO_COSTLY_N = 100


@dataclass(frozen=True)
class Outlook:
    """What :func:`algorithm2_outlook` predicts for one dataset: ``verdict`` is ``"feasible"`` (proven: at most
    ``work_bound`` units), ``"unknown"`` or ``"likely too costly"``; ``message`` says why and what to do."""

    verdict: str
    work_bound: int | None
    message: str


def algorithm2_outlook(N: int, k: int, d: int, max_work: int | None, name: str = "this dataset") -> Outlook:
    """Predict, from the shape only (before any job runs), whether Algorithm 2 fits ``max_work``
    (:class:`AlgorithmTooCostly` otherwise), so the workflow can warn at DAG time.

    In 1-D and 2-D every Algorithm-1 call is one closed-form solve (one work unit) and Algorithm 2 makes at
    most one call per window size and centre (c = k, k - 1; t = 0..N): work <= 2 (N + 1), a proven bound.
    In >= 3 dimensions Algorithm 1 is exponential and no bound from (N, k, d) is useful: above
    :data:`LIKELY_TOO_COSTLY_N` records the job is expected to fail the guard (measured, see there)."""
    if N < 1 or k < 1 or d < 1:
        raise ValueError(f"algorithm2_outlook: N, k, d must be >= 1, got N={N}, k={k}, d={d}")
    fix = (f"set paper_b.scenario1.methods_by_dataset: {{{name}: [fast]}} (the fast bound is polynomial), or raise "
           f"paper_b.scenario1.max_work_by_dataset for it")
    if d <= 2:
        bound = 2 * (N + 1)
        if max_work is None or bound <= max_work:
            return Outlook("feasible", bound, f"{name}: Algorithm 2 in {d}-D needs at most {bound:,} work units")
        return Outlook("unknown", bound, f"{name}: Algorithm 2 in {d}-D needs at most {bound:,} work units, more "
                                         f"than max_work = {max_work:,} allows in the worst case")
    if N > LIKELY_TOO_COSTLY_N:
        guard = "no max_work: it may run for hours" if max_work is None else f"expected to exceed max_work = {max_work:,}"
        return Outlook("likely too costly", None,
                       f"{name}: Algorithm 2 (paper B's exponential Algorithm 1) on N = {N:,} records in {d}-D, "
                       f"k = {k}: {guard}; {fix}")
    return Outlook("unknown", None, f"{name}: Algorithm 2 on N = {N} records in {d}-D is exponential in the densest "
                                    f"window; max_work decides")


def guard_scope(method: str, max_work: int | None, skip_infeasible: bool, N: int, k: int, d: int):
    """The scope a Scenario-1 or sweep row of ``method`` adds for Algorithm 2's work guard
    (:func:`privanomaly.privacy.scope.algorithm2_guard`), with the shape's :func:`algorithm2_outlook`."""
    from privanomaly.privacy import scope

    fits = algorithm2_outlook(N, k, d, max_work).verdict == "feasible"
    return scope.algorithm2_guard(method, max_work, skip_infeasible, fits)


def file_shape(parquet: str) -> tuple[int, int] | None:
    """(N, d) of a prepared dataset (``results/data/<name>.parquet``: features + ``label``) from its Parquet
    metadata only (no data read); None while the file does not exist yet. A file that exists but cannot be read
    (truncated, not Parquet) is a ``ValueError`` naming it and how to rebuild it."""
    from pathlib import Path

    if not Path(parquet).is_file():
        return None
    import pyarrow.parquet as pq

    from privanomaly.experiment.inputs import read_output

    meta = read_output(parquet, pq.read_metadata, "a prepared dataset (Parquet)")
    return int(meta.num_rows), int(meta.num_columns) - 1


#: said after an estimate whose shape was told before ``prepare`` ran (:func:`known_shape`)
EXPECTED_NOTE = " (shape expected from the config and raw file: the table is not prepared yet)"


def known_shape(parquet: str, name: str, expected=None) -> tuple[tuple[int, int] | None, str]:
    """(N, d) of dataset ``name``: its prepared table's (:func:`file_shape`), else ``expected(name)`` (the shape
    told before ``prepare`` runs, :meth:`privanomaly.datasets.plan.DataPlan.expected_shape`) with
    :data:`EXPECTED_NOTE` as the second item, else None."""
    shape = file_shape(parquet)
    if shape is not None or expected is None:
        return shape, ""
    shape = expected(name)
    return shape, EXPECTED_NOTE if shape is not None else ""


def file_outlook(parquet: str, k: int, max_work: int | None, name: str) -> Outlook | None:
    """:func:`algorithm2_outlook` of a prepared dataset from its shape (:func:`file_shape`); None while the file
    does not exist yet."""
    shape = file_shape(parquet)
    return None if shape is None else algorithm2_outlook(shape[0], int(k), shape[1], max_work, name)


#: CPU seconds per record x neighbour searched (k + T) x coordinate, and per record x block row, of the fast
#: bound: upper ends of what 50,000 x 9 and 284,807 x 6 took here (benchmarks/bench_smooth_fast.md)
FAST_PAIR_SECONDS = 1.5e-8
FAST_BLOCK_SECONDS = 2e-8
#: Algorithm-1 work units (smallest-enclosing-ball evaluations) per CPU second, about (paper_b.scenario1.max_work)
ALGORITHM1_UNITS_PER_SECOND = 700


def fast_bound_seconds(N: int, d: int, k: int, beta: float, max_block_dims: int = 8) -> float:
    """Estimated CPU seconds of the fast bound at its longest horizon (smallest ``beta``) from the shape only:
    capped neighbour counts (N (k + T) d pair tests at most) and the block grids (N 2^m rows per grid)."""
    from privanomaly.outliers.smooth import horizon

    T = horizon(N, beta)
    chunks = [min(max_block_dims, d - s) for s in range(0, d, max_block_dims)]
    rows = 2 * 2 * sum(2**m for m in chunks)  # two centres x two shifted grids per axis chunk
    return N * (k + T) * d * FAST_PAIR_SECONDS + N * rows * FAST_BLOCK_SECONDS


def job_estimate(N: int, d: int, k: int, method: str, betas: list[float], max_work: int | None) -> str:
    """One line for the DAG-time outlook: how long a Scenario-1 job of this shape may take (public quantities)."""
    if method == "fast":
        return f"about {fast_bound_seconds(N, d, k, min(betas)):.0f} s CPU or less (fast bound, N = {N:,}, d = {d})"
    if max_work is None:
        return f"unbounded (Algorithm 2 with no work guard, N = {N:,}, d = {d})"
    return (f"at most about {len(betas) * max_work / ALGORITHM1_UNITS_PER_SECOND:.0f} s CPU (Algorithm 2: "
            f"{len(betas)} betas x max_work {max_work:,} units, N = {N:,}, d = {d})")
