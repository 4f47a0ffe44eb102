"""Figures of the price of honest tuning (rule privacy_price's tables; :mod:`privanomaly.price.tuning`),
registered in :data:`FIGURES` (merged by :func:`privanomaly.report.figures.registries`)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from privanomaly.price.plan import TUNINGS  # noqa: E402 - not .tuning: the price's code (scipy) is not drawn
from privanomaly.registry import Registry  # noqa: E402

FIGURES: Registry = Registry("honest-tuning plot function")

STYLE = {("paper", ""): ("C3", "o", "paper's tuning (not private end to end)"),
         ("public_split", ""): ("C0", "s", "public split"),
         ("private_selection", "exponential"): ("C2", "^", "private selection (exp. mechanism)"),
         ("private_selection", "permute_and_flip"): ("C4", "v", "private selection (permute-and-flip)")}


def plot_price(df: pd.DataFrame, metrics: list[tuple[str, str]], ylabel: str, title: str):
    """One panel per dataset: each metric (column, line style) against total ε, one colour per tuning (and per
    selection method of the private_selection rows)."""
    names = list(dict.fromkeys(df["dataset"])) if len(df) else []
    n = max(1, len(names))
    ncol = min(3, n)
    nrow = int(np.ceil(n / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.4 * ncol, 3.4 * nrow), squeeze=False)
    for ax, ds in zip(axes.ravel(), names):
        sub = df[df["dataset"] == ds]
        method = sub["selection_method"].fillna("")
        for tuning, name in ((tu, n) for tu in TUNINGS for n in dict.fromkeys(method[sub["tuning"] == tu])):
            t = sub[(sub["tuning"] == tuning) & (method == name)].sort_values("eps")
            colour, marker, label = STYLE[(tuning, name)]
            for col, ls in metrics:
                ax.plot(t["eps"], t[col], ls=ls, color=colour, marker=marker, ms=4,
                        label=f"{label}" + (f" - {col}" if len(metrics) > 1 else ""))
        ax.set_xscale("log")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("total ε (selection + release)")
        ax.set_ylabel(ylabel)
        ax.set_title(ds, fontsize=9)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[len(names):]:
        ax.set_visible(False)
    if names:
        axes.ravel()[0].legend(fontsize=6, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


@FIGURES.register("privacy.price_a")
def _price_a(t, p):
    return plot_price(t["price"], [("precision_labels", "-"), ("recall_labels", "--")], "expected precision / recall",
                      "Paper A (SP): the price of honest (β, r) tuning")


@FIGURES.register("privacy.price_b")
def _price_b(t, p):
    return plot_price(t["price"], [("accuracy", "-")], "eq. (53) accuracy on the released records",
                      "Paper B: the price of honest r tuning")
