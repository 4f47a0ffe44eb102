"""Figures of paper B, drawn from the tidy tables only (no computation beyond selecting rows)."""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from privanomaly.paper_b import readings  # noqa: E402
from privanomaly.registry import Registry  # noqa: E402

FIGURES: Registry = Registry("paper B plot function")
"""The plot functions of this module by catalogue name (merged by :mod:`privanomaly.report.figures`)."""

CONVENTION_LABELS = {
    "printed": "printed (Theorems 1-2)",
    "beta_equals_eps": "β = ε (eq. 29)",
    "alpha_without_5": "α without 5",
    "beta_equals_eps_alpha_without_5": "β = ε, α without 5",
    "local_theorem1": "no smoothing (B₀), Theorem-1 scale",
    "log10_global": "log₁₀ in Theorem 1",
    "global_variance_as_std": "Theorem-1 variance as σ",
}


def _style(ax, xlabel: str, ylabel: str, title: str | None = None) -> None:
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(True, which="major", alpha=0.3)


def plot_tuning(curves: dict[str, pd.DataFrame], choices: dict[str, dict], names: dict[str, str],
                paper_r: dict[str, float]):
    """Eq. (53) accuracy against r per dataset, in the space the r was tuned in; ours and the paper's r."""
    n = len(curves)
    ncol = min(3, n)
    nrow = int(np.ceil(n / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.4 * ncol, 3.4 * nrow), squeeze=False)
    for ax, (ds, curve) in zip(axes.ravel(), curves.items()):
        ch = choices[ds]
        c = curve[curve["space"] == ch["space"]]
        ax.plot(c["r"], c["accuracy"], color="C0", lw=1.5, label="accuracy (eq. 53)")
        ax.axvline(ch["r"], color="C2", ls="-", lw=1.2, label=f"ours r = {ch['r']:.3g}")
        if ds in paper_r:
            ax.axvline(paper_r[ds], color="C3", ls="--", lw=1.2, label=f"paper r = {paper_r[ds]:g}")
        base = 1 - ch["n_outliers"] / ch["N"]
        ax.axhline(base, color="grey", ls=":", lw=1, label=f"flag nothing = {base:.3f}")
        ax.set_xscale("log")
        ax.set_ylim(-0.02, 1.02)
        _style(ax, "radius r (log scale)", "accuracy", f"{names.get(ds, ds)} — space: {ch['space']}")
        ax.legend(fontsize=7, loc="lower right")
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def plot_gs_bounds(df: pd.DataFrame):
    """Figure 1: lower min(N, 2dk+1) and upper min(N, k K_d + 1) bounds of GS_{q_count,d}(k) against d."""
    fig, ax = plt.subplots(figsize=(6.2, 4.2))
    ax.semilogy(df["d"], df["gs_upper"], "o-", color="C3", ms=4, label="upper bound  k·K_d + 1")
    ax.semilogy(df["d"], df["gs_lower"], "s-", color="C0", ms=4, label="lower bound  2dk + 1")
    ex = df.dropna(subset=["gs_exact"])
    ax.semilogy(ex["d"], ex["gs_exact"], "*", color="k", ms=11, label="exact (paper): 2k+1, 5k+1")
    k = int(df["k"].iloc[0])
    _style(ax, "dimension d", "bound on GS of q_count (log scale)",
           f"Figure 1 — bounds of the global sensitivity, k = {k}")
    ax.set_xticks(df["d"][:: max(1, len(df) // 12)])
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_kissing(points: pd.DataFrame, counts: pd.DataFrame):
    """Figure 2: the hexagon (paper) and pentagon configurations, and the count change against k."""
    configs = list(dict.fromkeys(points["configuration"]))
    fig, axes = plt.subplots(1, len(configs) + 1, figsize=(4.2 * (len(configs) + 1), 4.2))
    k = int(points["k"].iloc[0])
    r = float(points["r"].iloc[0])
    for ax, cfg in zip(axes, configs):
        p = points[points["configuration"] == cfg]
        cen = p[p["cluster"] >= 0].drop_duplicates("cluster")
        for _, c in cen.iterrows():
            ax.add_patch(plt.Circle((c["x"], c["y"]), r / 2, fill=False, color="grey", lw=0.8))
        ax.add_patch(plt.Circle((0, 0), r / 2, fill=False, color="k", lw=1.2))
        ax.add_patch(plt.Circle((0, 0), r, fill=False, color="k", lw=0.6, ls=":"))
        cl = p[p["cluster"] >= 0]
        col = np.where(cl["outlier_after"], "C3", "C0")
        ax.scatter(cl["x"], cl["y"], c=col, s=40, zorder=3)
        for _, c in cen.iterrows():
            ax.annotate(f"{k}×", (c["x"], c["y"]), textcoords="offset points", xytext=(6, 6), fontsize=8)
        ax.scatter([0], [0], marker="x", color="k", s=60, zorder=3)
        ax.annotate("x₀", (0, 0), textcoords="offset points", xytext=(6, -12), fontsize=9)
        row = counts[(counts["configuration"] == cfg) & (counts["k"] == k)].iloc[0]
        ax.set_aspect("equal")
        lim = 1.7 * r
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        _style(ax, "x₁", "x₂", f"{cfg}: {int(row['n_surrounding'])} spheres, k = {k}\n"
               f"moving x₀ away: {int(row['count_before'])} → {int(row['count_after'])} outliers")
    axes[0].scatter([], [], c="C3", s=30, label="outlier after x₀ moved")
    axes[0].scatter([], [], c="C0", s=30, label="inlier after x₀ moved")
    axes[0].legend(fontsize=7, loc="lower left")
    ax = axes[-1]
    for cfg, mk in zip(configs, ("o", "s")):
        c = counts[counts["configuration"] == cfg]
        ax.plot(c["k"], c["count_change"], mk + "-", label=f"computed: {cfg}")
    c = counts[counts["configuration"] == configs[0]]
    ax.plot(c["k"], c["paper_upper_kK2_plus_1"], "k--", lw=1, label="paper bound 6k + 1")
    ax.plot(c["k"], c["paper_exact_5k_plus_1"], "k:", lw=1.5, label="paper exact 5k + 1")
    _style(ax, "threshold k", "change of the outlier count", "Count change by moving one record")
    ax.set_xticks(c["k"])
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def true_count_label(counts: pd.Series) -> str:
    """The legend entry of the true outlier count: its value (the range where it varies), and how a count of 0 is
    drawn on the log axis - only when there is one."""
    values = sorted({int(c) for c in counts.dropna()})
    shown = f"= {values[0]:,}" if len(values) == 1 else f"{values[0]:,}–{values[-1]:,}" if values else "(none)"
    return f"true count {shown}" + (" (0 drawn at 0.5, the log axis has no 0)" if values and values[0] == 0 else "")


def plot_scenario1(df: pd.DataFrame, name: str, paper: dict, at: str = ""):
    """Figures 3/4: (left) as printed - true count, sigma_Global, sigma_Smooth; (middle) sigma_Smooth under
    every reading of the constants; (right) sigma_Global / sigma_Smooth with the paper's 10-30 band.
    ``at``: a reading other than ours (e.g. " at the paper's printed r = 0.35"), shown as a figure title.
    The paper's bands are drawn only for a dataset the paper reported on (a key of ``paper["r"]``): on your own
    data the paper claimed nothing."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.4))
    if "dataset" in df and len(df) and str(df["dataset"].iloc[0]) not in (paper.get("r") or {}):
        paper = {}
    if at:
        fig.suptitle(f"{name}{at}", fontsize=11)
    method = df["method"].iloc[0]
    pr = df[df["convention"] == "printed"]
    if pr.empty:
        pr = df[df["convention"] == df["convention"].iloc[0]]
    ax = axes[0]
    ax.semilogy(pr["eps"], pr["sigma_global"], "s-", color="C3", label="σ_Global (GS lower bound, paper; unproven)")
    if "sigma_global_upper" in pr:
        ax.semilogy(pr["eps"], pr["sigma_global_upper"], "^-", color="C1", label="σ_Global (GS upper bound, proven)")
    ax.semilogy(pr["eps"], pr["sigma_smooth"], "o-", color="C0", label=f"σ_Smooth ({method})")
    ax.semilogy(pr["eps"], np.maximum(pr["true_count"], 0.5), "k--", label=true_count_label(pr["true_count"]))
    _style(ax, "ε", "standard deviation / count (log scale)", f"{name}: constants as printed ({method})")
    ax.legend(fontsize=7)
    ax = axes[1]
    ax2 = axes[2]
    for i, (conv, g) in enumerate(df.groupby("convention", sort=False)):
        label = CONVENTION_LABELS.get(conv, conv)
        ls = "-" if conv == "printed" else "--"
        ax.semilogy(g["eps"], g["sigma_smooth"], ls, marker="o", ms=3, color=f"C{i}", label=label)
        ax2.semilogy(g["eps"], g["ratio"], ls, marker="o", ms=3, color=f"C{i}", label=label)
    smax, efrom = paper.get("sigma_smooth_max"), paper.get("sigma_smooth_eps_from")
    if smax is not None and efrom is not None:
        ax.fill_between([efrom, df["eps"].max()], 1e-3, smax, color="C2", alpha=0.12,
                        label=f"paper: σ_Smooth < {smax:g} for ε ≥ {efrom:g}")
    ax.set_ylim(bottom=max(1e-1, 0.5 * df["sigma_smooth"].min()))
    _style(ax, "ε", "σ_Smooth (log scale)", "σ_Smooth under each reading of the constants")
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.14))
    lo, hi = paper.get("sigma_ratio_range", [None, None])
    if lo is not None:
        ax2.axhspan(lo, hi, color="C2", alpha=0.12, label=f"paper: {lo:g}–{hi:g}×")
    ax2.axhline(1, color="grey", lw=0.8)
    _style(ax2, "ε", "σ_Global / σ_Smooth (log scale)", "ratio σ_Global / σ_Smooth")
    ax2.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.14))
    fig.tight_layout()
    skipped = sorted({str(w) for w in df["skipped"].dropna()} - {""}) if "skipped" in df else []
    if skipped:  # smooth bound infeasible at some eps (Algorithm 2 past max_work): say so on the figure
        note = "σ_Smooth not computed where " + "; ".join(skipped)  # in full: what to do ends each reason
        fig.text(0.5, -0.06, textwrap.fill(note, 150), ha="center", va="top", fontsize=8, color="tab:red")
    return fig


def plot_scenario2(sweep: pd.DataFrame, subspaces: pd.DataFrame, name: str, true_rule: dict, at: str = ""):
    """Figures 5-7: precision (left) and recall (right) against eps, one colour per h; exact expectation as
    lines, Monte-Carlo means (± 2 s.e.) as markers. ``at``: a reading other than ours (" at the paper's
    printed r = 0.02, printed exponent exp(ε u) (2ε-DP)"), added to the title."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharex=True)
    n_true = int(subspaces["is_true"].sum())
    n_trials = int(sweep["n_trials"].iloc[0])
    for i, (h, g) in enumerate(sweep.groupby("h")):
        for ax, col in zip(axes, ("precision", "recall")):
            if g[col].notna().any():
                ax.errorbar(g["eps"], g[col], yerr=2 * g[f"{col}_se"].fillna(0), fmt="o", ms=3.5, color=f"C{i}",
                            capsize=2, label=f"h = {h} ({n_trials} trials)")
            if g[f"{col}_exact"].notna().any():
                ax.plot(g["eps"], g[f"{col}_exact"], "-", color=f"C{i}", lw=1.2, label=f"h = {h} exact")
    truth = (f"true = ≥ {true_rule['min_outliers']} labelled outlier(s) flagged in S"
             if true_rule["rule"] == "labelled_outlier" else f"true = q_count(S) ≥ {true_rule['min_outliers']}")
    for ax, col in zip(axes, ("precision", "recall")):
        ax.set_ylim(-0.02, 1.02)
        _style(ax, "ε (total; ε/h per draw)" if "dp_epsilon" not in sweep else
               f"ε as printed (ε/h per draw); the guarantee is {sweep['dp_epsilon'].iloc[0] / sweep['eps'].iloc[0]:g}ε-DP",
               col,
               f"{name}: {col} — {n_true} of {len(subspaces)} subspaces true")
    if n_true == 0:
        why = ("no true subspace at the tuned r\n(eq. 53 picks an r that flags nothing):" if not at else
               f"no true subspace{at.split(',')[0]}\n(no labelled outlier is flagged in any subspace):")
        axes[1].text(0.5, 0.5, why + "\nrecall undefined, precision 0", transform=axes[1].transAxes,
                     ha="center", va="center", fontsize=11, color="C3")
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        axes[0].legend(fontsize=7, ncol=2, loc="best")
    fig.suptitle(truth if not at else f"{name}{at}; {truth}", fontsize=9, y=0.995)
    fig.tight_layout()
    return fig


# ------------------------- registered plot functions (catalogue `plot.function` names) -------------------------
# Each adapts the catalogue entry's input tables and params to one figure above; the generic plot rule
# (workflow/rules/report.smk, scripts/render.py) calls them through privanomaly.report.figures,
# which merges this module's FIGURES.


def _at(p) -> str:
    """The title suffix of the item's reading (values ``reading``; "" for ours) at its printed r."""
    return readings.at_text(readings.READINGS[p.get("reading", "ours")], p.get("paper_r"))


@FIGURES.register("paper_b.tuning")
def _tuning(t, p):
    choices = {ch["dataset"]: ch for ch in t["choices"]}
    curves = {ch["dataset"]: curve for ch, curve in zip(t["choices"], t["curves"])}
    return plot_tuning(curves, choices, p["names"], p["paper"].get("r", {}))


@FIGURES.register("paper_b.fig1")
def _fig1(t, p):
    return plot_gs_bounds(t["bounds"])


@FIGURES.register("paper_b.fig2")
def _fig2(t, p):
    return plot_kissing(t["points"], t["counts"])


@FIGURES.register("paper_b.scenario1")
def _scenario1(t, p):
    return plot_scenario1(t["table"], p["name"], p["paper"], _at(p))


@FIGURES.register("paper_b.scenario2")
def _scenario2(t, p):
    return plot_scenario2(t["sweep"], t["subspaces"], p["name"], p["true_subspace"], _at(p))
