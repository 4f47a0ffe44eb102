"""The figure of a run in which none of its datasets has data: it says so in words instead of failing."""

from __future__ import annotations

NO_DATA_NOTE = ("No dataset of this figure is available in this run (see data/unavailable.csv and the noted "
                "rows of the tables); nothing is plotted rather than invented.")


def no_data_figure(title: str, note: str = NO_DATA_NOTE):
    """A figure that says, in words, that no dataset of it has data in this run (instead of failing)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 2.2))
    ax.set_axis_off()
    ax.text(0.5, 0.62, title, ha="center", va="center", fontsize=11, weight="bold", transform=ax.transAxes)
    ax.text(0.5, 0.3, note, ha="center", va="center", fontsize=9, wrap=True, transform=ax.transAxes)
    return fig
