"""``python -m privanomaly.audit [--level full] [--out DIR] [--only NAME ...] [--workers N]``: run the harness,
print and write the table.

Exit status 1 if a mechanism fails or a negative control is not caught (this is what `make audit` runs).
``--only`` audits the named registered mechanisms alone, without the negative controls (checking a mechanism
you add takes seconds at the full level instead of the whole registry's minutes). ``--workers`` audits that many
rows at a time (default: the CPUs this process may use, at most 8); the table is the same whatever the number.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from privanomaly import io

from .harness import LEVELS, run, table
from .parallel import available_cpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m privanomaly.audit", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", choices=sorted(LEVELS), default="full",
                    help="fast: the subset `make test` runs; full: `make audit` (default: full)")
    ap.add_argument("--out", default="results/audit",
                    help="directory for privacy_audit.{csv,md} (default: results/audit)")
    ap.add_argument("--only", nargs="+", metavar="NAME",
                    help="audit only these registered mechanisms (no negative controls)")
    ap.add_argument("--workers", type=int, default=available_cpus(), metavar="N",
                    help="rows audited at a time, each in its own process (default: the CPUs available here, at most 8)")
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error(f"--workers: expected a positive number of processes, got {args.workers}")
    if args.only:
        from privanomaly import mechanisms

        known = mechanisms.names()
        unknown = [n for n in args.only if n not in known]
        if unknown:
            ap.error(f"--only: not registered: {', '.join(unknown)} (registered: {', '.join(known)})"
                     f"{mechanisms.not_loaded_hint()}")
    t0 = time.perf_counter()
    df = table(run(args.level, names=args.only, controls=not args.only, workers=args.workers,
                   log=lambda m: print(m, file=sys.stderr, flush=True)))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    io.write_table(df, out / "privacy_audit.csv")
    io.write_table(df, out / "privacy_audit.md")
    cols = ["kind", "mechanism", "claim", "worlds", "edges", "pairs", "worst_ratio_over_e_eps", "worst_delta",
            "cp_eps_hat", "result"]
    print(df[cols].to_string(index=False))
    print(f"privacy audit ({args.level}): {time.perf_counter() - t0:.1f} s; table in {out}/privacy_audit.md")
    return 0 if df["ok"].all() else 1


if __name__ == "__main__":
    raise SystemExit(main())
