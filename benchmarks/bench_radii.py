"""CPU of ball counts at many radii: one walk of the tree per record for every radius together
(:func:`privanomaly.sp.ball_counts_radii`) against one count per radius (:func:`privanomaly.sp.ball_counts`).

``python benchmarks/bench_radii.py DATA.parquet [N]``: on the first N records of DATA (default all), two
workloads measured in one process, one thread: a sweep's counts (the radii of paperAbetaR's four β at
fractions 0.01 and 0.05, read off the data, and the sweep's cap) and a price table's candidate radii (20 radii
over the same span, a smaller cap). Prints the CPU seconds of each way, their ratio and whether the integers
are equal. The stand-in credit card of ``make scale`` is ``.scale/results/data/creditcard.parquet``.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from privanomaly import experiment, sp
from privanomaly.paper_a.selection import radii_at_fractions
from privanomaly.sweeps import counts


def _timed(fn):
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def main(argv: list[str]) -> None:
    X, _, _ = experiment.split_frame(pd.read_parquet(argv[1]), "bench")
    if len(argv) > 2:
        X = X[: int(argv[2])]
    sweep_radii = [r for b in (2, 5, 10, 20) for r in radii_at_fractions(X, b, [0.01, 0.05])]
    price_radii = list(np.linspace(min(sweep_radii), max(sweep_radii), 20))
    sp.ball_counts_radii(X[:100], sweep_radii, cap=3)  # compile both kernels outside the timings
    sp.ball_counts(X[:100], sweep_radii[0], cap=3)
    print(f"{len(X)} records x {X.shape[1]}, one thread")
    sweep_cap = counts.sweep_cap([2, 5, 10, 20], [0.25, 0.5, 1.0, 2.0, 4.0], noise_share=0.25)  # the compiler's
    for name, radii, cap in (("sweep", sweep_radii, sweep_cap), ("price", price_radii, 427)):
        walk, t_walk = _timed(lambda: sp.ball_counts_radii(X, radii, cap=cap))
        each, t_each = _timed(lambda: np.array([sp.ball_counts(X, r, cap=cap) for r in radii]))
        print(f"{name}: {len(radii)} radii in [{min(radii):.3g}, {max(radii):.3g}], cap {cap}: one walk "
              f"{t_walk:.1f} s CPU, one count per radius {t_each:.1f} s CPU, ratio {t_walk / t_each:.2f}, "
              f"equal {bool(np.array_equal(walk, each))}")


if __name__ == "__main__":
    main(sys.argv)
