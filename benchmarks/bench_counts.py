"""CPU of the ball counts of one sweep job and of paper A's record table on one dataset (e.g. credit card).

``python benchmarks/bench_counts.py DATA.parquet OUT_PREFIX [beta fraction]``: runs what rule
``sweep_counts`` runs for ``beta~<beta>_r~f<fraction>`` of the paperAbetaR sweep (radius at the fraction,
500 absent points, the sweep's cap) and what ``paper_a_records`` runs at the same (β, r) with paper A's cap,
prints the CPU seconds of each stage and writes both tables to OUT_PREFIX.{counts,records}.parquet so that
two checkouts' outputs can be compared byte for byte (``PYTHONPATH=<checkout>/src``). The stand-in credit
card of ``make scale`` is ``.scale/results/data/creditcard.parquet``.
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from privanomaly import experiment, seeding
from privanomaly.paper_a import records
from privanomaly.sweeps import counts


def main(argv: list[str]) -> None:
    data, out = argv[1], argv[2]
    beta, fraction = (int(argv[3]), float(argv[4])) if len(argv) > 4 else (10, 0.01)
    X, y, _ = experiment.split_frame(pd.read_parquet(data), "bench")
    cap = counts.sweep_cap([2, 5, 10, 20], [0.25, 0.5, 1.0, 2.0, 4.0])
    t0 = time.process_time()
    r = counts.resolve_r(X, "fraction", fraction, beta, "euclidean")
    t1 = time.process_time()
    absent = counts.absent_points(X, 500, seeding.rng(20191111, "sweep_counts", "paperAbetaR", "bench"))
    table = counts.count_table(X, y, r, metric="euclidean", cap=cap, absent=absent)
    t2 = time.process_time()
    rec = records.record_table(X, y, beta, r, cap=records.cap_for(beta, 0.25), metric="euclidean")
    t3 = time.process_time()
    print(f"{len(X)} records, beta {beta}, fraction {fraction}: r = {r!r}")
    print(f"sweep_counts: radius {t1 - t0:.2f} s CPU, counts (cap {cap}) {t2 - t1:.2f} s CPU; "
          f"paper_a_records counts {t3 - t2:.2f} s CPU")
    table.to_parquet(f"{out}.counts.parquet", index=False)
    rec.to_parquet(f"{out}.records.parquet", index=False)


if __name__ == "__main__":
    main(sys.argv)
