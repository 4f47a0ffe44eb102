"""Figures of a sweep, drawn from its tidy table only (:mod:`.collect`). Each returns a matplotlib Figure.

* :func:`error_vs_eps` - exact error on the (β, r)-anomalies against ε, one panel per dataset x k, one
  colour per mechanism; thin lines = each (β, r) of the grid, thick = their median; dashed: 1/(1+e^ε) - all three
  kinds of line in the legend.
* :func:`gain` - SP's (registry ``sp``) gain over every other mechanism, error(other) - error(SP), on the (β, r) grid: rows =
  dataset x record group (anomalies; absent void points where the dataset has any), columns = the other
  mechanism; at the sweep's reference ε (the grid value closest to 1) and smallest k. Planned only for a sweep with
  ``sp`` and another mechanism (:func:`privanomaly.sweeps.index.figures`).
* :func:`sigma_ratio` - σ_Global / σ_Smooth over (k, r) per dataset and smooth bound, at the reference ε,
  for the convention as printed; σ_Global from the GS lower bound (the paper's figure) and, where the table
  has it, from the GS upper bound (the one with a proof).
* :func:`noise_vs_eps` - paper B's named count mechanisms: the noise s.d. each adds to q_count against ε.
* :func:`top_h` - exact expected precision and recall of top-h discovery against ε, per dataset and
  subspace dimension, one colour per h and one line style per (k, r) point, both in the legend.
"""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from privanomaly.sweeps.index import SP  # noqa: E402 - the base mechanism of `gain`
from privanomaly.sweeps.spec import num_token  # noqa: E402 - grid values in full: two values, two labels

FLOOR = 1e-30  # plotted in place of exact zeros on log axes
COLORS = {"sp": "tab:blue", "optimal_dp": "tab:red", "laplace_count": "tab:green", "laplace_noisy_threshold": "tab:orange",
          "compiler": "tab:purple"}

def _color(name: str, i: int) -> str:
    return COLORS.get(name, f"C{(i + 4) % 10}")

def reference_eps(values) -> float:
    """The grid ε closest to 1 (ties: the smaller): where the single-ε panels are drawn."""
    vals = sorted(set(float(v) for v in values))
    return min(vals, key=lambda e: (abs(np.log(e)), e))

def _panels(nrows: int, ncols: int, w: float = 3.6, h: float = 2.9):
    fig, axes = plt.subplots(max(nrows, 1), max(ncols, 1), figsize=(w * max(ncols, 1), h * max(nrows, 1)),
                             squeeze=False)
    return fig, axes

def _rlabel(kind: str, spec: float) -> str:
    return {"value": "r = {}", "fraction": "f = {}", "quantile": "q = {}"}[kind].format(num_token(spec))

def error_vs_eps(t: pd.DataFrame):
    datasets, ks = list(dict.fromkeys(t["dataset"])), sorted(t["k"].unique())
    mechs = list(dict.fromkeys(t["mechanism"]))
    fig, axes = _panels(len(datasets), len(ks))
    eps = np.array(sorted(t["eps"].unique()))
    for i, ds in enumerate(datasets):
        for j, k in enumerate(ks):
            ax = axes[i, j]
            sub = t[(t["dataset"] == ds) & (t["k"] == k)]
            for m_i, m in enumerate(mechs):
                s = sub[sub["mechanism"] == m]
                for _, g in s.groupby(["beta", "r_spec"]):
                    g = g.sort_values("eps")
                    ax.plot(g["eps"], np.maximum(g["error_anomaly"], FLOOR), color=_color(m, m_i), lw=0.6, alpha=0.35)
                med = s.groupby("eps")["error_anomaly"].median()
                ax.plot(med.index, np.maximum(med.to_numpy(), FLOOR), color=_color(m, m_i), lw=2, label=m)
            ax.plot(eps, 1 / (1 + np.exp(eps)), "k--", lw=0.8, label="1/(1+e^ε)")
            ax.set(xscale="log", yscale="log", title=f"{ds}, k = {k}", xlabel="ε")
            ax.set_xticks(eps, [num_token(e) for e in eps], fontsize=7)
            ax.minorticks_off()
            if j == 0:
                ax.set_ylabel("error on (β, r)-anomalies")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    thin = plt.Line2D([], [], color="0.4", lw=0.6, alpha=0.6)  # the thin lines, in every mechanism's colour
    _legend_below(fig, [*handles[:-1], thin, handles[-1]],
                  [*(f"{m}: median over (β, r)" for m in labels[:-1]), "thin: one (β, r) of the grid", labels[-1]],
                  ncol=min(len(ks), 3))
    return fig

def _legend_below(fig, handles: list, labels: list, ncol: int = 1) -> None:
    """One legend for the figure, under its panels (never over a curve), and the layout made to leave it room."""
    legend = fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=7, frameon=False)
    room = legend.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi + 0.1  # inches, with a margin
    fig.set_figheight(fig.get_figheight() + room)
    fig.tight_layout(rect=(0, room / fig.get_figheight(), 1, 1))

def text_colour(rgba) -> str:
    """Black or white, whichever reads better on the cell colour ``rgba`` (relative luminance, WCAG 2: white
    where the luminance is below 0.179, the point of equal contrast with both)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3]]
    return "white" if 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2] < 0.179 else "black"

def _annotate(ax, M: np.ndarray, im, fmt: str = "{:.2g}") -> None:
    """Each cell's value on the image ``im``, in the text colour its own cell colour calls for. A constant image
    gets the colour limits its colour bar shows (±10 %), so that its cells and their text agree."""
    if im.norm.vmin == im.norm.vmax:  # else the norm maps every cell to 0 while the image is drawn mid-scale
        half = 0.1 * abs(im.norm.vmin) or 0.1
        im.set_clim(im.norm.vmin - half, im.norm.vmin + half)
    for (a, b), v in np.ndenumerate(M):
        colour = text_colour(im.cmap(im.norm(v))) if np.isfinite(v) else "black"
        ax.text(b, a, "—" if not np.isfinite(v) else fmt.format(v), ha="center", va="center", fontsize=6,
                color=colour)


def gain(t: pd.DataFrame):
    eps_ref = reference_eps(t["eps"])
    k_ref = int(t["k"].min())
    sub = t[(t["eps"] == eps_ref) & (t["k"] == k_ref)]  # the grid's own float: distinct ε are never merged
    datasets = list(dict.fromkeys(sub["dataset"]))
    others = [m for m in dict.fromkeys(sub["mechanism"]) if m != SP]
    groups = [("error_anomaly", "anomalies"), ("error_absent_void", "absent void points")]
    # a dataset's void-point row only where it has void points: absent query points (n_absent > 0) with an empty
    # ball; without any, every cell of the row would be undefined
    with_void = set(sub.loc[sub["error_absent_void"].notna(), "dataset"])
    rows = [(ds, g) for ds in datasets for g in groups if g[0] != "error_absent_void" or ds in with_void]
    fig, axes = _panels(len(rows), len(others), w=3.4, h=2.6)
    r_kind = str(sub["r_kind"].iloc[0]) if len(sub) else "value"
    for i, (ds, (col, gname)) in enumerate(rows):
        d = sub[sub["dataset"] == ds]
        sp_ = d[d["mechanism"] == SP].set_index(["beta", "r_spec"])
        for j, m in enumerate(others):
            ax = axes[i, j]
            o = d[d["mechanism"] == m].set_index(["beta", "r_spec"])
            diff = (o[col] - sp_[col]).unstack("r_spec") if len(sp_) else pd.DataFrame()
            if diff.empty:
                ax.set_visible(False)
                continue
            M = diff.to_numpy(dtype=float)
            vmax = max(float(np.nanmax(np.abs(M))) if np.isfinite(M).any() else 0.0, 1e-12)
            im = ax.imshow(M, cmap="RdBu", vmin=-vmax, vmax=vmax, aspect="auto", origin="lower")
            _annotate(ax, M, im)
            ax.set_xticks(range(diff.shape[1]), [_rlabel(r_kind, c) for c in diff.columns], fontsize=6, rotation=30)
            ax.set_yticks(range(diff.shape[0]), [f"β = {b}" for b in diff.index], fontsize=7)
            ax.set_title(f"{ds}, {gname}:\n{m} − sp", fontsize=8)
            fig.colorbar(im, ax=ax, shrink=0.8)
    fig.suptitle(f"SP's gain (error of the other mechanism − error of SP) at ε = {num_token(eps_ref)}, k = {k_ref}; "
                 "blue = SP errs less", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def sigma_ratio(t: pd.DataFrame):
    every = t[t["part"] == "sigma"]
    skipped = every["skipped"].fillna("") if "skipped" in every.columns else pd.Series("", index=every.index)
    s = every[skipped == ""]
    # one reading of Theorems 1-2: as printed (the one with a DP guarantee), else the table's first; the ratios
    # of two readings are different quantities (never averaged into one cell)
    conv = "printed" if (s["convention"] == "printed").any() else (str(s["convention"].iloc[0]) if len(s) else "")
    s = s[s["convention"] == conv]
    eps_ref = reference_eps(s["eps"]) if len(s) else 1.0
    s = s[s["eps"] == eps_ref]
    # every dataset and bound of the table keeps its panel: one without a cell here says why (its `skipped`)
    datasets, methods = list(dict.fromkeys(every["dataset"])), list(dict.fromkeys(every["method"]))
    deltas = sorted(every["delta"].dropna().unique(), reverse=True) if "delta" in every else []
    ratios = [("ratio", "GS lower bound (paper's figure)")]
    if "ratio_upper" in s.columns and s["ratio_upper"].notna().any():
        ratios.append(("ratio_upper", "GS upper bound (proven)"))
    # a row of panels per smooth bound and GS bound, a column per dataset and δ (a panel names its δ only when the
    # table has several)
    rows = [(m, rc) for m in methods for rc in ratios]
    cols = [(ds, dl) for ds in datasets for dl in (deltas if len(deltas) > 1 else [None])]
    fig, axes = _panels(len(rows), len(cols), w=3.8, h=3.0)
    if s.empty:
        axes[0, 0].text(0.5, 0.5, "no σ cell in this sweep (see the table's `skipped`)", ha="center")
        return fig
    r_kind = str(s["r_kind"].iloc[0])
    for i, (m, (col, what)) in enumerate(rows):
        for j, (ds, dl) in enumerate(cols):
            at = "" if dl is None else f", δ = {num_token(dl)}"
            ax = axes[i, j]
            cell = s[(s["method"] == m) & (s["dataset"] == ds) & ((s["delta"] == dl) if dl is not None else True)]
            d = cell.pivot_table(index="k", columns="r_spec", values=col)
            if d.empty:
                why = skipped[(every["method"] == m) & (every["dataset"] == ds) & (skipped != "")]
                reason = str(why.iloc[0]).removeprefix(f"{m}: ") if len(why) else "no row"
                ax.text(0.5, 0.5, f"{ds}, {m} bound{at}: no cell at ε = {num_token(eps_ref)}\n(skipped: {reason[:120]})",
                        ha="center", va="center", fontsize=6, wrap=True, transform=ax.transAxes)
                ax.set_axis_off()
                continue
            im = ax.imshow(d.to_numpy(dtype=float), cmap="viridis", aspect="auto", origin="lower")
            _annotate(ax, d.to_numpy(dtype=float), im, "{:.3g}")
            ax.set_xticks(range(d.shape[1]), [_rlabel(r_kind, c) for c in d.columns], fontsize=6, rotation=30)
            ax.set_yticks(range(d.shape[0]), [f"k = {k}" for k in d.index], fontsize=7)
            ax.set_title(f"{ds}, {m} bound{at}\nσ_Global from the {what}", fontsize=7)
            fig.colorbar(im, ax=ax, shrink=0.8)
    one = f", δ = {num_token(deltas[0])}" if len(deltas) == 1 else ""
    title = f"σ_Global / σ_Smooth at ε = {num_token(eps_ref)}{one} (convention {conv})"
    fig.suptitle(textwrap.fill(title, int(12 * fig.get_figwidth())), fontsize=9)  # one panel wide: two lines
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig


#: (line style, marker) of the grid points of a panel: the (k, r) of top-h, the r of noise_vs_eps (15 distinct
#: before they repeat)
POINT_STYLES = [(ls, mk) for mk in ("o", "s", "^") for ls in ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)))]


def noise_vs_eps(t: pd.DataFrame):
    """Paper B's named count mechanisms: the standard deviation of the noise each adds to q_count against ε,
    one panel per dataset x k x δ, one colour per mechanism, one line per r (log-log)."""
    s = t[(t["part"] == "mechanism") & (t["skipped"].fillna("") == "")]
    datasets, ks = list(dict.fromkeys(s["dataset"])), sorted(int(k) for k in s["k"].unique())
    deltas = sorted(s["delta"].unique(), reverse=True)
    cols = [(k, dl) for k in ks for dl in deltas]
    fig, axes = _panels(len(datasets) or 1, len(cols) or 1)
    if s.empty:
        axes[0, 0].text(0.5, 0.5, "no mechanism cell in this sweep (see the table's `skipped`)", ha="center")
        return fig
    mechs = list(dict.fromkeys(s["mechanism"]))
    r_kind = str(s["r_kind"].iloc[0])
    rs = sorted(float(r) for r in s["r_spec"].unique())
    eps = np.array(sorted(s["eps"].unique()))
    for i, ds in enumerate(datasets):
        for j, (k, dl) in enumerate(cols):
            ax = axes[i, j]
            for m_i, m in enumerate(mechs):
                for r_i, r in enumerate(rs):
                    g = s[(s["dataset"] == ds) & (s["k"] == k) & (s["delta"] == dl) & (s["mechanism"] == m)
                          & (s["r_spec"] == r)].sort_values("eps")
                    if g.empty:
                        continue
                    gid = f"{m}|{k}|{num_token(r)}" + (f"|{num_token(dl)}" if len(deltas) > 1 else "")
                    ax.plot(g["eps"], g["noise_sd"], color=_color(m, m_i), ls=POINT_STYLES[r_i % len(POINT_STYLES)][0],
                            marker="o", ms=3, lw=1, gid=gid, label=m if r_i == 0 else None)
            ax.set(xscale="log", yscale="log", title=f"{ds}, k = {k}, δ = {num_token(dl)}", xlabel="ε")
            ax.set_xticks(eps, [num_token(e) for e in eps], fontsize=7)
            ax.minorticks_off()
            if j == 0:
                ax.set_ylabel("noise s.d. added to q_count")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    handles += [plt.Line2D([], [], color="0.3", ls=POINT_STYLES[r_i % len(POINT_STYLES)][0], lw=1,
                           label=_rlabel(r_kind, r)) for r_i, r in enumerate(rs)]
    axes[0, 0].legend(handles=handles, fontsize=6)
    fig.tight_layout()
    return fig


def top_h(t: pd.DataFrame):
    s = t[(t["part"] == "top_h") & (t["skipped"].fillna("") == "")]
    datasets = list(dict.fromkeys(s["dataset"]))
    dims = sorted(s["subspace_dim"].dropna().unique()) if len(s) else []
    fig, axes = _panels(len(datasets) or 1, 2 * max(len(dims), 1))
    if s.empty:
        axes[0, 0].text(0.5, 0.5, "no top-h cell in this sweep (see the table's `skipped`)", ha="center")
        return fig
    hs = sorted(int(h) for h in s["h"].unique())  # h is an integer; the tidy table holds it as a float
    r_kind = str(s["r_kind"].iloc[0])
    points = list(dict.fromkeys(zip(s["k"].astype(int), s["r_spec"].astype(float))))
    style = {p: POINT_STYLES[i % len(POINT_STYLES)] for i, p in enumerate(points)}
    for i, ds in enumerate(datasets):
        for j, dim in enumerate(dims):
            for c, what in enumerate(("precision", "recall")):
                ax = axes[i, 2 * j + c]
                for h_i, h in enumerate(hs):
                    d = s[(s["dataset"] == ds) & (s["subspace_dim"] == dim) & (s["h"] == h)]
                    for (k, r), g in d.groupby(["k", "r_spec"]):
                        g = g.sort_values("eps")
                        ls, mk = style[(int(k), float(r))]
                        ax.plot(g["eps"], g[what], color=f"C{h_i}", ls=ls, marker=mk, ms=3, lw=1, alpha=0.8,
                                gid=f"{h}|{int(k)}|{num_token(r)}")
                ax.set(title=f"{ds}, {int(dim)}-D subspaces", xlabel="ε", ylabel=f"E[{what}]", ylim=(-0.02, 1.02))
    # the legend: a colour per h, a line style per (k, r) point of the grid
    handles = [plt.Line2D([], [], color=f"C{h_i}", lw=2, label=f"h = {h}") for h_i, h in enumerate(hs)]
    handles += [plt.Line2D([], [], color="0.3", ls=style[p][0], marker=style[p][1], ms=3, lw=1,
                           label=f"k = {p[0]}, {_rlabel(r_kind, p[1])}") for p in points]
    axes[0, 0].legend(handles=handles, fontsize=6)
    fig.tight_layout()
    return fig

FIGURES = {"error_vs_eps": error_vs_eps, "gain": gain, "sigma_ratio": sigma_ratio, "noise_vs_eps": noise_vs_eps,
           "top_h": top_h}

#: the columns of the tidy table (:mod:`.collect`) each figure reads by name, checked by :func:`read_sweep`
COLUMNS = {
    "error_vs_eps": ("dataset", "k", "mechanism", "eps", "beta", "r_spec", "error_anomaly"),
    "gain": ("dataset", "k", "mechanism", "eps", "beta", "r_kind", "r_spec", "error_anomaly", "error_absent_void"),
    # a paper-B table has its cells' columns (ratio; subspace_dim, h, precision, recall) only when some cell of
    # that part was computed: the figure draws "no cell" then, so only the columns of every row are required
    "sigma_ratio": ("dataset", "k", "part", "method", "convention", "eps", "r_kind", "r_spec", "skipped"),
    "top_h": ("dataset", "k", "part", "eps", "r_kind", "r_spec", "skipped"),
    "noise_vs_eps": ("dataset", "k", "part", "eps", "r_kind", "r_spec", "skipped", "delta"),
}


def read_sweep(path, figure: str) -> pd.DataFrame:
    """The tidy table of a sweep at ``path`` for ``figure``: one that lacks a column the figure reads
    (:data:`COLUMNS`; a figure not listed there is checked for none) is an error naming the file, the columns
    and the rule that rebuilds it."""
    from privanomaly.experiment.inputs import read_table

    return read_table(path, COLUMNS.get(figure, ()), f"a sweep's tidy table (Parquet) for its figure {figure}",
                      "sweep_collect", reader=pd.read_parquet)
