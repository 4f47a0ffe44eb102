"""The plot and table functions behind the generic rule of catalogue items
(``workflow/rules/report.smk``), by catalogue name.

A plot function takes the item's input tables ``{name: DataFrame}`` (as named in the ``plot.inputs`` of its
catalogue entry) and its params ``{name: value}`` and returns a matplotlib Figure; it reads tidy tables only.
Each paper module registers its functions in its own :class:`privanomaly.registry.Registry` ``FIGURES``::

    @FIGURES.register("paper_a.fig3")
    def _fig3(tables, params):
        return fig3(tables["records"], params["k_values"])

and this module merges those registries (:func:`registries`: the paper modules imported here, by name, the
table modules first so that a table job does not import matplotlib); :func:`register` adds a function from a
layer above the papers. :func:`render` is what ``scripts/render.py`` runs for a plot: read the tables, call
the function, stamp the stand-in note when the catalogue asks for it, save PNG + PDF atomically
(:func:`privanomaly.io.save_figure`); :func:`render_table` the same for a table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from privanomaly.experiment.no_data import no_data_figure

from privanomaly.registry import Registry

PlotFunction = Callable[[Mapping[str, pd.DataFrame], Mapping[str, Any]], Any]

_EXTRA: Registry = Registry("plot function")


def registries() -> Iterator[Registry]:
    """The registries of plot and table functions, each paper module imported only when it is reached."""
    from privanomaly.paper_a import tables as paper_a_tables

    yield paper_a_tables.FIGURES
    from privanomaly.paper_b import tables as paper_b_tables

    yield paper_b_tables.FIGURES
    from privanomaly.paper_a import plots as paper_a_plots

    yield paper_a_plots.FIGURES
    from privanomaly.paper_b import plots as paper_b_plots

    yield paper_b_plots.FIGURES
    from privanomaly.price import plots as honest_tuning_plots

    yield honest_tuning_plots.FIGURES
    yield _EXTRA

def register(name: str) -> Callable[[PlotFunction], PlotFunction]:
    """Decorator: register ``fn`` as plot function ``name`` from outside the paper modules (unique)."""

    def deco(fn: PlotFunction) -> PlotFunction:
        for reg in registries():
            if reg is not _EXTRA and name in reg and reg[name] is not fn:
                raise ValueError(f"plot function {name!r} is registered twice ({reg[name].__module__}, "
                                 f"{fn.__module__})")
        return _EXTRA.register(name)(fn)

    return deco


def names() -> list[str]:
    """Every registered plot and table function name (an error if two modules register the same name)."""
    seen: dict[str, str] = {}
    for reg in registries():
        for name in reg:
            if name in seen:
                raise ValueError(f"plot function {name!r} is registered twice ({seen[name]}, {reg.what})")
            seen[name] = reg.what
    return sorted(seen)


def get(name: str) -> PlotFunction:
    """The function registered as ``name``; an error listing the registered names otherwise."""
    for reg in registries():
        if name in reg:
            return reg[name]
    raise KeyError(f"plot function {name!r} is not registered (registered: {names()}); register it with "
                   "@FIGURES.register in the paper's plots.py or tables.py (privanomaly.registry.Registry)")


def read_tables(inputs: Mapping[str, str | Sequence[str]]) -> dict[str, Any]:
    """One table per input, by suffix: a CSV is a DataFrame, a JSON its parsed object. A list of per-dataset
    files: JSONs give the list of objects; CSVs that all carry a ``dataset`` column (tidy per-dataset tables)
    are concatenated into one, other CSVs give the list of DataFrames (dataset order kept)."""
    from privanomaly.experiment import concat  # the per-dataset table concatenation of the project
    from privanomaly.experiment.inputs import read_csv, read_json, read_output

    def read(path: str) -> Any:
        if str(path).endswith(".json"):
            return read_json(path, "a JSON output of this workflow")
        return read_output(path, read_csv, "a table of this workflow")

    def read_list(paths: Sequence[str]) -> Any:
        if any(str(p).endswith(".json") for p in paths):
            return [read(p) for p in paths]
        header = lambda p: read_output(p, lambda q: pd.read_csv(q, nrows=0), "a table of this workflow")  # noqa: E731
        if all("dataset" in header(p) for p in paths):
            return concat(list(paths))
        return [read(p) for p in paths]

    return {key: read(value) if isinstance(value, str) else read_list(value) for key, value in inputs.items()}


def _frames_by_path(inputs: Mapping[str, str | Sequence[str]], tables: Mapping[str, Any]) -> dict[str, Any]:
    """{path: the table read from it} for :func:`read_tables`' result (a concatenated list: each of its paths)."""
    out: dict[str, Any] = {}
    for key, value in inputs.items():
        paths, table = ([value] if isinstance(value, str) else list(value)), tables.get(key)
        parts = table if isinstance(table, list) else [table] * len(paths)
        out.update(zip(map(str, paths), parts))
    return out


def shown_datasets(tables: Mapping[str, pd.DataFrame]) -> list[str]:
    """The datasets a figure shows: the ``dataset`` column of its first input table, in order of appearance."""
    first = next(iter(tables.values()), pd.DataFrame())
    return list(first["dataset"].unique()) if "dataset" in first else []


def is_empty(table: Any) -> bool:
    """True for an input with no rows: an empty DataFrame (no per-dataset file, or a header only) or list."""
    if isinstance(table, pd.DataFrame):
        return table.empty
    return isinstance(table, (list, tuple)) and len(table) == 0


def render(name: str, inputs: Mapping[str, str | Sequence[str]], params: Mapping[str, Any],
           stand_in: Mapping[str, str] | None, outputs: Sequence[str]) -> None:
    """Build figure ``name`` from ``inputs`` and save it to every path of ``outputs`` (PNG/PDF by suffix).

    ``stand_in`` ({dataset: note}, scale runs only) is stamped on the figure for the datasets it shows;
    None = the catalogue entry does not ask for it.
    """
    from privanomaly import io
    from privanomaly.datasets import standins

    tables = read_tables(inputs)
    if tables and all(is_empty(t) for t in tables.values()):  # every dataset of the figure unavailable
        fig = no_data_figure(f"{name}: no data in this run")
    else:
        try:
            fig = get(name)(tables, params)
        except (KeyError, AttributeError) as exc:  # a column the function reads, lost from an input table
            from privanomaly.experiment.inputs import column_error

            err = column_error(exc, _frames_by_path(inputs, tables), f"figure {name}")
            if err is None:
                raise
            raise err from None
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
