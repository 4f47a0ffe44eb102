"""Benchmark of the privacy-audit harness (privanomaly.audit.run): fast and full levels, per mechanism.

Writes benchmarks/bench_audit.md. Wall = elapsed, cpu = this process's CPU time (the harness is
single-threaded): the machine may be shared, so cpu is the figure to compare with the 3-minute budget of the
fast subset inside `make test`, and the load average says how busy the machine was.
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

from privanomaly import audit
from privanomaly import mechanisms as M

HERE = Path(__file__).resolve().parent


def main() -> None:
    from privanomaly.audit import controls  # noqa: F401 - the negative controls (the harness runs them itself)

    lines = ["# bench_audit: the privacy-audit harness", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
             f"load average at start {os.getloadavg()[0]:.1f} (the machine is shared with other jobs today: "
             "compare cpu seconds). The harness is single-threaded; `audit.run` also sampled every mechanism's "
             "sampler (Clopper–Pearson) inside these times.", ""]
    for level in ("fast", "full"):
        lv = audit.LEVELS[level]
        lines += [f"## level {level}", "",
                  f"domains {lv.domains}, metrics {lv.metrics}, r {lv.radii}, beta {lv.betas}, k {lv.ks}, "
                  f"cap offsets {lv.cap_offsets}, eps {lv.eps}, {lv.cp_n} samples per side", "",
                  "| row | wall s | cpu s | as expected |", "|---|---|---|---|"]
        tw = tc = 0.0
        for name in M.names():
            w0, c0 = time.perf_counter(), time.process_time()
            df = audit.run(level, names=[name], controls=False)
            w, c = time.perf_counter() - w0, time.process_time() - c0
            tw, tc = tw + w, tc + c
            lines.append(f"| {name} | {w:.1f} | {c:.1f} | {bool(df['ok'].all())} |")
        w0, c0 = time.perf_counter(), time.process_time()
        df = audit.run(level, names=[], controls=True)
        w, c = time.perf_counter() - w0, time.process_time() - c0
        tw, tc = tw + w, tc + c
        lines.append(f"| all {len(df)} negative controls | {w:.1f} | {c:.1f} | {bool(df['ok'].all())} |")
        lines += [f"| **total** | **{tw:.1f}** | **{tc:.1f}** | |", ""]
        print("\n".join(lines[-4:]), flush=True)
    (HERE / "bench_audit.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {HERE / 'bench_audit.md'}")


if __name__ == "__main__":
    main()
