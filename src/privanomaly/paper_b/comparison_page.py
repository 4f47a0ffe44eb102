"""Paper B's comparison page, comparison.md (rule ``paper_b_comparison``): our methodology notes, the verdict table
and the noise-convention analysis, the readings section (which reading reproduces each claim) and the "your
datasets" section, from the verdicts of :mod:`privanomaly.paper_b.comparison`."""

from __future__ import annotations

import pandas as pd

from privanomaly.experiment.verdict import DIFFERS, MATCH, NA, Verdict
from privanomaly.outliers.gaussian import theorem1_factor
from privanomaly.paper_b.comparison import APPROX, frame
from privanomaly.privacy.scope import TUNING_NOTE


def implied_s_lines(s1: pd.DataFrame | None, paper: dict, delta: float) -> list[str]:
    """What smooth bound S the paper's two claims would need, under the printed and the Theorem-1 scale."""
    if s1 is None or s1.empty:
        return []
    lo, hi = paper.get("sigma_ratio_range", [10, 30])
    smax, efrom = paper.get("sigma_smooth_max", 7), paper.get("sigma_smooth_eps_from", 0.7)
    c = theorem1_factor(delta)  # sqrt(2 ln(2/delta))
    out = []
    for ds, g in s1.groupby("dataset", sort=False):
        gs = int(g["gs_lower"].iloc[0])
        smallest = float(g["smooth_sensitivity"].min())
        out.append(
            f"- {ds} (GS = {gs}): ratio >= {lo:g} needs S <= GS/(5*{lo:g}) = {gs / (5 * lo):.3g} with the printed "
            f"alpha (impossible: S >= 1), or S <= GS/{lo:g} = {gs / lo:.3g} with Theorem 1's scale; sigma_Smooth < "
            f"{smax:g} at eps = {efrom:g} needs S < {smax * efrom / c:.3g} (Theorem-1 scale) or "
            f"{smax * efrom / (5 * c):.3g} (printed). Only S close to 1 - the smallest value a local-sensitivity bound can take, "
            "i.e. effectively no smoothing - with Theorem 1's scale satisfies both; the smallest S of any of our readings "
            f"here is {smallest:.3g}."
        )
    return out


def reproduced_by(verdicts: dict[str, str], labels: dict[str, str]) -> str:
    """Which readings (in order) reproduce a claim, as a phrase."""
    yes = [labels[n] for n, v in verdicts.items() if v == MATCH]
    decided = [n for n, v in verdicts.items() if v in (MATCH, DIFFERS)]
    if not decided:
        return "not decidable under any reading"
    if len(yes) == len(verdicts):
        return "reproduced under every reading"
    if not yes:
        return "reproduced by no reading"
    return "reproduced only by " + " and ".join(yes)


def render_readings(long: pd.DataFrame, labels: dict[str, str], prefixes: dict[str, str],
                    shared: dict[str, str], notes: list[str]) -> str:
    """The comparison.md section : per-reading counts, one line per claim with its verdict under
    every reading and which reading reproduces it, then one verdict table per other reading (ids prefixed
    ``<reading>/``, so the index can select them). ``shared``: reading -> the reading whose Tables 1-2 and
    Figs. 3-4 verdicts it shares (listed once, there)."""
    from privanomaly.io import to_markdown

    if long.empty:
        return ""
    order = list(labels)
    parts = ["## Readings: our choices against the paper's printed ones", "",
             "Every claim of Tables 1-2 and Figs. 3-7, recomputed under each reading of the two choices the paper "
             "prints and we do not follow: the radius r and the exponent of the exponential mechanism. "
             "'True subspace' is defined as everywhere (>= 1 labelled outlier flagged in S), at each reading's r.",
             "", *[f"- {n}" for n in notes], ""]
    for name in order:
        v = long.loc[long["reading"] == name, "verdict"]
        parts.append(f"- **{labels[name]}** (`{prefixes[name] or 'tables/, figures/'}`): {int((v == MATCH).sum())} "
                     f"MATCH, {int((v == DIFFERS).sum())} DIFFERS, {int((v == NA).sum())} N/A of {len(v)}")
    parts += ["", "### Which reading reproduces each claim", ""]
    wide = long.pivot_table(index="claim_id", columns="reading", values="verdict", aggfunc="first", sort=False)
    claims = long.drop_duplicates("claim_id").set_index("claim_id")["claim"]
    n_by = {name: 0 for name in order}
    only_paper, none = [], []
    for cid in wide.index:
        verdicts = {n: wide.loc[cid, n] for n in order if n in wide.columns and isinstance(wide.loc[cid, n], str)}
        phrase = reproduced_by(verdicts, labels)
        for n, v in verdicts.items():
            n_by[n] += v == MATCH
        if verdicts.get(order[0]) != MATCH and any(v == MATCH for v in verdicts.values()):
            only_paper.append(cid)
        if phrase == "reproduced by no reading":
            none.append(cid)
        cells = " · ".join(f"{labels[n]}: {v.lower()}" for n, v in verdicts.items())
        parts.append(f"- `{cid}` ({claims[cid]}): {cells} → **{phrase}**")
    parts += ["", f"In short: {len(wide)} claims; " + ", ".join(f"{n_by[n]} reproduced under {labels[n]}"
                                                                 for n in order) + ". "
              + (f"Reproduced only under a reading of the paper's own choices: {', '.join(f'`{c}`' for c in only_paper)}. "
                 if only_paper else "No claim is reproduced only under the paper's own choices. ")
              + (f"Reproduced by no reading: {', '.join(f'`{c}`' for c in none)}." if none else ""), ""]
    for name in order[1:]:
        sub = long[long["reading"] == name]
        if name in shared:
            sub = sub[~sub["claim_id"].str.startswith(("table1.", "table2.", "s1."))]
        parts += [f"### {labels[name]}", ""]
        if name in shared:
            parts += [f"Tables 1-2 and Figs. 3-4 do not use the exponent: their verdicts are those under "
                      f"{labels[shared[name]]} (above).", ""]
        parts += [to_markdown(sub[["id", "claim", "paper", "ours", "verdict", "reason", "cause"]].reset_index(drop=True)),
                  ""]
    return "\n".join(parts)


def render_yours(yours: list[Verdict]) -> str:
    """The "Your datasets" section: our numbers for datasets the paper never used, no paper verdict."""
    from privanomaly.io import to_markdown

    if not yours:
        return ""
    return "\n".join([
        "## Your datasets", "",
        "Datasets the paper never used (not in paper_b.paper_reported): our numbers only - the paper's claims were "
        "made for its own datasets, so no MATCH/DIFFERS is given for them.", "",
        to_markdown(frame(yours)[["id", "claim", "ours"]]), ""])


def render_markdown(rows: pd.DataFrame, conv: pd.DataFrame, notes: list[str], implied: list[str] | None = None,
                    extra: list[str] = ()) -> str:
    """comparison.md: notes, the verdict table, and the noise-convention analysis; ``extra``: further
    sections (your datasets, readings) appended as given."""
    from privanomaly.io import to_markdown

    n_match = int((rows["verdict"] == MATCH).sum())
    n_diff = int((rows["verdict"] == DIFFERS).sum())
    parts = [
        "# Paper B (Okada et al.) - paper vs ours",
        "",
        f"{len(rows)} numbers/claims: **{n_match} MATCH**, **{n_diff} DIFFERS**, "
        f"{len(rows) - n_match - n_diff} not decidable (N/A). Generated by rule `paper_b_comparison` from the "
        "tables in `tables/`; verdict rules in `privanomaly.paper_b.comparison`.",
        "",
        "## Choices and known inconsistencies",
        "",
        *[f"- {n}" for n in notes],
        "",
        "## Every number and claim",
        "",
        to_markdown(rows),
        "",
        "## sigma_Global / sigma_Smooth: which reading of the constants could give Figs. 3-4?",
        "",
        "As printed, sigma_Global = GS sqrt(2 ln(2/delta))/eps and sigma_Smooth = 5 S sqrt(2 ln(2/delta))/eps "
        "with S computed at beta = eps/(4(1 + ln(2/delta))), so sigma_Global/sigma_Smooth = GS/(5 S) <= GS/5. "
        "Each row below recomputes Figs. 3-4 under one discrete reading (none is fitted; only `printed` is "
        "proven (eps, delta)-DP). 'both_hold' = the ratio claim (every ratio within "
        f"[lo/{APPROX:g}, hi*{APPROX:g}]) and the sigma_Smooth claim hold together.",
        "",
        to_markdown(conv),
        "",
        "What the paper's figures would require (computed from the printed numbers):",
        "",
        *(implied or []),
        "",
        *[x for x in extra if x],
    ]
    return "\n".join(parts)


def methodology_notes(names: dict[str, str], paper: dict, choices: dict[str, dict], n_readings: int) -> list[str]:
    """The notes of comparison.md on how we read paper B where it is ambiguous: dataset names and sizes, the
    Adult attributes, how r is tuned (in each dataset's query space, from ``choices``), the true subspaces,
    the exponential mechanism, which file is which figure. ``n_readings`` > 1: the other readings use the
    paper's r too."""
    text_in = paper.get("adult_b2_text_inliers")
    spaces = ", ".join(f"{names.get(ds, ds)}: {c['space']}" for ds, c in choices.items())
    notes = [
        "Datasets: " + ", ".join(f"{v} = `{k}`" for k, v in names.items()) + ". Paper Fig. 6's caption says "
        "'Adult 1' but the text runs Scenario 2 on Adult 2; we use Adult 2.",
        f"Adult 2: the text says {text_in} inliers + 10 outliers, Table 2 says 369 + 10 (N = 379); we follow "
        "Table 2.",
        "Adult: numeric attributes without fnlwgt (age, education-num, capital-gain, capital-loss, "
        "hours-per-week) = 5 dimensions, standardised on all rows before sub-sampling; the paper reports 7. "
        "Label '>50K' = positive = inlier, '<=50K' = outlier (the paper does not say which is positive).",
        "r: tuned by eq. (53) accuracy on the configured grid, smallest maximiser on ties; accuracy measured "
        f"in the space of each dataset's query ({spaces}). All later rules use this r; the paper's r is used "
        + ("only here." if n_readings == 1 else "only here and in the other readings (section 'Readings')."),
        "True subspace (Figs. 5-7): a subspace is true iff at least one record labelled outlier is a distance "
        "outlier in it (same k and r as the query).",
        "Exponential mechanism: weights exp(eps u / (2 Delta u)) with Delta u = 1 (eps-DP, McSherry-Talwar); "
        "the paper prints exp(eps u) (Theorem 3, 2 eps-DP). Algorithm 3 spends eps/h per draw.",
        "Figures: Fig. 1 = figures/fig1_gs_bounds, Fig. 2 = figures/fig2_kissing, Figs. 3/4 = "
        "figures/scenario1_<dataset>_paper (fast-bound variants: _fast), Figs. 5-7 = figures/scenario2_<dataset>.",
        TUNING_NOTE,
    ]
    return notes
