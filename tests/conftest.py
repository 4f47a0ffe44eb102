"""Shared by every test module: figures made through pyplot are closed after each test (the library's plot
functions return their figures for the scripts to save; a test that draws many would otherwise keep them all)."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt = sys.modules.get("matplotlib.pyplot")  # only where a test drew: no matplotlib import otherwise
    if plt is not None:
        plt.close("all")
