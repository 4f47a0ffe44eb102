"""A named registry: ``REG = Registry("plot function")``, ``@REG.register("paper_a.fig1")``, ``REG[name]``.

A module low in the library keeps its own registry of what it defines; the higher layer that uses them
(:mod:`privanomaly.report.figures`) imports those modules by name and merges their registries, so no module
imports a layer above it to register itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

T = TypeVar("T")


class Registry(Mapping[str, T]):
    """Objects by unique name (a Mapping); :meth:`register` is the decorator that adds one."""

    def __init__(self, what: str):
        self.what = what
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: register the decorated object as ``name`` (an error if another one has that name)."""

        def deco(obj: T) -> T:
            old = self._items.get(name)
            if old is not None and old is not obj:
                raise ValueError(f"{self.what} {name!r} is registered twice ({getattr(old, '__module__', old)}, "
                                 f"{getattr(obj, '__module__', obj)})")
            self._items[name] = obj
            return obj

        return deco

    def __getitem__(self, name: str) -> T:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
