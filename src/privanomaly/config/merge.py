"""Adding is adding: datasets an overlay adds to the papers' lists without retyping them.

An overlay replaces a list (``--configfile`` merges mappings key by key, but a list is one value), so putting
one dataset into ``paper_a.datasets`` used to mean repeating the paper's five - and dropping one silently
was easy. The config check (:func:`privanomaly.config.check.check_config`) calls :func:`resolve` on the merged
configuration, in place:

- ``paper_a.extra_datasets: [mine]`` is appended to ``paper_a.datasets`` (order kept, no duplicates);
- ``paper_b.extra_datasets: {mine: My data}`` registers ``mine`` for paper B in one entry: its display name
  goes into ``paper_b.datasets`` and the name into ``paper_b.scenario1.datasets`` (Figures 3/4, the σ
  comparison);
- the sweep feeding paper A's claims (``paper_a.claims.sweep``) runs on the datasets of ``paper_a.datasets``
  it lists, no others: a run of your own datasets alone does not pull the paper's claim sweep (240 points),
  and a dataset you add is in no sweep unless you list it under the sweep's ``datasets``; it measures with
  ``paper_a.metric`` (a sweep metric that differs is an error), so its evidence is about the tables' anomalies;
- a sweep set to null (``sweeps: {paperBkR: null}``) is removed: an overlay drops a sweep of config.yaml so
  (:func:`drop_sweeps`, run before the schema check); ``sweeps: {}`` in an overlay removes every sweep of the files
  before it (it used to change nothing: the files merge key by key, and an empty mapping has no key) and keeps
  those the files after it define; a removed claim sweep (``paper_a.claims.sweep``) makes that key null (claims
  A3, A6, A8 from the tables). Each removal is a line of the run's log;
- a sweep defined in two overlays merges key by key (each key from the last file that sets it): the log says
  so, naming both files, and so does any error about that sweep (:func:`shared_sweeps`); defined there with two
  different ``kind``s it is two sweeps under one name, an error naming both files (:func:`kind_conflicts`);
- a null under a sweep or under its ``r`` is how an overlay drops that key of config.yaml's entry (``r:
  {fraction: null, value: [0.5]}`` changes the kind of r): the key is removed, so every reader of the
  configuration - the parser, the report's captions, the recorded configuration - sees it absent; a sweep's
  ``description`` written over several lines (a YAML block) is made the one line it is shown as.

:func:`resolve` is idempotent (a recorded configuration resolved again is unchanged) and returns one line
per change, for the run's log.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any


class ConfigListError(ValueError):
    """An ``extra_datasets`` entry names no dataset of ``datasets:``."""


def _append(values: list, extra: list) -> list:
    return list(dict.fromkeys([*values, *extra]))


def _check(names, known, key: str) -> None:
    for i, name in enumerate(names):
        if name not in known:
            raise ConfigListError(f"config key {key}[{i}]: unknown dataset {name!r}; add an entry "
                                  f"datasets.{name} (known: {', '.join(sorted(known))})")


def _drop_nulls(sweeps: MutableMapping[str, Any]) -> None:
    """Remove, in place, every null-valued key of each sweep entry and of its ``r`` mapping; put a
    ``description`` on one line (module doc)."""
    for entry in sweeps.values():
        if not isinstance(entry, MutableMapping):
            continue
        for key in [k for k, v in entry.items() if v is None]:
            del entry[key]
        if isinstance(entry.get("description"), str):
            entry["description"] = " ".join(entry["description"].split())
        r = entry.get("r")
        if isinstance(r, MutableMapping):
            for key in [k for k, v in r.items() if v is None]:
                del r[key]


def _removals(files: Sequence[tuple[str, Mapping]]) -> dict[str, str]:
    """{sweep name: what removed it} over the config ``files`` (name, content), in order: a null sweep removes
    it, ``sweeps: {}`` every sweep of the files before; a later file that defines it again brings it back."""
    defined: set[str] = set()
    removed: dict[str, str] = {}
    for path, content in files:
        sweeps = content.get("sweeps")
        if isinstance(sweeps, Mapping) and not sweeps:
            removed |= {n: f"sweeps: {{}} in {path}" for n in defined}
            defined = set()
        for name, entry in (sweeps or {}).items() if isinstance(sweeps, Mapping) else ():
            if entry is None:
                removed[name] = f"sweeps.{name}: null in {path}"
                defined.discard(name)
            else:
                defined.add(name)
                removed.pop(name, None)
    return removed


def drop_sweeps(config: MutableMapping[str, Any], files: Sequence[tuple[str, Mapping]]) -> list[str]:
    """Remove, in place, the sweeps the config ``files`` (name, content) remove (module doc), and a null sweep
    (``--config``); a removed claim sweep makes ``paper_a.claims.sweep`` null. Return one line per removal."""
    sweeps = config.get("sweeps")
    if not isinstance(sweeps, MutableMapping):
        return []
    why = _removals(files)
    notes = []
    for name in [n for n in sweeps if n in why or sweeps[n] is None]:
        del sweeps[name]
        notes.append(f"sweeps.{name}: removed ({why.get(name, f'sweeps.{name}: null')})")
        claims = (config.get("paper_a") or {}).get("claims")
        if isinstance(claims, MutableMapping) and claims.get("sweep") == name:
            claims["sweep"] = None
            notes.append(f"paper_a.claims.sweep: null (its sweep {name} is removed; claims A3, A6, A8 from the tables)")
    return notes


def shared_sweeps(files: Sequence[tuple[str, Mapping]]) -> dict[str, list[str]]:
    """{sweep name: the files defining it} for each sweep that two or more of the overlays ``files`` (name,
    content; config.yaml not among them) define: Snakemake merges them key by key into one entry."""
    where: dict[str, list[str]] = {}
    for path, content in files:
        sweeps = content.get("sweeps")
        for name, entry in sweeps.items() if isinstance(sweeps, Mapping) else ():
            if isinstance(entry, Mapping):
                where.setdefault(name, []).append(path)
    return {n: fs for n, fs in where.items() if len(fs) > 1}


def kind_conflicts(files: Sequence[tuple[str, Mapping]]) -> list[str]:
    """An error line for each sweep that two overlays ``files`` (name, content) define with different ``kind``s:
    two sweeps under one name, which a key-by-key merge would make into one of neither kind."""
    kinds: dict[str, dict[str, Any]] = {}
    for path, content in files:
        sweeps = content.get("sweeps")
        for name, entry in sweeps.items() if isinstance(sweeps, Mapping) else ():
            if isinstance(entry, Mapping) and "kind" in entry:
                kinds.setdefault(name, {})[path] = entry["kind"]
    return [f"config key sweeps.{name}: defined as {' and as '.join(f'{k} in {f}' for f, k in by.items())}: two sweeps "
            "under one name (overlays merge a sweep key by key into one entry); give them different names"
            for name, by in kinds.items() if len(set(map(str, by.values()))) > 1]


def shared_sweep_line(name: str, files: Sequence[str]) -> str:
    """What a sweep defined in several overlays is, in words."""
    return (f"sweeps.{name} is defined in {' and '.join(files)}: overlays merge a sweep key by key (each key from the "
            "last file that sets it), so the entry is a mix of the files; give the sweeps different names, or define "
            "it in one file")


def resolve(config: MutableMapping[str, Any]) -> list[str]:
    """Merge the ``extra_datasets`` of both papers into their lists and fit the claim sweep to
    ``paper_a.datasets`` (see the module doc), in place; return what changed, one line each."""
    notes: list[str] = []
    known = set(config.get("datasets") or {})
    pa = config.get("paper_a") or {}
    extra_a = list(pa.get("extra_datasets") or [])
    if extra_a:
        _check(extra_a, known, "paper_a.extra_datasets")
        merged = _append(list(pa["datasets"]), extra_a)
        if merged != list(pa["datasets"]):
            notes.append(f"paper_a.datasets: {', '.join(merged)} (with paper_a.extra_datasets)")
        pa["datasets"] = merged
    pb = config.get("paper_b") or {}
    extra_b = dict(pb.get("extra_datasets") or {})
    if extra_b:
        _check(list(extra_b), known, "paper_b.extra_datasets")
        pb["datasets"] = {**pb["datasets"], **extra_b}
        s1 = pb["scenario1"]
        merged = _append(list(s1["datasets"]), list(extra_b))
        if merged != list(s1["datasets"]):
            notes.append(f"paper_b.scenario1.datasets: {', '.join(merged)} (with paper_b.extra_datasets)")
        s1["datasets"] = merged
    sweeps = config.get("sweeps") or {}
    _drop_nulls(sweeps)
    name = (pa.get("claims") or {}).get("sweep")
    if name and name in sweeps and (sweeps[name] or {}).get("kind") != "paper_a":
        raise ConfigListError(f"config key paper_a.claims.sweep: {name!r} is a {(sweeps[name] or {}).get('kind')} "
                              "sweep; claims A1, A3, A6, A8, A10 read a paper_a sweep (name one, or write null: the tables)")
    if name and name in sweeps and "metric" in pa:  # the claim sweep measures the tables' (β, r)-anomalies
        own = sweeps[name].get("metric")
        if own is None and pa["metric"] != "euclidean":
            sweeps[name]["metric"] = pa["metric"]
            notes.append(f"sweeps.{name}.metric: {pa['metric']} (the claim sweep uses paper_a.metric)")
        elif own is not None and own != pa["metric"]:
            raise ConfigListError(f"config key sweeps.{name}.metric: {own!r} differs from paper_a.metric "
                                  f"{pa['metric']!r}; the claim sweep (paper_a.claims.sweep) is evidence for the "
                                  "tables' (β, r)-anomalies, so it uses their metric - remove the key or make them equal")
    if name and name in sweeps and "datasets" in pa:
        listed = list(sweeps[name].get("datasets") or [])
        kept = [d for d in listed if d in pa["datasets"]]
        if not kept:  # none of the run's paper-A datasets: the claim sweep does not run, A1/A3/A6/A8/A10 use the tables
            del sweeps[name]
            pa["claims"]["sweep"] = None
            notes.append(f"sweeps.{name}: not run (none of its datasets {', '.join(listed)} is in paper_a.datasets); "
                         "paper_a.claims.sweep: null (claims A1, A3, A6, A8, A10 from the tables)")
        elif kept != listed:
            dropped = [d for d in listed if d not in kept]
            notes.append(f"sweeps.{name}.datasets: {', '.join(kept)} (the claim sweep runs on paper_a.datasets "
                         f"only; left out: {', '.join(dropped)})")
            sweeps[name]["datasets"] = kept
    return notes
