"""``python -m privanomaly``: run one mechanism on your own data, without Snakemake (:mod:`privanomaly.api`).

    python -m privanomaly paper-a mine.csv --label class --anomaly-values yes --eps 1 [--beta 10 --r 1.5]
    python -m privanomaly paper-b mine.parquet --label class --anomaly-values yes --eps 0.5 [--k 3 --r 0.4]
    python -m privanomaly paper-a mine.npz --label y --eps 1          # arrays X (features) and y (labels)
    python -m privanomaly mechanisms

The data file is a CSV, an .npz or a Parquet table (the pipeline's formats; told by its content, or --format).
Without --beta/--r (paper A) or --r (paper B) the parameters are tuned on the labels (not private; printed).
Prints what was released and the claim actually spent (paper B: with the noise's σ); ``--out flags.csv`` writes
paper A's answers per row: ``row``, ``released`` (the private answer) and ``exact_answer`` (the exact, non-private
answer to the same query "is the record a (β, r)-anomaly?" - not the record's label).
"""

from __future__ import annotations

import argparse
import sys


OUT_COLUMNS = ("row", "released", "exact_answer")
"""``--out``'s columns (paper A): the data row, the released answer, the exact (non-private) answer to the same query
(``exact_answer`` was named ``true_anomaly``, which read like a ground-truth label)."""


def number(text: str) -> int | float:
    """A numeric option: an int when the text is one (``5``), else a float (``5.0``, ``1e-3``, ``nan``); the
    library checks the value (range, whole number) with one message per argument."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _data_args(p: argparse.ArgumentParser) -> None:
    from privanomaly.api import FORMATS

    p.add_argument("data", metavar="FILE", help="your data: a CSV (one row per record, numeric features and a label "
                   "column), an .npz (a feature matrix and a label array) or a Parquet table")
    p.add_argument("--format", choices=FORMATS, help="the file's format (default: told by its content)")
    p.add_argument("--features-key", default="X", help="an .npz's array of features (default X)")
    p.add_argument("--label", required=True, help="the label column (an .npz: the label array's key)")
    p.add_argument("--anomaly-values", nargs="+", default=["1"], help="label values of anomalies (default: 1)")
    p.add_argument("--features", nargs="+", help="feature columns (default: every other column)")
    p.add_argument("--no-standardize", action="store_true", help="keep the features as they are (default: z-score)")
    p.add_argument("--missing", choices=("error", "drop"), default="error",
                   help="an empty feature or label cell: an error (default), or drop its row")
    p.add_argument("--eps", type=number, required=True, help="privacy parameter epsilon (in [1e-9, 700])")
    p.add_argument("--seed", type=number, default=0, help="seed of the release's generator (privanomaly.seeding)")


def _max_work(text: str) -> int | None:
    """``--max-work``: a non-negative integer, or ``none``."""
    if text.strip().lower() == "none":
        return None
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0 or 'none', got {text!r}")
    return value


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m privanomaly", description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    a = sub.add_parser("paper-a", help="answer 'is record i a (beta, r)-anomaly?' for every record (paper A)")
    _data_args(a)
    a.add_argument("--mechanism", default="sp", help="a paper-A mechanism (default sp; see `mechanisms`)")
    a.add_argument("--beta", type=number, help="beta of the (beta, r)-anomaly (with --r; default: tuned)")
    a.add_argument("--r", type=number, help="radius r (with --beta; default: tuned)")
    a.add_argument("--k", type=number, default=1, help="k of k-sensitive privacy (SP mechanisms; default 1)")
    a.add_argument("--out", help="write one row per record: row, released (the private answer) and exact_answer "
                                 "(the exact, non-private answer: is it a (beta, r)-anomaly? - not its label)")
    b = sub.add_parser("paper-b", help="release the number of outliers q_count(X, k, r) (paper B)")
    _data_args(b)
    b.add_argument("--mechanism", default="gaussian_smooth_fast",
                   help="a count mechanism (default gaussian_smooth_fast; see `mechanisms`)")
    b.add_argument("--k", type=number, default=3, help="outlier threshold k (default 3, the paper's)")
    b.add_argument("--r", type=number, help="radius r (default: tuned)")
    b.add_argument("--delta", type=number, default=0.01, help="delta (default 0.01, the paper's)")
    b.add_argument("--max-work", type=_max_work, default=5000,
                   help="gaussian_smooth_paper: refuse data predicted past this many Algorithm-1 work units "
                        "(default 5000, as paper_b.scenario1.max_work; 'none' = no limit)")
    sub.add_parser("mechanisms", help="list the registered mechanisms")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from privanomaly import api, mechanisms

    if args.command == "mechanisms":
        for name in mechanisms.names():
            m = mechanisms.get(name)
            print(f"{name:28s} paper {m.paper}  {m.label}")
        if mechanisms.unloaded_modules():
            print(f"warning: {mechanisms.not_loaded_hint().removeprefix('; ')}", file=sys.stderr)
        return 0
    try:
        if args.command == "paper-a" and (args.beta is None) != (args.r is None):
            raise ValueError("give both --beta and --r, or neither (then both are tuned)")
        data = api.load(args.data, args.label, args.anomaly_values, format=args.format,
                        features_key=args.features_key, features=args.features,
                        standardize=not args.no_standardize, missing=args.missing)
        if args.command == "paper-a":
            tuned = args.beta is None
            beta, r = api.choose_beta_r(data) if tuned else (args.beta, args.r)
            rel = api.release_anomalies(data, beta=beta, r=r, eps=args.eps, mechanism=args.mechanism, k=args.k,
                                        seed=args.seed, tuned_on_data=tuned)
            if args.out:
                import pandas as pd

                from privanomaly import io

                columns = (data.frame.index.to_numpy(), rel.values.astype(int), rel.truth.astype(int))
                io.write_table(pd.DataFrame(dict(zip(OUT_COLUMNS, columns))), args.out)
        else:
            tuned = args.r is None
            r = api.choose_r(data, k=args.k) if tuned else args.r
            rel = api.release_outlier_count(data, k=args.k, r=r, eps=args.eps, delta=args.delta,
                                            mechanism=args.mechanism, seed=args.seed, tuned_on_data=tuned,
                                            max_work=args.max_work)
    except (ValueError, KeyError, OSError) as exc:  # bad input (an --out path that cannot be written too)
        print(f"privanomaly: {exc}", file=sys.stderr)
        return 2
    print(rel.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
