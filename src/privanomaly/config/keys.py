"""Reading the project's YAML files by key: a registry's list (``workflow/report/catalogue.yaml``) and a value
of the config at a dotted key (``paper_a.fig3.k_values``). Errors name the file or the key."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

WILDCARD = re.compile(r"\{(\w+)\}")


def yaml_list(path: str | Path, key: str) -> list:
    """The list under ``key`` of the YAML mapping in ``path``, read strictly
    (:func:`privanomaly.config.check.load_yaml`: a duplicate key is an error naming file and line)."""
    from privanomaly.config.check import load_yaml

    doc = load_yaml(path)
    if not isinstance(doc, dict) or not isinstance(doc.get(key), list):
        raise ValueError(f"{path}: expected a mapping with a list under '{key}'")
    return doc[key]


def config_value(config: Mapping, key: str, wildcards: Mapping[str, str] | None = None,
                 where: str = "") -> object:
    """``config`` at dotted ``key`` (``paper_a.fig3.k_values``), its ``{name}`` parts filled from ``wildcards``
    (``paper_b.datasets.{dataset}``); an absent key is an error naming the key and ``where`` it was asked."""
    if wildcards is not None:
        key = WILDCARD.sub(lambda m: wildcards[m.group(1)], key)
    value: object = config
    for i, part in enumerate(key.split(".")):
        if not isinstance(value, Mapping) or part not in value:
            asked = f" ({where})" if where else ""
            raise ValueError(f"config: no key {'.'.join(key.split('.')[: i + 1])!r}{asked}")
        value = value[part]
    return value
