"""Plotting for paper A. Every function reads tidy tables only and returns a matplotlib Figure; the ones
registered at the end are the plot functions the catalogue names (``privanomaly.report.figures``)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from privanomaly.experiment.no_data import no_data_figure  # noqa: E402
from privanomaly.registry import Registry  # noqa: E402

FIGURES: Registry = Registry("paper A plot function")
"""The plot functions of this module by catalogue name (merged by :mod:`privanomaly.report.figures`)."""

MECH_COLORS = {"SP": "tab:blue", "DP": "tab:red"}
FLOOR = 1e-30  # plotted in place of exact zeros (and anything smaller) on log axes


def _grid(n: int, ncols: int = 3, size: tuple[float, float] = (4.2, 3.4)):
    ncols = min(ncols, max(n, 1))
    nrows = math.ceil(max(n, 1) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(size[0] * ncols, size[1] * nrows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes.ravel()


def fig1(frontier: pd.DataFrame, minerr: pd.DataFrame):
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.2))
    cmap = plt.get_cmap("viridis")
    eps_vals = sorted(frontier["eps"].unique())
    for j, eps in enumerate(eps_vals):
        s = frontier[frontier["eps"] == eps]
        col = cmap(j / max(len(eps_vals) - 1, 1))
        a.plot(s["error_y"], s["min_error_x"], color=col, label=f"ε = {eps:g}")
        a.fill_between(s["error_y"], s["min_error_x"], 1, color=col, alpha=0.06)
        m = 1 / (1 + np.exp(eps))
        a.plot([m], [m], "o", color=col, ms=4)
    a.plot([0, 1], [0, 1], ":", color="grey", lw=0.8)
    a.set(xlim=(0, 1), ylim=(0, 1), xlabel="error on y  P(M(y) ≠ g(i,y))", ylabel="error on x  P(M(x) ≠ g(i,x))",
          title="(a) feasible errors for neighbours x ~ y\nwith different answers (above each curve)")
    a.legend(fontsize=8, title="ε-DP", title_fontsize=8)
    b.plot(minerr["eps"], minerr["min_worst_error"], color="k")
    b.axhline(0.5, ls="--", color="grey", lw=0.8)
    b.text(minerr["eps"].max(), 0.51, "coin flip 1/2", ha="right", va="bottom", fontsize=8, color="grey")
    b.set(xlabel="privacy parameter ε", ylabel="minimum worst-case error  1/(1+e^ε)", ylim=(0, 0.55),
          title="(b) minimum error an ε-DP mechanism\nmust commit on x or y")
    fig.tight_layout()
    return fig


def _scatter(ax, df, col, title, cmap="viridis", vmin=None, vmax=None, cbar_label=""):
    sc = ax.scatter(df["x0"], df["x1"], c=df[col], s=6, cmap=cmap, vmin=vmin, vmax=vmax, linewidths=0)
    ax.set(title=title, xlabel="coordinate x0", ylabel="coordinate x1")
    cb = ax.figure.colorbar(sc, ax=ax, fraction=0.046, pad=0.03)
    cb.set_label(cbar_label)
    return sc


def _privacy(ax, df, col, eps, title):
    prot = df[col].notna()
    ax.scatter(df.loc[prot, "x0"], df.loc[prot, "x1"], s=6, color="tab:green", linewidths=0)
    ax.scatter(df.loc[~prot, "x0"], df.loc[~prot, "x1"], s=14, color="tab:orange", marker="x", linewidths=0.8)
    ax.set(title=title, xlabel="coordinate x0", ylabel="coordinate x1")
    ax.legend(handles=[Line2D([], [], ls="", marker="o", color="tab:green", label=f"protected: e^-ε = {np.exp(-eps):.3f} "
                              f"({prot.sum()})"),
                       Line2D([], [], ls="", marker="x", color="tab:orange", label=f"not k-sensitive: none ({(~prot).sum()})")],
              fontsize=7, loc="upper left", framealpha=0.85)


def fig2(rec: pd.DataFrame, dens: pd.DataFrame):
    eps = float(rec["eps"].iloc[0])
    k = int(rec["k_main"].iloc[0])
    fig, axes = plt.subplots(2, 3, figsize=(15, 9))
    ax = axes[0, 0]
    n = int(np.sqrt(len(dens)))
    cs = ax.contourf(dens["x0"].to_numpy().reshape(n, n), dens["x1"].to_numpy().reshape(n, n),
                     dens["density"].to_numpy().reshape(n, n), levels=20, cmap="Greys")
    fig.colorbar(cs, ax=ax, fraction=0.046, pad=0.03).set_label("kernel density estimate")
    an = rec[rec["anomaly"]]
    ax.scatter(an["x0"], an["x1"], s=8, color="tab:orange", marker="x", linewidths=0.7, label="(β,r)-anomaly")
    ax.legend(fontsize=8, loc="upper left")
    ax.set(title="(a) density of the data", xlabel="coordinate x0", ylabel="coordinate x1")
    lo = float(min(rec["accuracy_sp"].min(), rec["accuracy_dp"].min()))
    _scatter(axes[0, 1], rec, "accuracy_sp", f"(b) accuracy of SP AIQ (k={k})", vmin=lo, vmax=1, cbar_label="P(correct answer)")
    _scatter(axes[0, 2], rec, "accuracy_dp", "(c) accuracy of optimal DP AIQ", vmin=lo, vmax=1, cbar_label="P(correct answer)")
    _privacy(axes[1, 0], rec, f"privacy_sp_k{k}", eps, f"(d) privacy level, SP (k={k})")
    dp = rec.assign(privacy_all=np.exp(-eps))
    _privacy(axes[1, 1], dp, "privacy_all", eps, "(e) privacy level, DP")
    ax = axes[1, 2]
    an = rec[rec["anomaly"]].sort_values(["accuracy_sp", "accuracy_dp"]).reset_index(drop=True)
    ax.plot(an.index + 1, an["accuracy_dp"], "s", ms=4, color=MECH_COLORS["DP"], label="optimal DP")
    ax.plot(an.index + 1, an["accuracy_sp"], "o", ms=4, color=MECH_COLORS["SP"], label=f"SP (k={k})")
    ax.axhline(0.5, ls="--", color="grey", lw=0.8, label="coin flip")
    ax.set(ylim=(0.4, 1.02), xlabel="(β,r)-anomalies ranked by SP accuracy", ylabel="P(correct answer)",
           title=f"(f) accuracy on the {len(an)} (β,r)-anomalies")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"2-D Gaussian mixture, ε = {eps:g}, β = {int(rec['beta'].iloc[0])}, r = {rec['r'].iloc[0]:.3g}: "
                 "per-record accuracy and privacy of SP vs DP", fontsize=11)
    fig.tight_layout()
    return fig


def fig3(rec: pd.DataFrame, k_values: list[int]):
    eps = float(rec["eps"].iloc[0])
    fig, axes = plt.subplots(1, len(k_values), figsize=(4.6 * len(k_values), 4.2), squeeze=False)
    for ax, k, letter in zip(axes[0], k_values, "abcdefgh"):
        _privacy(ax, rec, f"privacy_sp_k{k}", eps, f"({letter}) k = {k}")
    fig.suptitle(f"Privacy level per record for the {eps:g}-SP AIQ: larger k protects more records", fontsize=11)
    fig.tight_layout()
    return fig


def fig4(nodes: pd.DataFrame, edges: pd.DataFrame, title: str):
    fig, ax = plt.subplots(figsize=(8.5, 6.5))
    pos = {r.node: (r.x, r.y) for r in nodes.itertuples()}
    # texts and annotations do not extend the data limits: set them from the node positions
    ax.set_xlim(nodes["x"].min() - 0.45, nodes["x"].max() + 0.45)
    ax.set_ylim(nodes["y"].min() - 0.25, nodes["y"].max() + 0.25)
    cmap = plt.get_cmap("tab10")
    recs = sorted(edges["record_added"].unique())
    for e in edges.itertuples():
        (x0, y0), (x1, y1) = pos[e.source], pos[e.target]
        if e.in_gs:
            ax.annotate("", xy=(x1, y1), xytext=(x0, y0), annotation_clip=False,
                        arrowprops=dict(arrowstyle="-|>", color=cmap(e.record_added - 1), lw=2, shrinkA=22, shrinkB=22))
        else:
            ax.plot([x0, x1], [y0, y1], ls=":", color="grey", lw=1.3, zorder=0)
    for r in nodes.itertuples():
        ax.text(r.x, r.y, r.node.replace(" ", ""), ha="center", va="center", fontsize=8,
                bbox=dict(boxstyle="round,pad=0.3", fc="lightyellow" if r.hops == 0 else "white", ec="grey"))
    handles = [Line2D([], [], color=cmap(i - 1), lw=2, marker=">", label=f"record {i} added") for i in recs]
    handles.append(Line2D([], [], color="grey", ls=":", label="edge of G not in G_S"))
    ax.legend(handles=handles, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.set_title(title, fontsize=10)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    return fig


def compiler(comp: pd.DataFrame, dataset: str):
    eps = float(comp["eps"].iloc[0])
    k = int(comp["k"].iloc[0])
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    a.plot(comp["rank"], comp["input_error"], color="tab:red", label="input ε/2-DP mechanism (constant error)")
    a.plot(comp["rank"], np.maximum(comp["compiled_error"], FLOOR), color="tab:blue", label="compiled SP mechanism")
    a.set(yscale="log", xlabel="records ranked by compiled error", ylabel="error probability",
          title=f"(a) {dataset}: every record (ε={eps:g}, k={k})")
    a.legend(fontsize=8)
    agg = comp.groupby("delta").agg(n=("record", "size"), compiled=("compiled_error", "first"),
                                     inp=("input_error", "first")).reset_index()
    b.semilogy(agg["delta"], agg["inp"], "s-", color="tab:red", label="input (constant)")
    b.semilogy(agg["delta"], agg["compiled"], "o-", color="tab:blue", label="compiled: input·e^(−εδ/4)")
    b.set(xlabel="δ = L − Δ_G (0 on k-sensitive records)", ylabel="error probability",
          title="(b) error against δ: exponential gain")
    b.legend(fontsize=8)
    fig.tight_layout()
    return fig


def selection(surfaces: pd.DataFrame, chosen: pd.DataFrame):
    names = list(dict.fromkeys(surfaces["dataset"]))
    fig, axes = _grid(len(names), ncols=3, size=(4.6, 3.8))
    for ax, name in zip(axes, names):
        s = surfaces[surfaces["dataset"] == name]
        piv = s.pivot_table(index="beta", columns="fraction", values="f1")
        im = ax.imshow(piv.to_numpy(), origin="lower", aspect="auto", cmap="magma", vmin=0)
        ax.set_xticks(range(piv.shape[1]), [f"{f:g}" for f in piv.columns], rotation=60, fontsize=7)
        ax.set_yticks(range(piv.shape[0]), [str(b) for b in piv.index], fontsize=7)
        c = chosen[chosen["dataset"] == name].iloc[0]
        ax.plot(list(piv.columns).index(c["fraction"]), list(piv.index).index(c["beta"]), "c*", ms=12,
                label=f"chosen β={int(c['beta'])}, r={c['r']:.3g}")
        ax.legend(fontsize=7, loc="lower right")
        ax.set(title=name, xlabel="flagged fraction f (r = quantile of d_β)", ylabel="β")
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.03).set_label("F1 vs labels")
    fig.tight_layout()
    return fig


def _sampled(ax, tt: pd.DataFrame, col, marker: str) -> None:
    """Sampled error rates with Wilson CIs; cells without a single sampled mistake (rate 0, which a log axis
    cannot show) are drawn as a downward triangle at the upper end of their interval."""
    tt = tt.sort_values("eps")
    pos = tt[tt["sampled_error"] > 0]
    zero = tt[tt["sampled_error"] <= 0]
    if len(pos):
        y = pos["sampled_error"].to_numpy()
        ax.errorbar(pos["eps"], y, yerr=[y - np.maximum(pos["ci_low"].to_numpy(), FLOOR), pos["ci_high"].to_numpy() - y],
                    fmt=marker, ms=3.5, color=col, capsize=2, zorder=3)
    if len(zero):
        ax.plot(zero["eps"], zero["ci_high"], "v", ms=5, color=col, zorder=3)


OTHER_COLORS = ("tab:green", "tab:orange", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan")


def error_vs_eps(summaries: pd.DataFrame, trials: pd.DataFrame, k_values: list[int], ci_level: float = 0.95):
    """Exact SP (per k) and DP error on anomalies against ε, with the sampled trials and their Wilson intervals at
    ``ci_level`` (config ``paper_a.ci_level``, the level the trials table was computed at). Every other mechanism
    of the tables (``paper_a.mechanisms.errors``) is drawn too, at the smallest k, in its own colour."""
    names = list(dict.fromkeys(summaries["dataset"]))
    others = [m for m in dict.fromkeys(summaries["mechanism"]) if m not in ("SP", "DP")]
    fig, axes = _grid(len(names), ncols=3, size=(4.6, 3.8))
    ks = sorted(k_values)
    blues = plt.get_cmap("Blues")
    for ax, name in zip(axes, names):
        s = summaries[(summaries["dataset"] == name) & (summaries["group"] == "anomaly")]
        t = trials[trials["dataset"] == name]
        for j, k in enumerate(ks):
            col = blues(0.45 + 0.55 * j / max(len(ks) - 1, 1))
            e = s[(s["mechanism"] == "SP") & (s["k"] == k)].sort_values("eps")
            ax.plot(e["eps"], np.maximum(e["mean_error"], FLOOR), "-", color=col, label=f"SP, k={k} (exact)")
            _sampled(ax, t[(t["mechanism"] == "SP") & (t["k"] == k)], col, "o")
        e = s[(s["mechanism"] == "DP") & (s["k"] == ks[0])].sort_values("eps")
        ax.plot(e["eps"], e["mean_error"], "--", color="tab:red", lw=2, zorder=1, label="optimal DP (exact)")
        _sampled(ax, t[(t["mechanism"] == "DP") & (t["k"] == ks[0])], "tab:red", "s")
        for i, mech in enumerate(others):
            col = OTHER_COLORS[i % len(OTHER_COLORS)]
            e = s[(s["mechanism"] == mech) & (s["k"] == ks[0])].sort_values("eps")
            label = f"{mech}, k={ks[0]} (exact)" if len(ks) > 1 else f"{mech} (exact)"
            ax.plot(e["eps"], np.maximum(e["mean_error"], FLOOR), "-.", color=col, lw=1.5, label=label)
            _sampled(ax, t[(t["mechanism"] == mech) & (t["k"] == ks[0])], col, "D")
        ax.axhline(0.5, ls="--", color="grey", lw=0.8)
        n = int(s["n_records"].iloc[0]) if len(s) else 0
        ax.set(yscale="log", xlabel="privacy parameter ε", ylabel="mean error on (β,r)-anomalies", title=f"{name} ({n} anomalies)")
        ax.set_ylim(bottom=max(ax.get_ylim()[0], 1e-20), top=1)
    h = [list(v) for v in axes[0].get_legend_handles_labels()]
    h[0] += [Line2D([], [], ls="", marker="o", color="grey"), Line2D([], [], ls="", marker="v", color="grey")]
    h[1] += [f"sampled trials, {ci_level:.0%} CI", f"no mistake sampled: {ci_level:.0%} upper bound"]
    fig.legend(*h, loc="lower center", ncol=min(len(h[0]), 6), fontsize=8, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def normal_and_ranked(summaries: pd.DataFrame, ranked: pd.DataFrame, k: int, eps: float):
    names = list(dict.fromkeys(summaries["dataset"]))
    fig, axes = plt.subplots(2, len(names), figsize=(4.3 * len(names), 7.4), squeeze=False)
    for j, name in enumerate(names):
        ax = axes[0, j]
        s = summaries[(summaries["dataset"] == name) & (summaries["group"] == "normal") & (summaries["k"] == k)]
        for mech, ls in (("DP", "-"), ("SP", "--")):
            e = s[s["mechanism"] == mech].sort_values("eps")
            ax.plot(e["eps"], np.maximum(e["mean_error"], FLOOR), ls, color=MECH_COLORS[mech], label=mech, lw=2 if mech == "DP" else 1.5)
        ax.set(yscale="log", xlabel="privacy parameter ε", ylabel="mean error on normal records (log)",
               title=f"(a) {name}: normal records")
        ax.legend(fontsize=8, title="mean over normals", title_fontsize=7)
        ax = axes[1, j]
        r = ranked[ranked["dataset"] == name]
        ax.plot(r["rank"], np.maximum(r["error_dp"], FLOOR), ".", ms=3, color=MECH_COLORS["DP"], label="DP")
        ax.plot(r["rank"], np.maximum(r["error_sp"], FLOOR), ".", ms=3, color=MECH_COLORS["SP"], label="SP")
        ax.axhline(0.5, ls="--", color="grey", lw=0.8, label="coin flip 1/2")
        ax.set(yscale="log", xlabel="anomalies ranked by SP error", ylabel="error probability (log)",
               title=f"(b) {name}: anomalies (ε={eps:g}, k={k})")
        ax.set_ylim(top=1)
        if j == 0:
            handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, [f"{lb} (per anomaly)" if lb in ("SP", "DP") else lb for lb in labels], loc="lower center",
               ncol=3, fontsize=9, bbox_to_anchor=(0.5, -0.01), markerscale=3)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def growth(g: pd.DataFrame):
    g = g[g["n_records"].notna()] if "n_records" in g else g.iloc[0:0]  # noted rows of unavailable datasets
    if g.empty:
        return no_data_figure("Error on anomalies as the data grow")
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for name, sub in g.groupby("dataset", sort=False):
        sub = sub.sort_values("n_records")
        line, = ax.plot(sub["n_records"], sub["mean_error_sp"], "o-", label=f"{name}: SP")
        ax.plot(sub["n_records"], sub["mean_error_dp"], "s--", color=line.get_color(), alpha=0.6, label=f"{name}: DP")
    ax.set(xscale="log", yscale="log", xlabel="number of records (nested subsamples)", ylabel="mean error on anomalies",
           title="Error on anomalies as the data grow")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig




# ------------------------- registered plot functions (catalogue `plot.function` names) -------------------------
# Each adapts the catalogue entry's input tables and params to one figure above; the generic plot rule
# (workflow/rules/report.smk, scripts/render.py) calls them through privanomaly.report.figures,
# which merges this module's FIGURES.


@FIGURES.register("paper_a.fig1")
def _fig1(t, p):
    return fig1(t["frontier"], t["minerr"])


@FIGURES.register("paper_a.fig2")
def _fig2(t, p):
    return fig2(t["records"], t["density"])


@FIGURES.register("paper_a.fig3")
def _fig3(t, p):
    return fig3(t["records"], p["k_values"])


@FIGURES.register("paper_a.fig4")
def _fig4(t, p):
    title = (f"{p['k']}-sensitive neighbourhood graph G_S around x = {tuple(p['center'])} "
             f"(X = {{1..{len(p['center'])}}}, ℓ1, β = {p['beta']}, r = {p['r']})\n"
             "x_i = number of records with value i; arrows point to the database with the record added")
    return fig4(t["nodes"], t["edges"], title)


@FIGURES.register("paper_a.compiler")
def _compiler(t, p):
    return compiler(t["compiler"], str(t["compiler"]["dataset"].iloc[0]))


@FIGURES.register("paper_a.selection")
def _selection(t, p):
    return selection(t["surfaces"], t["parameters"])


@FIGURES.register("paper_a.error_vs_eps")
def _error_vs_eps(t, p):
    return error_vs_eps(t["summaries"], t["trials"], p["k_grid"], float(p.get("ci_level", 0.95)))


@FIGURES.register("paper_a.normal_and_ranked")
def _normal_and_ranked(t, p):
    return normal_and_ranked(t["summaries"], t["ranked"], p["k_main"], p["eps_ref"])


@FIGURES.register("paper_a.growth")
def _growth(t, p):
    return growth(t["table"])
