"""Benchmark of paper B's exact samplers against the float samplers they replaced, in one run.

* Scenario 2 (Figs. 5-7) at the *full* config's grid (paper_b.scenario2: 16 eps x 4 h x 1000 trials) on the
  utility vectors of the Scenario-2 datasets (read from the Scenario-2 subspace tables of a finished run:
  ``results/`` or ``.test/results/``): CPU seconds of :func:`privanomaly.paper_b.scenario2.sweep` (sampled part
  only, ``exact=False``) with the exact rejection sampler vs the old Gumbel-top-h float sampler (kept here,
  only as the reference of this benchmark).
* The Gaussian release: CPU seconds per million draws, exact (Karney + grid) vs ``rng.standard_normal``.

Writes benchmarks/bench_paper_b_samplers.md. Usage: ``PYTHONPATH=src python benchmarks/bench_paper_b_samplers.py``.
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from privanomaly import outliers as ol
from privanomaly import seeding
from privanomaly.outliers import exact_normal
from privanomaly.paper_b import scenario2

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def gumbel_top_h_trials(utility, h, eps, rng, n_trials, sensitivity=1.0):
    """The float sampler removed earlier (Gumbel-top-h), for comparison only."""
    z = float(eps) / h * np.asarray(utility, dtype=float) / (2.0 * sensitivity)
    pert = z[None, :] + rng.gumbel(size=(int(n_trials), z.size))
    out = np.zeros((int(n_trials), z.size), dtype=bool)
    idx = np.argpartition(-pert, h - 1, axis=1)[:, :h] if h < z.size else np.tile(np.arange(z.size), (n_trials, 1))
    np.put_along_axis(out, idx, True, axis=1)
    return out


def _subspace_tables() -> tuple[Path, dict[str, pd.DataFrame]]:
    for base in (ROOT / "results", ROOT / ".test" / "results"):
        files = sorted((base / "paper_b" / "tables").glob("scenario2_subspaces_*.csv"))
        if files:
            return base, {f.stem.removeprefix("scenario2_subspaces_"): pd.read_csv(f) for f in files}
    raise SystemExit("no scenario2_subspaces_*.csv under results/ or .test/results/: run the pipeline first")


def _cpu(fn) -> float:
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def main() -> None:
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))["paper_b"]["scenario2"]
    eps, hs, n_trials = cfg["eps"], cfg["h"], cfg["n_trials"]
    lines = ["# bench_paper_b_samplers: exact vs float samplers of paper B", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; load "
             f"average at start {os.getloadavg()[0]:.1f} (shared machine: compare CPU seconds and ratios, measured "
             "in this one run).", "",
             f"## Scenario 2 sweep (full config grid: {len(eps)} eps x h {hs} x {n_trials} trials)", "",
             ]
    base, tables = _subspace_tables()
    lines += [f"Utilities from `{base.relative_to(ROOT)}/paper_b/tables/scenario2_subspaces_*.csv`.", "",
              "| dataset | candidates | exact sampler cpu s | Gumbel float sampler cpu s | ratio |", "|---|---|---|---|---|"]
    for name, tab in tables.items():
        u, true = tab["utility"].to_numpy(float), tab["is_true"].to_numpy(bool)

        def run(u=u, true=true, name=name):
            scenario2.sweep(u, true, eps, hs, n_trials, lambda e, h: seeding.rng(1, "bench", name, e, h), exact=False)

        exact_cpu = _cpu(run)
        saved = ol.top_h_trials
        ol.top_h_trials = gumbel_top_h_trials
        try:
            float_cpu = _cpu(run)
        finally:
            ol.top_h_trials = saved
        lines.append(f"| {name} | {u.size} | {exact_cpu:.2f} | {float_cpu:.2f} | {exact_cpu / float_cpu:.1f} |")
        print(lines[-1], flush=True)
    n = 1_000_000
    lines += ["", f"## Gaussian release, {n:,} draws of q + sigma Z (q = 7, sigma = 163.25)", "",
              "| sampler | cpu s |", "|---|---|"]
    t_exact = _cpu(lambda: exact_normal.gaussian_release_exact(7.0, 163.25, seeding.rng(1, "bench", "g"), n))
    t_float = _cpu(lambda: 7.0 + 163.25 * seeding.rng(1, "bench", "g").standard_normal(n))
    lines += [f"| exact (Karney's Algorithm N + grid 2^-32) | {t_exact:.2f} |",
              f"| float `rng.standard_normal` (removed) | {t_float:.3f} |", "",
              f"Ratio exact / float: {t_exact / t_float:.0f}x. No pipeline table samples Gaussian noise (Scenario 1 "
              "reports sigma); the Gaussian samplers run in the audit's Clopper-Pearson and goodness-of-fit checks.", ""]
    (HERE / "bench_paper_b_samplers.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines[-8:]))


if __name__ == "__main__":
    main()
