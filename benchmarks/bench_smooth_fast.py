"""Benchmark of the fast smooth bound of q_count (paper B, beyond the paper) against N and d, beside the floor
of any computation of it: a capped radius count (scipy cKDTree k-nearest query bounded by r, k + 1 nearest =
q_count's own need), both timed in the same process run (CPU seconds), so their ratio stays meaningful on a
loaded machine. Writes benchmarks/bench_smooth_fast.md.

Data: a seeded mixture of 7 Gaussian clusters rounded to integers and standardised (near-duplicates, like the
ODDS shuttle data), privanomaly.seeding. k = 3, r = 0.5, eps = 0.1 (the smallest eps of Scenario 1: the
longest horizon T), beta of Theorem 2 as printed, exact_max = 0 (the pipeline's setting).

Run: .venv/bin/python benchmarks/bench_smooth_fast.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

from privanomaly import seeding
from privanomaly.outliers import smooth_parameters, subspace_coords
from privanomaly.outliers.distance import RADIUS_RTOL
from privanomaly.outliers.smooth import block_smooth_bound, horizon

ROOT = Path(__file__).resolve().parents[1]
SEED = 20150723
K, R, EPS, DELTA = 3, 0.5, 0.1, 0.01


def data(n: int, d: int) -> np.ndarray:
    rng = seeding.rng(SEED, "bench_smooth_fast", n, d)
    centres = rng.integers(-60, 60, size=(7, d))
    w = np.array([0.78, 0.08, 0.06, 0.04, 0.02, 0.015, 0.005])
    X = np.round(centres[rng.choice(7, size=n, p=w / w.sum())] + rng.normal(0, 6, size=(n, d)))
    return (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0)


def cpu(fn):
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def row(n: int, d: int, beta: float) -> dict:
    X = data(n, d)
    Z = subspace_coords(X)
    floor, _ = cpu(lambda: cKDTree(Z).query(Z, k=K + 1, distance_upper_bound=R * (1 + RADIUS_RTOL)))
    fast, res = cpu(lambda: block_smooth_bound(X, K, R, beta, exact_max=0))
    return {"N": n, "d": d, "T": horizon(n, beta), "S": res.value, "fast": fast, "floor": floor}


def exponent(rows: list[dict], key: str) -> float:
    x = np.log([r["N"] for r in rows])
    return float(np.polyfit(x, np.log([max(r[key], 1e-4) for r in rows]), 1)[0])


def table(rows: list[dict]) -> list[str]:
    out = ["| N | d | horizon T | S (eps = 0.1) | fast bound CPU [s] | floor CPU [s] | fast / floor |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['N']:,} | {r['d']} | {r['T']:,} | {r['S']:.3f} | {r['fast']:.2f} | {r['floor']:.2f} | "
                   f"{r['fast'] / max(r['floor'], 1e-4):.2f} |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "bench_smooth_fast.md"))
    a = ap.parse_args()
    beta = smooth_parameters(EPS, DELTA)[1]
    block_smooth_bound(data(300, 9), K, R, beta, exact_max=0)  # compile the kernels before timing
    ns = [1000, 3000, 10000] if a.quick else [1000, 3000, 10000, 30000, 100000, 300000]
    ds = [2, 9] if a.quick else [2, 6, 9, 15, 30]
    by_n = [row(n, 9, beta) for n in ns]
    by_d = [row(10000 if a.quick else 30000, d, beta) for d in ds]
    load = os.getloadavg()
    lines = [
        "# Fast smooth bound of q_count: time against N and d, and the capped radius-count floor", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end (CPU seconds of this process; both columns timed "
        "in the same run). k = 3, r = 0.5, eps = 0.1, delta = 0.01 (beta of Theorem 2 as printed), exact_max = 0. "
        "Floor: cKDTree k-nearest query bounded by r (k + 1 nearest). Data: `benchmarks/bench_smooth_fast.py`.", "",
        "## Against N (d = 9)", "", *table(by_n), "",
        f"Fitted growth exponent (log CPU vs log N): fast bound {exponent(by_n, 'fast'):.2f}, floor "
        f"{exponent(by_n, 'floor'):.2f}.", "",
        f"## Against d (N = {by_d[0]['N']:,})", "", *table(by_d), "",
    ]
    Path(a.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
