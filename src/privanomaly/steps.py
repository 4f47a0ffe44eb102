"""The compute steps of the workflow (``workflow/steps.yaml``): one entry per rule that runs a script.

``workflow/rules/steps.smk`` turns every entry into one Snakemake rule named after it, with the log,
benchmark and conda environment every rule of the project has (``{LOGS}/<rule>/<log>.log``,
``{BENCH}/<rule>/<log>.tsv``, ``envs/privanomaly.yaml``).

A step says what a Snakemake rule says, as data (:class:`Step`). Values are written in a small language:

path            a string; ``{NAME}`` (upper case) is a constant of the workflow (``{RESULTS}``, ``{RESOURCES}``,
                ``{PA_FIG2_DATA}`` ...: steps.smk ``STEP_CONSTANTS``), ``{name}`` (lower case) a wildcard
``{expand: path, x: set, ...}``
                one file per value of each named set of the plan (``PLAN_SETS``): ``{x}`` in ``path``
``{plan: name}``  a value or a function of the wildcards that the workflow's plan defines (``STEP_VALUES``)
param string    a dotted config key (``paper_a.eps_grid``); with ``{wildcard}`` parts it is filled per job
``{value: v}``    a literal param
``{set: name}``   a set of the plan as a param
``{wildcard: name}``  the job's value of a wildcard as a param
``{bundle: {name: param, ...}}``  a mapping of params as one param (per job if one of them is)

The figures and tables that the catalogue builds from tidy tables are steps too: :func:`item_step` makes the
step of a catalogue item with a ``plot:`` or ``table:`` section (script ``render.py``).

No Snakemake here: :func:`load` validates the file (errors name the file, the step and the key) and a
:class:`Resolver` resolves a step's values against the workflow's constants, sets and plan values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from privanomaly.report.catalogue import EXPAND, WILDCARD, Item, config_value, yaml_list

CONSTANT = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")
KEYS = {"rule", "doc", "input", "output", "report", "log", "wildcards", "threads", "resources", "localrule",
        "params", "script"}
REPORT_KEYS = {"caption", "category", "subcategory"}
PARAM_FORMS = {"plan", "value", "set", "wildcard", "bundle"}
FORMS = PARAM_FORMS | {"expand"}  # the keys that make a mapping a value of the step language


@dataclass(frozen=True)
class Step:
    """One rule: ``rule`` (its name), ``doc`` (one line, shown by ``snakemake --list-rules``), ``input`` and
    ``output`` {name: value}, ``report`` {output name: {caption, category, subcategory}}, ``log`` (file name
    of the log and benchmark, wildcards allowed; default: the output's wildcards joined by "_", or "all"),
    ``wildcards`` {wildcard: regex or plan value}, ``threads``, ``resources``, ``localrule``, ``params``
    {name: value}, ``script`` (file name under ``scripts/``)."""

    rule: str
    doc: str
    input: tuple[tuple[str, Any], ...]
    output: tuple[tuple[str, str], ...]
    report: tuple[tuple[str, dict], ...]
    log: str
    wildcards: tuple[tuple[str, Any], ...]
    threads: int
    resources: tuple[tuple[str, int], ...]
    localrule: bool
    params: tuple[tuple[str, Any], ...]
    script: str


def _form(value: Any, where: str, allowed: set[str]) -> str | None:
    """The form of a mapping value (``expand``, ``plan``, ``value``, ``set``), None for a plain value."""
    if not isinstance(value, dict):
        return None
    forms = set(value) & FORMS
    if len(forms) != 1 or not forms <= allowed:
        raise ValueError(f"{where}: expected one of {sorted(allowed & FORMS)} (see privanomaly.steps), got {value!r}")
    form = forms.pop()
    if form != "expand" and len(value) != 1:
        raise ValueError(f"{where}: {{{form}: ...}} takes no other key, got {value!r}")
    return form


def _check_value(value: Any, where: str, allowed: set[str]) -> None:
    if isinstance(value, list) and "list" in allowed:
        for i, v in enumerate(value):
            _check_value(v, f"{where}[{i}]", allowed - {"list"})
        return
    form = _form(value, where, allowed)
    if form is None and not isinstance(value, str):
        raise ValueError(f"{where}: expected a path, a list or one of {sorted(allowed & FORMS)}, got {value!r}")
    if form == "expand" and not isinstance(value["expand"], str):
        raise ValueError(f"{where}.expand: expected a path, got {value['expand']!r}")
    if form == "bundle":
        if not isinstance(value["bundle"], dict):
            raise ValueError(f"{where}.bundle: expected a mapping name -> param, got {value['bundle']!r}")
        for name, v in value["bundle"].items():
            _check_value(v, f"{where}.bundle.{name}", PARAM_FORMS - {"bundle"})


def _mapping(raw: dict, key: str, where: str, required: bool = False) -> dict:
    value = raw.get(key)
    if value is None:
        if required:
            raise ValueError(f"{where}: missing key {key!r}")
        return {}
    if not isinstance(value, dict) or (required and not value):
        raise ValueError(f"{where}.{key}: expected a non-empty mapping name -> value, got {value!r}")
    return value


def load(path: str | Path) -> list[Step]:
    """Read and validate ``workflow/steps.yaml``; errors name the file, the step and the key."""
    path = Path(path)
    steps, seen = [], set()
    for i, raw in enumerate(yaml_list(path, "steps")):
        where = f"{path}: steps[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("rule"), str):
            raise ValueError(f"{where}: expected a mapping with a 'rule' name, got {raw!r}")
        where = f"{path}: step {raw['rule']}"
        if raw["rule"] in seen:
            raise ValueError(f"{where}: a second step of that name")
        seen.add(raw["rule"])
        unknown = set(raw) - KEYS
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {sorted(unknown)} (known: {sorted(KEYS)})")
        for key in ("doc", "script"):
            if not isinstance(raw.get(key), str) or not raw[key]:
                raise ValueError(f"{where}.{key}: expected a non-empty string, got {raw.get(key)!r}")
        inputs, outputs = _mapping(raw, "input", where), _mapping(raw, "output", where, required=True)
        for name, v in inputs.items():
            _check_value(v, f"{where}.input.{name}", {"list", "expand", "plan"})
        for name, v in outputs.items():
            if not isinstance(v, str):
                raise ValueError(f"{where}.output.{name}: expected a path, got {v!r}")
        report = _mapping(raw, "report", where)
        for name, rep in report.items():
            if name not in outputs:
                raise ValueError(f"{where}.report.{name}: not an output of the step ({sorted(outputs)})")
            if not isinstance(rep, dict) or set(rep) - REPORT_KEYS or not {"caption", "category"} <= set(rep):
                raise ValueError(f"{where}.report.{name}: expected {{caption, category[, subcategory]}}, got {rep!r}")
            if "subcategory" in rep:
                _check_value(rep["subcategory"], f"{where}.report.{name}.subcategory", {"plan"})
        params = _mapping(raw, "params", where)
        for name, v in params.items():
            _check_value(v, f"{where}.params.{name}", PARAM_FORMS)
        wildcards = _mapping(raw, "wildcards", where)
        for name, v in wildcards.items():
            _check_value(v, f"{where}.wildcards.{name}", {"plan"})
        resources = _mapping(raw, "resources", where)
        for name, v in resources.items():
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"{where}.resources.{name}: expected a positive integer, got {v!r}")
        threads = raw.get("threads", 1)
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise ValueError(f"{where}.threads: expected a positive integer, got {threads!r}")
        steps.append(Step(
            rule=raw["rule"], doc=raw["doc"].strip(),
            input=tuple(inputs.items()), output=tuple(outputs.items()), report=tuple(report.items()),
            log=str(raw.get("log") or default_log(next(iter(outputs.values())))),
            wildcards=tuple(wildcards.items()), threads=threads, resources=tuple(resources.items()),
            localrule=bool(raw.get("localrule", False)), params=tuple(params.items()), script=raw["script"],
        ))
    return steps


def default_log(first_output: str) -> str:
    """A step's log/benchmark name unless it gives one: its first output's wildcards joined by "_" (the
    workflow's ``{CONSTANTS}`` left out), or "all" when it has none."""
    names = [n for n in dict.fromkeys(WILDCARD.findall(first_output)) if not CONSTANT.fullmatch(f"{{{n}}}")]
    return "_".join(f"{{{n}}}" for n in names) or "all"


def _wildcard(name: str) -> Callable[[Any], str]:
    """The param function giving a job's value of wildcard ``name``."""
    return lambda wc: wc[name]


class Resolver:
    """A step's values against the workflow: ``constants`` {NAME: text} put into paths, ``sets`` {name: list}
    of the plan (for ``expand`` and ``set``), ``values`` {name: value or function of the wildcards} (``plan``),
    ``config`` (dotted-key params), ``expand`` (Snakemake's expand, or any function with its signature)."""

    def __init__(self, constants: Mapping[str, str], sets: Mapping[str, list], values: Mapping[str, Any],
                 config: Mapping, expand: Callable[..., list[str]]):
        self.constants, self.sets, self.values, self.config, self._expand = constants, sets, values, config, expand

    def path(self, text: str, where: str = "steps") -> str:
        """``text`` with its ``{NAME}`` constants filled (wildcards left for Snakemake)."""
        def fill(m: re.Match) -> str:
            if m.group(1) not in self.constants:
                raise ValueError(f"{where}: no workflow constant {m.group(1)!r} (known: {sorted(self.constants)})")
            return str(self.constants[m.group(1)])
        return CONSTANT.sub(fill, text)

    def _set(self, name: str, where: str) -> list:
        if name not in self.sets:
            raise ValueError(f"{where}: no set {name!r} in the workflow's plan (known: {sorted(self.sets)})")
        return list(self.sets[name])

    def plan(self, name: str, where: str = "steps") -> Any:
        if name not in self.values:
            raise ValueError(f"{where}: no plan value {name!r} (known: {sorted(self.values)})")
        return self.values[name]

    def value(self, value: Any, where: str) -> Any:
        """An input, wildcard or report value: a path, a list, ``expand`` or ``plan``."""
        if isinstance(value, list):
            return [x for v in value for x in self._flat(self.value(v, where))]
        if isinstance(value, str):
            return self.path(value, where)
        if "plan" in value:
            return self.plan(value["plan"], where)
        sets = {k: self._set(v, where) for k, v in value.items() if k != "expand"}
        return self._expand(self.path(value["expand"], where), **sets)

    @staticmethod
    def _flat(value: Any) -> list:
        return list(value) if isinstance(value, list) else [value]

    def param(self, value: Any, where: str) -> Any:
        """A param: dotted config key (per job if it has wildcards), ``value``, ``set``, ``wildcard``, ``plan``."""
        if isinstance(value, dict):
            if "value" in value:
                return value["value"]
            if "wildcard" in value:
                return _wildcard(value["wildcard"])
            if "bundle" in value:
                return self._bundle({n: self.param(v, f"{where}.{n}") for n, v in value["bundle"].items()})
            if "set" in value:
                return self._set(value["set"], where)
            return self.plan(value["plan"], where)
        if WILDCARD.search(value):
            return lambda wc: config_value(self.config, value, wc)
        return config_value(self.config, value)

    @staticmethod
    def _bundle(parts: dict) -> Any:
        if not any(callable(v) for v in parts.values()):
            return parts
        return lambda wc: {n: v(wc) if callable(v) else v for n, v in parts.items()}

    def inputs(self, step: Step) -> dict:
        return {n: self.value(v, f"step {step.rule}.input.{n}") for n, v in step.input}

    def params(self, step: Step) -> dict:
        return {n: self.param(v, f"step {step.rule}.params.{n}") for n, v in step.params}

    def wildcards(self, step: Step) -> dict:
        return {n: self.value(v, f"step {step.rule}.wildcards.{n}") for n, v in step.wildcards}

    def outputs(self, step: Step, report: Callable[..., Any]) -> dict:
        """{name: path}, the paths of ``step.report`` wrapped by ``report(path, caption=..., category=...,
        subcategory=...)`` (Snakemake's ``report``; captions are files under ``workflow/report/``)."""
        reports = dict(step.report)
        out = {}
        for name, path in step.output:
            path = self.path(path, f"step {step.rule}.output.{name}")
            rep = reports.get(name)
            if rep is not None:
                sub = rep.get("subcategory")
                path = report(path, caption=f"../report/{rep['caption']}", category=rep["category"],
                              subcategory=None if sub is None else self.value(sub, f"step {step.rule}.report"))
            out[name] = path
        return out

    def log(self, step: Step, root: str, suffix: str) -> str:
        """``{root}/<rule>/<log><suffix>``: the step's log (LOGS, .log) or benchmark (BENCH, .tsv) file."""
        return f"{root}/{step.rule}/{self.path(step.log, f'step {step.rule}.log')}{suffix}"


def item_step(item: Item) -> Step:
    """The step of a catalogue item with a ``plot:`` or ``table:`` section (:class:`privanomaly.report.catalogue.Plot`):
    ``scripts/render.py`` runs the registered function on the item's input tables and writes the item's files
    (the first one, PNG or CSV, in the report with the item's caption). Params: ``kind``, ``function``,
    ``plot_params`` (the section's config keys, plan sets and values in one mapping) and ``stand_in`` (the
    paper's stand-in notes, plan value ``paper_<x>.stand_in``, if the section says ``stand_in: true``)."""
    plot = item.plot
    if plot is None:
        raise ValueError(f"catalogue: {item.paper} {item.item}: no plot: or table: section, so no step")
    inputs = {n: {"expand": f"{{RESULTS}}/{p}", "d": plot.datasets} if EXPAND in p else f"{{RESULTS}}/{p}"
              for n, p in plot.inputs}
    outputs = {Path(f).suffix.lstrip("."): f"{{RESULTS}}/{f}" for f in item.files}
    names = list(dict.fromkeys(WILDCARD.findall(item.files[0])))  # a catalogue file has no {CONSTANTS}
    bundle = {**dict(plot.params), **{n: {"set": s} for n, s in plot.sets}, **{n: {"value": v} for n, v in plot.values}}
    stand_in = {"plan": f"paper_{item.paper.lower()}.stand_in"} if plot.stand_in else {"value": None}
    return Step(
        rule=item.rule, doc=f"{item.item} (paper {item.paper}): {item.title}", input=tuple(inputs.items()),
        output=tuple(outputs.items()),
        report=((next(iter(outputs)), {"caption": plot.caption, "category": f"Paper {item.paper}",
                                       "subcategory": plot.subcategory}),),
        log=default_log(item.files[0]), wildcards=tuple((n, {"plan": f"items.{n}"}) for n in names),
        threads=1, resources=(), localrule=False,
        params=(("kind", {"value": plot.kind}), ("function", {"value": plot.function}),
                ("plot_params", {"bundle": bundle}), ("stand_in", stand_in)),
        script="render.py",
    )
