"""Shared by every test module: figures made through pyplot are closed after each test (the library's plot
functions return their figures for the scripts to save; a test that draws many would otherwise keep them all);
tests marked ``mirror`` are skipped, saying how to point at the datasets, where no mirror is found; a test that
starts a process without its mark fails (tests/process_guard.py)."""

from __future__ import annotations

import sys

import pytest

from workflow_copy import MIRROR, MIRROR_HINT

pytest_plugins = ["process_guard", "pytester"]  # pytester: tests/test_process_guard.py


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if MIRROR.is_dir():
        return
    skip = pytest.mark.skip(reason=MIRROR_HINT)
    for item in items:
        if item.get_closest_marker("mirror"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt = sys.modules.get("matplotlib.pyplot")  # only where a test drew: no matplotlib import otherwise
    if plt is not None:
        plt.close("all")
