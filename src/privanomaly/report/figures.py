"""The registry of plot and table functions behind the generic rule (:func:`privanomaly.steps.item_step`).

A plot function takes the item's input tables ``{name: DataFrame}`` (as named in the ``plot.inputs`` of its
catalogue entry) and its params ``{name: value}`` and returns a matplotlib Figure; it reads tidy tables only.
It is registered under a dotted name with :func:`register`, in one of :data:`PLOT_MODULES`::

    @figures.register("paper_a.fig3")
    def _fig3(tables, params):
        return fig3(tables["records"], params["k_values"])

:func:`render` is what ``scripts/plot.py`` runs: read the tables, call the function, stamp the stand-in
note when the catalogue asks for it, save PNG + PDF atomically (:func:`privanomaly.io.save_figure`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

PlotFunction = Callable[[Mapping[str, pd.DataFrame], Mapping[str, Any]], Any]

# modules whose import registers plot functions (imported on first lookup, so this module imports no paper)
PLOT_MODULES = ("privanomaly.paper_a.plots", "privanomaly.paper_b.plots", "privanomaly.paper_a.tables",
                "privanomaly.paper_b.tables", "privanomaly.privacy.plots")

_REGISTRY: dict[str, PlotFunction] = {}


def register(name: str) -> Callable[[PlotFunction], PlotFunction]:
    """Decorator: register ``fn`` as plot function ``name`` (unique)."""

    def deco(fn: PlotFunction) -> PlotFunction:
        if name in _REGISTRY and _REGISTRY[name] is not fn:
            raise ValueError(f"plot function {name!r} is registered twice ({_REGISTRY[name].__module__}, "
                             f"{fn.__module__})")
        _REGISTRY[name] = fn
        return fn

    return deco


def names() -> list[str]:
    """Every registered plot function name."""
    for module in PLOT_MODULES:
        importlib.import_module(module)
    return sorted(_REGISTRY)


def get(name: str) -> PlotFunction:
    """The plot function registered as ``name``; an error listing the registered names otherwise."""
    known = names()
    if name not in _REGISTRY:
        raise KeyError(f"plot function {name!r} is not registered (registered: {known}); register it with "
                       "privanomaly.report.figures.register in one of PLOT_MODULES")
    return _REGISTRY[name]


def read_tables(inputs: Mapping[str, str | Sequence[str]]) -> dict[str, Any]:
    """One table per input, by suffix: a CSV is a DataFrame, a JSON its parsed object. A list of per-dataset
    files: JSONs give the list of objects; CSVs that all carry a ``dataset`` column (tidy per-dataset tables)
    are concatenated into one, other CSVs give the list of DataFrames (dataset order kept)."""
    import json

    from privanomaly.experiment import concat  # the per-dataset table concatenation of the project

    def read(path: str) -> Any:
        if str(path).endswith(".json"):
            with open(path, encoding="utf-8") as fh:
                return json.load(fh)
        return pd.read_csv(path)

    def read_list(paths: Sequence[str]) -> Any:
        if any(str(p).endswith(".json") for p in paths):
            return [read(p) for p in paths]
        if all("dataset" in pd.read_csv(p, nrows=0) for p in paths):
            return concat(list(paths))
        return [pd.read_csv(p) for p in paths]

    return {key: read(value) if isinstance(value, str) else read_list(value) for key, value in inputs.items()}


def shown_datasets(tables: Mapping[str, pd.DataFrame]) -> list[str]:
    """The datasets a figure shows: the ``dataset`` column of its first input table, in order of appearance."""
    first = next(iter(tables.values()), pd.DataFrame())
    return list(first["dataset"].unique()) if "dataset" in first else []


def render(name: str, inputs: Mapping[str, str | Sequence[str]], params: Mapping[str, Any],
           stand_in: Mapping[str, str] | None, outputs: Sequence[str]) -> None:
    """Build figure ``name`` from ``inputs`` and save it to every path of ``outputs`` (PNG/PDF by suffix).

    ``stand_in`` ({dataset: note}, scale runs only) is stamped on the figure for the datasets it shows;
    None = the catalogue entry does not ask for it.
    """
    from privanomaly import io
    from privanomaly.datasets import standins

    tables = read_tables(inputs)
    fig = get(name)(tables, params)
    if stand_in is not None:
        standins.stamp_figure(fig, stand_in, shown_datasets(tables))
    io.save_figure(fig, *outputs)


def render_table(name: str, inputs: Mapping[str, str | Sequence[str]], params: Mapping[str, Any],
                 stand_in: Mapping[str, str] | None, outputs: Sequence[str]) -> None:
    """Build table ``name`` (a function of the input *paths* and params returning a DataFrame; it reads
    them with the project's checking readers) and write it to every path of ``outputs`` (CSV/MD by suffix).
    ``stand_in`` ({dataset: note}) adds the stand-in note of each row's dataset; None = not asked for."""
    from privanomaly import io
    from privanomaly.datasets import standins

    df = get(name)(inputs, params)
    if stand_in is not None:
        df = standins.annotate(df, stand_in)
    for path in outputs:
        io.write_table(df, path)
