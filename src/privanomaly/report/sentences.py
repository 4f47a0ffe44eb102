"""The answer first: one sentence per result, in words, generated from the run's tables (``results/index.md``
and through it the report), e.g. "on cardio (printed constants, fast bound) σ_Smooth is 4.2–16× larger than
σ_Global at every ε (0.1–0.9)".

Each function reads one kind of tidy table and returns its sentences; :func:`from_files` picks the tables
it knows among a run's files by their names (paper B's ``tables/scenario1_<dataset>_<method>.csv``, paper
A's ``tables/table2.csv``); rows without numbers (unavailable datasets, skipped cells) are left out and said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from privanomaly.experiment.inputs import read_csv, read_output

METHOD_WORDS = {"paper": "Algorithm 2", "fast": "fast bound"}
SCENARIO1 = re.compile(r"(?:^|/)paper_b/tables/scenario1_(?P<dataset>.+)_(?P<method>paper|fast)\.csv$")
TABLE2 = re.compile(r"(?:^|/)paper_a/tables/table2\.csv$")


def _times(x: float) -> str:
    return f"{x:.2g}×" if x < 10 else f"{x:.0f}×"


def _span(lo: float, hi: float) -> str:
    a, b = _times(lo), _times(hi)
    return a if a == b else f"{a[:-1]}–{b}"


def _eps_span(eps: Iterable[float]) -> str:
    e = sorted(set(float(x) for x in eps))
    return f"ε = {e[0]:g}" if len(e) == 1 else f"ε = {e[0]:g}–{e[-1]:g}"


def scenario1_sentence(df: pd.DataFrame, name: str, method: str) -> str | None:
    """Paper B, Figures 3/4 on one dataset and bound: how σ_Smooth compares with σ_Global (the paper's,
    Theorem 1 with the GS lower bound) under the printed constants, over the ε grid."""
    rows = df[df["convention"] == "printed"] if "convention" in df else df
    if rows.empty:
        return None
    skipped = rows["skipped"].notna() & (rows["skipped"].astype(str) != "") if "skipped" in rows else False
    done = rows[~skipped & rows["sigma_smooth"].notna()] if "sigma_smooth" in rows else rows.iloc[0:0]
    what = f"on {name} ({METHOD_WORDS.get(method, method)}, printed constants)"
    n_skip = int(np.sum(skipped))
    tail = f"; σ_Smooth not computed at {n_skip} of {len(rows)} ε (see the table's `skipped`)" if n_skip else ""
    if done.empty:
        return f"{what} σ_Smooth could not be computed at any ε{tail}" if n_skip else None
    ratio = (done["sigma_global"] / done["sigma_smooth"]).to_numpy(dtype=float)
    better, eps = ratio >= 1, done["eps"].to_numpy(dtype=float)
    if better.all():
        text = f"σ_Smooth is {_span(ratio.min(), ratio.max())} smaller than σ_Global at every ε ({_eps_span(eps)})"
    elif not better.any():
        text = (f"σ_Smooth is {_span(1 / ratio.max(), 1 / ratio.min())} larger than σ_Global - the smooth bound is "
                f"worse than the global one - at every ε ({_eps_span(eps)})")
    else:
        text = (f"σ_Smooth is smaller than σ_Global for {_eps_span(eps[better])} and larger for "
                f"{_eps_span(eps[~better])}")
    return f"{what} {text}{tail}"


def table2_sentences(df: pd.DataFrame) -> list[str]:
    """Paper A, Table 2: per dataset, SP's exact error on a random anomaly against DP's."""
    need = {"dataset", "eps", "k", "random_anomaly_sp", "random_anomaly_dp"}
    if not need <= set(df.columns):
        return []
    out = []
    for row in df.itertuples(index=False):
        sp_err, dp_err = float(row.random_anomaly_sp), float(row.random_anomaly_dp)
        if not (np.isfinite(sp_err) and np.isfinite(dp_err)):
            continue
        if sp_err > 0:
            ratio = dp_err / sp_err
            if dp_err == sp_err:  # e.g. every anomaly k-sensitive: SP is the optimal DP mechanism there
                how = "equal"
            elif dp_err > 0 and _times(max(ratio, 1 / ratio)) == "1×":  # "1× smaller" would read as a gain
                how = f"about equal: DP/SP = {ratio:.4g}"
            else:
                how = f"{_times(ratio)} smaller" if dp_err >= sp_err else (
                    f"{_times(1 / ratio)} larger" if dp_err > 0 else "larger (DP's is 0)")
        else:
            how = "zero"
        out.append(f"on {row.dataset}, at ε = {float(row.eps):g} and k = {int(row.k)}, SP's expected error on a "
                   f"random anomaly is {sp_err:.3g} against optimal DP's {dp_err:.3g} ({how})")
    return out


def from_files(paths: Iterable[str | Path], names: Mapping[str, str] | None = None) -> list[str]:
    """Every sentence of the tables among ``paths`` that this module knows (others are ignored), in the
    order given; ``names``: dataset -> the name to print (paper B's display names)."""
    names = names or {}
    out: list[str] = []
    for path in map(str, paths):
        if TABLE2.search(path) and Path(path).is_file():
            out += table2_sentences(read_output(path, read_csv, "paper A's Table 2"))
        m = SCENARIO1.search(path)
        if m and Path(path).is_file():
            table = read_output(path, read_csv, "a Scenario-1 table of paper B")
            s = scenario1_sentence(table, names.get(m["dataset"], m["dataset"]), m["method"])
            if s:
                out.append(s)
    return out


def markdown(sentences: list[str]) -> str:
    """The "In words" section of results/index.md (empty when there is nothing to say)."""
    if not sentences:
        return ""
    return "\n".join(["## In words", "", *[f"- {s[0].upper()}{s[1:]}." for s in sentences], ""]) + "\n"
