"""The catalogue of reproduced items (``workflow/report/catalogue.yaml``): paper item -> files -> rule.

One home for the mapping from a paper's figure/table to the output files and the rule that writes them.
:func:`match_targets` expands it against the pipelines' concrete targets (``paper_a_targets()`` +
``paper_b_targets()``), :func:`readme_table` renders the README's "What is reproduced" table from it,
:func:`paper_files` lists a paper's targets from it (paper A's targets are exactly its items' files).

An item with a ``plot:`` section is also the registry entry of a figure: ``workflow/rules/report.smk`` makes
it one rule (named ``rule``) running a plot function registered in :mod:`privanomaly.report.figures`
on the item's input tables, with the item's caption. See :class:`Plot`.
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from privanomaly.config.keys import config_value, yaml_list


WILDCARD = re.compile(r"\{(\w+)\}")
WILDCARD_VALUE = "[A-Za-z0-9_]+"  # dataset names and methods: identifiers (no '/' and no '.')
PAPERS = ("A", "B", "A+B")  # "A+B": items about both papers (the privacy audit)
EXPAND = "{d}"  # in a plot input: one file per dataset of the plot's `datasets` set (a list input)
PLOT_KEYS = {"function", "caption", "subcategory", "inputs", "datasets", "params", "sets", "values", "stand_in"}
FIRST_FILE = {"plot": ".png", "table": ".csv"}  # what the generic rule's report item is, per section


@dataclass(frozen=True)
class Plot:
    """How the generic plot rule builds an item's figure (the ``plot:`` section of a catalogue item).

    function     name of a plot function registered in :mod:`privanomaly.report.figures` (``paper_a.fig1``)
    caption      caption file under ``workflow/report/`` (its report category is the item's paper)
    subcategory  report subcategory
    inputs       {name: tidy table path relative to results_dir}; a path containing ``{d}`` becomes the list
                 of one file per dataset of ``datasets``, read and concatenated into one table
    datasets     name of a dataset set the workflow defines (``CATALOGUE_SETS``, workflow/rules/common.smk), for ``{d}``
    params       {name: dotted config key} passed to the plot function (``paper_a.fig3.k_values``); a key may
                 hold the item's wildcards (``paper_b.datasets.{dataset}``), filled per job
    sets         {name: set name} passed as well: a set of the workflow's plan (``missing: paper_a.missing``)
    values       {name: literal value} passed to the plot function as well (``reading: paper_r``)

    A ``table:`` section has the same keys: its function returns the table (a DataFrame), written as CSV and
    Markdown; it gets the input *paths* and reads them with the project's checking readers.
    stand_in     stamp the stand-in note of the datasets shown (first input's ``dataset`` column) on scale runs
    """

    function: str
    caption: str
    subcategory: str
    inputs: tuple[tuple[str, str], ...]
    datasets: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    values: tuple[tuple[str, object], ...] = ()
    stand_in: bool = False
    sets: tuple[tuple[str, str], ...] = ()
    kind: str = "plot"  # or "table"


@dataclass(frozen=True)
class Item:
    """One figure/table of a paper (or a supporting table of it), as listed in the catalogue."""

    paper: str
    item: str
    title: str
    rule: str
    files: tuple[str, ...]
    checks: tuple[str, ...] = ()
    plot: Plot | None = None  # a plot: or table: section (Plot.kind says which)
    expand: tuple[tuple[str, str], ...] = ()  # (wildcard, name of the dataset/method set it ranges over)
    when: str | None = None  # the item is a target only if this set is non-empty

    def regex(self, i: int = 0) -> re.Pattern[str]:
        """Regex matching file pattern ``i`` (wildcards become named groups)."""
        return pattern_regex(self.files[i])

    def checks_for(self, wildcards: dict[str, str]) -> list[str]:
        """The check patterns with ``{dataset}``/``{method}`` replaced by the (escaped) wildcard values."""
        return [substitute(c, wildcards) for c in self.checks]


def substitute(pattern: str, wildcards: dict[str, str]) -> str:
    """Replace ``{name}`` tokens of a check regex by ``re.escape(value)``; other braces are left alone."""
    return WILDCARD.sub(lambda m: re.escape(wildcards[m.group(1)]) if m.group(1) in wildcards else m.group(0), pattern)


@dataclass
class Entry:
    """An item expanded for one combination of wildcards: the concrete files of one index line."""

    item: Item
    wildcards: dict[str, str]
    files: list[str]  # relative to results_dir, primary first

    def as_dict(self) -> dict:
        return {
            "paper": self.item.paper,
            "item": self.item.item,
            "title": self.item.title,
            "rule": self.item.rule,
            "wildcards": dict(self.wildcards),
            "files": list(self.files),
            "checks": self.item.checks_for(self.wildcards),
        }


@dataclass
class Match:
    """Result of :func:`match_targets`: index entries plus what the catalogue failed to account for."""

    entries: list[Entry] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)  # targets no item claims
    ambiguous: dict[str, list[str]] = field(default_factory=dict)  # target -> several items claiming it
    incomplete: dict[str, list[str]] = field(default_factory=dict)  # entry primary file -> its missing files
    unused: list[str] = field(default_factory=list)  # items matching no target ("paper item: first file")


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """``paper_b/figures/scenario1_{dataset}_{method}.png`` -> a full-match regex with named groups."""
    out, pos, seen = [], 0, set()
    for m in WILDCARD.finditer(pattern):
        out.append(re.escape(pattern[pos : m.start()]))
        name = m.group(1)
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>{WILDCARD_VALUE})")
        seen.add(name)
        pos = m.end()
    out.append(re.escape(pattern[pos:]))
    return re.compile("".join(out) + r"\Z")


def _require(entry: dict, key: str, where: str, kind: type) -> object:
    if key not in entry:
        raise ValueError(f"{where}: missing key '{key}'")
    value = entry[key]
    if not isinstance(value, kind) or (isinstance(value, (str, list)) and not value and key != "checks"):
        raise ValueError(f"{where}.{key}: expected a non-empty {kind.__name__}, got {value!r}")
    return value


SCHEMA = Path(__file__).resolve().parents[3] / "workflow" / "schemas" / "catalogue.schema.yaml"


def schema_errors(path: str | Path, raw_items: list, schema: str | Path = SCHEMA) -> list[str]:
    """One line per violation of the catalogue's JSON schema: the file, the item (index and name), the key
    path and what was expected."""
    import jsonschema
    import yaml

    validator = jsonschema.Draft202012Validator(yaml.safe_load(Path(schema).read_text(encoding="utf-8")))
    lines = []
    for err in sorted(validator.iter_errors({"items": raw_items}), key=lambda e: [str(p) for p in e.absolute_path]):
        keys = list(err.absolute_path)[1:]
        where = f"{path}: items[{keys[0]}]" if keys else f"{path}"
        if keys and isinstance(raw_items[keys[0]], dict) and raw_items[keys[0]].get("item"):
            where += f" ({raw_items[keys[0]]['item']!r})"
        detail = err.message
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = sorted(err.schema.get("properties", {}))
            extra = [k for k in err.instance if k not in allowed]
            keys, detail = keys + extra[:1], f"unknown key (misspelt?); allowed here: {', '.join(allowed)}"
        key = ".".join(str(k) for k in keys[1:])
        desc = err.schema.get("description") if isinstance(err.schema, dict) else None
        lines.append(f"{where}{'.' + key if key else ''}: {detail}" + (f" [{desc}]" if desc else ""))
    return lines


def load(path: str | Path, schema: str | Path = SCHEMA) -> list[Item]:
    """Read and validate the catalogue against its JSON schema (``workflow/schemas/catalogue.schema.yaml``)
    and the checks a schema cannot express; errors name the file, the item and the key."""
    path = Path(path)
    raw_items = yaml_list(path, "items")
    errors = schema_errors(path, raw_items, schema)
    if errors:
        raise ValueError("catalogue is invalid:\n  " + "\n  ".join(errors))
    items = []
    for i, raw in enumerate(raw_items):
        where = f"{path}: items[{i}] ({raw['item']!r})"
        if not isinstance(raw, dict):
            raise ValueError(f"{where}: expected a mapping, got {raw!r}")
        unknown = set(raw) - {"paper", "item", "title", "rule", "files", "checks", "plot", "table", "expand",
                           "when"}
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {sorted(unknown)}")
        paper = str(_require(raw, "paper", where, str))
        if paper not in PAPERS:
            raise ValueError(f"{where}.paper: expected one of {PAPERS}, got {paper!r}")
        files = tuple(str(f) for f in _require(raw, "files", where, list))
        names = {tuple(sorted(set(WILDCARD.findall(f)))) for f in files}
        if len(names) != 1:
            raise ValueError(f"{where}.files: every file must use the same wildcards, got {list(files)}")
        checks = tuple(str(c) for c in raw.get("checks", []) or [])
        expand = raw.get("expand", {}) or {}
        if not isinstance(expand, dict) or (expand and set(expand) != set(WILDCARD.findall(files[0]))):
            raise ValueError(f"{where}.expand: name the set of each wildcard of the files "
                             f"{sorted(set(WILDCARD.findall(files[0])))}, got {expand!r}")
        for c in checks:
            if c != "*":
                try:
                    re.compile(substitute(c, {n: "x" for n in WILDCARD.findall(c)}))
                except re.error as exc:
                    raise ValueError(f"{where}.checks: {c!r} is not a regex ({exc})") from None
        items.append(
            Item(
                paper=paper,
                item=str(_require(raw, "item", where, str)),
                title=str(_require(raw, "title", where, str)),
                rule=str(_require(raw, "rule", where, str)),
                files=files,
                checks=checks,
                plot=_section(raw, where, files),
                expand=tuple((str(k), str(v)) for k, v in expand.items()),
                when=str(raw["when"]) if raw.get("when") else None,
            )
        )
    return items


def check_sections(items: list[Item], captions_dir: str | Path, functions: Iterable[str] | None = None) -> None:
    """Each ``plot:``/``table:`` section names a caption file that exists under ``captions_dir``
    (``workflow/report``) and, given the registered plot/table ``functions``
    (:func:`privanomaly.report.figures.names`), a registered function: a typo is an error naming the item before
    any job, not after its inputs are computed (function) or at the end of the run (caption, ``--report``)."""
    known = None if functions is None else set(functions)
    for it in items:
        if it.plot is None:
            continue
        where = f"catalogue: {it.paper} {it.item!r} ({it.plot.kind}:)"
        if not (Path(captions_dir) / it.plot.caption).is_file():
            raise ValueError(f"{where} caption: no file {it.plot.caption!r} in {captions_dir}; write the caption "
                             "there or fix the name")
        if known is not None and it.plot.function not in known:
            near = difflib.get_close_matches(it.plot.function, sorted(known), n=1)
            raise ValueError(f"{where} function: {it.plot.function!r} is not a registered plot/table function"
                             + (f" (did you mean {near[0]!r}?)" if near else "")
                             + "; register it with @FIGURES.register in the paper's plots.py or tables.py")


def _section(item: dict, where: str, files: tuple[str, ...]) -> Plot | None:
    """Validate the ``plot:`` or ``table:`` section of an item (see :class:`Plot`); errors name the item and key."""
    kinds = [k for k in FIRST_FILE if k in item]
    if len(kinds) > 1:
        raise ValueError(f"{where}: an item has one of {sorted(FIRST_FILE)}, not both")
    if not kinds:
        return None
    kind = kinds[0]
    raw, where = item[kind], f"{where}.{kind}"
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: expected a mapping, got {raw!r}")
    unknown = set(raw) - PLOT_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {sorted(unknown)}")
    suffixes = [Path(f).suffix for f in files]
    if suffixes[0] != FIRST_FILE[kind] or len(set(suffixes)) != len(suffixes):
        raise ValueError(f"{where}: the item's first file must be the {FIRST_FILE[kind]}, one file per format; "
                         f"got {files}")
    inputs = _require(raw, "inputs", where, dict)
    params = raw.get("params", {}) or {}
    if not isinstance(params, dict):
        raise ValueError(f"{where}.params: expected a mapping name -> config key, got {params!r}")
    values, sets = raw.get("values", {}) or {}, raw.get("sets", {}) or {}
    for key, value in (("values", values), ("sets", sets)):
        if not isinstance(value, dict):
            raise ValueError(f"{where}.{key}: expected a mapping name -> value, got {value!r}")
    names = {n for f in files for n in WILDCARD.findall(f)}
    for name, key in params.items():
        unknown = set(WILDCARD.findall(str(key))) - names
        if unknown:
            raise ValueError(f"{where}.params.{name}: {sorted(unknown)} are not wildcards of the item's files")
    datasets = raw.get("datasets")
    expanded = [k for k, v in inputs.items() if EXPAND in str(v)]
    if expanded and not isinstance(datasets, str):
        raise ValueError(f"{where}.datasets: inputs {expanded} use {EXPAND}; name the dataset set they expand over")
    return Plot(
        function=str(_require(raw, "function", where, str)),
        caption=str(_require(raw, "caption", where, str)),
        subcategory=str(_require(raw, "subcategory", where, str)),
        inputs=tuple((str(k), str(v)) for k, v in inputs.items()),
        datasets=datasets,
        params=tuple((str(k), str(v)) for k, v in params.items()),
        values=tuple((str(k), v) for k, v in values.items()),
        stand_in=bool(raw.get("stand_in", False)),
        sets=tuple((str(k), str(v)) for k, v in sets.items()),
        kind=kind,
    )


def paper_files(items: list[Item], paper: str, sets: Mapping[str, list] | None = None) -> list[str]:
    """Every file of ``paper``'s items (relative to results_dir), in catalogue order: the targets of a paper.

    ``sets`` {name: values} are the sets the items' ``expand`` and ``when`` name (a workflow's plan, e.g.
    :func:`privanomaly.paper_b.plan.sets`): an item's wildcards range over the product of its sets (in
    the order ``expand`` lists them), an item whose ``when`` set is empty is left out. A set the plan does
    not define is an error naming the item.
    """
    sets = sets or {}

    def values(it: Item, name: str) -> list:
        if name not in sets:
            raise ValueError(f"catalogue: {it.paper} {it.item}: no set {name!r} (known: {sorted(sets)})")
        return list(sets[name])

    out = []
    for it in (i for i in items if i.paper == paper):
        if it.when and not values(it, it.when):
            continue
        if WILDCARD.search(it.files[0]) and not it.expand:
            raise ValueError(f"catalogue: {it.paper} {it.item}: name the set of each wildcard under 'expand'")
        # wildcards naming the same set range over it jointly (a set of tuples: paper B's (dataset, method))
        groups: dict[str, list[str]] = {}
        for w, s in it.expand:
            groups.setdefault(s, []).append(w)
        for combo in itertools.product(*(values(it, s) for s in groups)):
            wc = {}
            for (s, names), value in zip(groups.items(), combo):
                parts = value if len(names) > 1 else (value,)
                if len(parts) != len(names):
                    raise ValueError(f"catalogue: {it.paper} {it.item}: {names} share the set {s!r}, whose values "
                                     f"must be {len(names)}-tuples; got {value!r}")
                wc.update(zip(names, map(str, parts)))
            out += [f.format(**wc) for f in it.files]
    return out


def plot_inputs(plot: Plot, results_dir: str, sets: Mapping[str, list]) -> dict[str, str | list[str]]:
    """{name: path} of the generic rule's inputs under ``results_dir``; an input with ``{d}`` is the list of
    one path per dataset of the plot's ``datasets`` set (a set the plan lacks is an error naming it)."""
    def expand(path: str) -> list[str]:
        return [path.replace(EXPAND, str(d)) for d in _plan_set(sets, str(plot.datasets), plot.function)]

    return {n: expand(f"{results_dir}/{p}") if EXPAND in p else f"{results_dir}/{p}" for n, p in plot.inputs}


def plot_datasets(plot: Plot, sets: Mapping[str, list]) -> list:
    """The datasets an item shows: its ``datasets`` set in this run's plan ([] for an item without one), the
    generic rule's param ``datasets`` that its caption states."""
    return _plan_set(sets, str(plot.datasets), plot.function) if plot.datasets else []


def _plan_set(sets: Mapping[str, list], name: str, who: str) -> list:
    if name not in sets:
        raise ValueError(f"catalogue: {who}: no set {name!r} in the workflow's plan (known: {sorted(sets)})")
    return list(sets[name])


def per_job(plot: Plot) -> bool:
    """Whether a config key of the plot's params holds a wildcard (its params are then filled per job)."""
    return any(WILDCARD.search(key) for _, key in plot.params)


def plot_params(config: Mapping, plot: Plot, sets: Mapping[str, list],
                wildcards: Mapping[str, str] | None = None) -> dict:
    """The ``plot_params`` of the generic rule: the section's config keys (filled from a job's ``wildcards``),
    then its plan ``sets``, then its literal ``values``; errors name the missing key or set."""
    where = f"catalogue plot param of {plot.function}"
    return {
        **{n: config_value(config, key, wildcards, where) for n, key in plot.params},
        **{n: _plan_set(sets, s, plot.function) for n, s in plot.sets},
        **{n: v for n, v in plot.values},
    }


CLAIMS_FILES = {"A": "paper_a/claims.md", "B": "paper_b/comparison.md"}  # PASS/FAIL, MATCH/DIFFERS per paper


def claims_files(targets: Iterable[str], results_dir: str) -> dict[str, str]:
    """{paper: its claims file under ``results_dir``} for the papers whose claims file is among ``targets``
    (relative to results_dir): the verdicts results/index.md reads."""
    built = set(targets)
    return {paper: f"{results_dir}/{rel}" for paper, rel in CLAIMS_FILES.items() if rel in built}


def relative_targets(targets: Iterable[str], results_dir: str) -> list[str]:
    """Target paths relative to ``results_dir`` (targets outside it are kept as given), order kept."""
    prefix = str(results_dir).rstrip("/") + "/"
    return [t[len(prefix) :] if t.startswith(prefix) else t for t in map(str, targets)]


def match_targets(items: list[Item], targets: Iterable[str]) -> Match:
    """Expand the catalogue against concrete targets (relative to results_dir).

    Every item yields one entry per wildcard combination found among the targets for its first file; its
    other files are formatted with the same wildcards. Targets claimed by no item or by several items, items
    claiming nothing and entries whose files are not all targets are reported, not hidden.
    """
    targets = list(dict.fromkeys(targets))
    target_set = set(targets)
    result = Match()
    owners: dict[str, list[str]] = {}
    for it in items:
        label = f"{it.paper} {it.item}: {it.files[0]}"
        regexes = [pattern_regex(f) for f in it.files]
        for t in targets:
            if any(r.match(t) for r in regexes):
                owners.setdefault(t, []).append(label)
        combos = [m.groupdict() for t in targets if (m := regexes[0].match(t))]
        if not combos:
            result.unused.append(label)
        for wc in combos:
            files = [f.format(**wc) for f in it.files]
            missing = [f for f in files if f not in target_set]
            if missing:
                result.incomplete[files[0]] = missing
            result.entries.append(Entry(it, wc, files))
    result.uncovered = [t for t in targets if t not in owners]
    result.ambiguous = {t: o for t, o in owners.items() if len(o) > 1}
    return result


def readme_table(items: list[Item]) -> str:
    """The README's "What is reproduced" table: paper item -> output files -> rule (from the catalogue)."""
    lines = [
        "| Paper | Figure / table | What it shows | Output (under `results/`) | Rule |",
        "|---|---|---|---|---|",
    ]
    for it in items:
        files = f"`{it.files[0]}`"
        exts = [Path(f).suffix for f in it.files[1:] if Path(f).with_suffix("") == Path(it.files[0]).with_suffix("")]
        others = [f for f in it.files[1:] if Path(f).with_suffix("") != Path(it.files[0]).with_suffix("")]
        if exts:
            files += " (+ " + ", ".join(exts) + ")"
        if others:
            files += ", " + ", ".join(f"`{f}`" for f in others)
        title = it.title.replace("|", "\\|")
        lines.append(f"| {it.paper} | {it.item} | {title} | {files} | `{it.rule}` |")
    return "\n".join(lines) + "\n"


README_BEGIN = "<!-- catalogue:begin (generated: python -m privanomaly.report.catalogue --readme README.md) -->"
README_END = "<!-- catalogue:end -->"


def update_readme(readme: str | Path, items: list[Item]) -> bool:
    """Replace the table between the catalogue markers of ``readme``; True if the file changed."""
    readme = Path(readme)
    text = readme.read_text(encoding="utf-8")
    start, end = text.find(README_BEGIN), text.find(README_END)
    if start < 0 or end < start:
        raise ValueError(f"{readme}: markers {README_BEGIN!r} ... {README_END!r} not found")
    new = text[: start + len(README_BEGIN)] + "\n" + readme_table(items) + text[end:]
    if new != text:
        from privanomaly import io  # atomic: a README is never left half-written

        io.write_text(readme, new)
    return new != text


def _main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m privanomaly.report.catalogue", description=__doc__.splitlines()[0])
    ap.add_argument("--catalogue", default="workflow/report/catalogue.yaml")
    ap.add_argument("--readme", help="rewrite the table between the catalogue markers of this README")
    args = ap.parse_args(argv)
    items = load(args.catalogue)
    if args.readme:
        changed = update_readme(args.readme, items)
        print(f"{args.readme}: {'updated' if changed else 'already up to date'}")
    else:
        print(readme_table(items), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
