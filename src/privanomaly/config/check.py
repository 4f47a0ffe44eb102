"""Config validation that says *where*: file and line for YAML errors, the key path first for schema errors.

Snakemake loads ``--configfile`` files itself (PyYAML, duplicate keys silently overwritten) and
``snakemake.utils.validate`` reports a schema error as a full schema dump followed by the instance path.
The Snakefile therefore calls :func:`check_config` (workflow/rules/config.smk) instead:

1. every config file the run read (``workflow.configfiles``: config.yaml, then each ``--configfile``) is
   re-read with a strict loader: a duplicated key is an error naming file, line and key (:func:`load_yaml`);
2. the merged config is checked against the JSON schema; each error reads
   ``config key paper_a.n_trials (overlay.yaml:3): 1000000000000.0 is greater than the maximum of 100000``
   followed by the key's schema description (no schema dump);
3. checks a schema cannot express (:func:`semantic_errors`);
   Schema ``default`` values are filled in on the way, as ``snakemake.utils.validate`` did.

A YAML syntax error or an empty ``--configfile`` stops Snakemake *before* the Snakefile runs, with a message
that names neither file nor line ("Config file is not valid JSON or YAML"). ``make reproduce`` / ``make
test`` run ``python -m privanomaly.config.check`` on their config files first, which names them; by hand run
``python -m privanomaly.config.check --configfile my.yaml`` (docs/troubleshooting.md).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"

# Paper A Figure 4 enumerates every histogram of the box {0..max(center)+hops}^len(center) (paper_a.toy).
FIG4_MAX_HISTOGRAMS = 1_000_000


class ConfigError(ValueError):
    """A config file or value is wrong; the message names the file (and line) or the key."""


_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available


class _StrictLoader(_FAST_LOADER):  # type: ignore[misc,valid-type]
    """SafeLoader that rejects a key given twice in one mapping (PyYAML keeps the last one silently)."""

    path = "<config>"

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _value in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *anchor` merges are fine
                continue
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                first = seen[key].start_mark
                here = key_node.start_mark
                raise ConfigError(
                    f"{self.path}:{here.line + 1}: duplicate key {key!r} (first given at line {first.line + 1}); "
                    f"YAML keeps only the last one - remove one of them"
                )
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)


def _read(path: str | os.PathLike) -> str:
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: config file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{p}: is a directory, not a config file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: not UTF-8 text (byte offset {exc.start}); save the config as UTF-8") from exc
    except OSError as exc:
        raise ConfigError(f"{p}: cannot be read ({exc.strerror or exc})") from exc


def load_yaml(path: str | os.PathLike) -> dict:
    """Load one config file strictly: syntax errors and duplicate keys name file and line; empty is an error."""
    text = _read(path)
    loader = _StrictLoader(text)
    loader.path = str(path)  # named in messages
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        what = " ".join(x for x in (exc.context, exc.problem) if x)
        lines = text.splitlines()
        if mark and mark.line < len(lines) and lines[mark.line][mark.column : mark.column + 1] == "\t":
            what += " (a tab character: YAML indents with spaces only)"
        raise ConfigError(f"{where}: YAML syntax error: {what}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: YAML error: {exc}") from exc
    finally:
        loader.dispose()
    if data is None:
        raise ConfigError(
            f"{path}:1: the config file is empty (no keys); write the keys to change (e.g. `seed: 1`), or leave "
            f"the file out of --configfile"
        )
    if not isinstance(data, dict):
        raise ConfigError(f"{path}:1: the top level must be `key: value` lines, got a {type(data).__name__}")
    return data


def key_lines(path: str | os.PathLike) -> dict[tuple, int]:
    """{key path: 1-based line} of every mapping key and list item in a YAML file (for messages)."""
    try:
        node = yaml.compose(_read(path), Loader=_FAST_LOADER)
    except (yaml.YAMLError, ConfigError):
        return {}
    out: dict[tuple, int] = {}

    def walk(n: yaml.Node, prefix: tuple) -> None:
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = (*prefix, k.value)
                out[key] = k.start_mark.line + 1
                walk(v, key)
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                out[(*prefix, i)] = v.start_mark.line + 1
                walk(v, (*prefix, i))

    if node is not None:
        walk(node, ())
    return out


_UNSET = object()


def locate(keypath: Sequence[Any], files: Sequence[str | os.PathLike], value: Any = _UNSET) -> str:
    """``file:line`` of the config file whose value of ``keypath`` is in effect; '' if none.

    Later files override earlier ones. If the last file that sets ``keypath`` holds another value than
    ``value``, the value came from ``--config key=value``: "--config". A key no file sets (e.g. a misspelt
    one) is located at its longest prefix that a file sets.
    """
    keypath = tuple(keypath)
    for f in reversed(list(files)):
        lines = key_lines(f)
        if keypath in lines:
            # a mapping merges key by key over the files, so no one file holds all of it: not --config
            if value is not _UNSET and not isinstance(value, Mapping) and _get(load_yaml(f), keypath) != value:
                return "--config"
            return f"{f}:{lines[keypath]}"
    for f in reversed(list(files)):
        lines = key_lines(f)
        for n in range(len(keypath) - 1, 0, -1):
            if keypath[:n] in lines:
                return f"{f}:{lines[keypath[:n]]}"
    return ""


def _get(data: Any, keypath: Sequence[Any]) -> Any:
    for k in keypath:
        try:
            data = data[k]
        except (KeyError, IndexError, TypeError):
            return _UNSET
    return data


def dotted(keypath: Iterable[Any]) -> str:
    """``('paper_a', 'eps_grid', 0)`` -> ``paper_a.eps_grid[0]``."""
    out = ""
    for k in keypath:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out or "(top level)"


def _schema(schema: str | os.PathLike | Mapping) -> Mapping:
    if isinstance(schema, Mapping):
        return schema
    return yaml.load(Path(schema).read_text(encoding="utf-8"), Loader=_FAST_LOADER)


def _validator(schema: Mapping) -> Any:
    """A Draft 2020-12 validator that also fills ``default`` values, as ``snakemake.utils.validate`` does."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    properties = base.VALIDATORS["properties"]

    def set_defaults(validator, props, instance, schema):
        if isinstance(instance, dict):
            for name, sub in props.items():
                if isinstance(sub, Mapping) and "default" in sub:
                    instance.setdefault(name, sub["default"])
        yield from properties(validator, props, instance, schema)

    # JSON Schema counts 5.0 as an integer; a config integer (a seed, a count, k, beta) must be written as one:
    # the library takes it as a Python int (seeding rejects 5.0; a float k or beta would name other files)
    types = base.TYPE_CHECKER.redefine("integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
    return jsonschema.validators.extend(base, {"properties": set_defaults}, type_checker=types)(schema)


_EXPONENT_TEXT = re.compile(r"^\s*([-+]?)(\d*)(?:\.(\d*))?[eE]([-+]?)(\d+)\s*$")


def number_fix(text: str, integer: bool = False) -> str | None:
    """For a text in exponent notation that YAML 1.1 (PyYAML) reads as text because its mantissa has no dot
    or its exponent no sign (``1.0e9``, ``1e-3``): the spelling it reads as a number (``1.0e+9``, ``1.0e-3``;
    with ``integer``, the integer written out when it is one: ``1000000000``). None for any other text."""
    m = _EXPONENT_TEXT.match(text)
    if not m or not (m.group(2) or m.group(3)):
        return None
    sign, whole, frac, esign, exp = m.groups()
    if integer:
        value = float(text)
        if value.is_integer() and abs(value) < 1e18:
            return str(int(value))
    return f"{sign}{whole or '0'}.{frac or '0'}e{esign or '+'}{exp}"


def nonfinite_errors(config: Any, files: Sequence = (), prefix: tuple = ()) -> list[str]:
    """One line per NaN or infinite number in ``config`` (YAML ``.nan``, ``.inf``): the schema's bounds do not
    reject them (every comparison with NaN is false), and no key of the config means anything by them."""
    if isinstance(config, Mapping):
        return [m for k, v in config.items() for m in nonfinite_errors(v, files, (*prefix, k))]
    if isinstance(config, list):
        return [m for i, v in enumerate(config) for m in nonfinite_errors(v, files, (*prefix, i))]
    if isinstance(config, float) and not math.isfinite(config):
        where = locate(prefix, files)
        if where and not _nonfinite_in_file(where, prefix):
            where = "--config"  # the file that sets the key holds a finite number: `--config seed=nan` replaced it
        spelled = ".nan" if math.isnan(config) else ("-.inf" if config < 0 else ".inf")
        return [f"config key {dotted(prefix)}{f' ({where})' if where else ''}: {spelled} is not a finite number; "
                "write a finite number (e.g. 0.5; where a key allows no limit, write null)"]
    return []


def _nonfinite_in_file(where: str, keypath: Sequence[Any]) -> bool:
    """Whether the file of ``where`` (``file:line``) holds a NaN or infinite number at ``keypath``."""
    value = _get(load_yaml(where.rsplit(":", 1)[0]), keypath)
    return isinstance(value, float) and not math.isfinite(value)


# YAML's null spellings: Snakemake reads `--config key=value` values without YAML types, so `null` arrives as text
NULL_WORDS = ("null", "Null", "NULL")


def schema_errors(config: Mapping, schema: str | os.PathLike | Mapping, files: Sequence = ()) -> list[str]:
    """One line per schema violation, key path (and file:line) first, then what was expected.

    Fills schema ``default`` values into ``config`` on the way (as ``snakemake.utils.validate`` does).
    """
    validator = _validator(dict(_schema(schema)))
    msgs = []
    for err in sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(err.absolute_path)
        detail = err.message
        value = err.instance if err.validator != "additionalProperties" else _UNSET
        if err.validator == "additionalProperties" and isinstance(err.instance, Mapping):
            allowed = set(err.schema.get("properties", {}))
            extra = [k for k in err.instance if k not in allowed]
            if extra:
                path.append(extra[0])
                detail = (
                    f"unknown key {extra[0]!r} (misspelt?); allowed here: {', '.join(sorted(allowed)) or 'none'}"
                )
        wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        if "propertyNames" in err.relative_schema_path and isinstance(err.instance, str):
            path.append(err.instance)  # a bad key name: name the key itself (and its line), not its mapping
            detail = f"key name {detail}"
            value = _UNSET
        integer = err.validator == "type" and "integer" in wanted
        fix = number_fix(err.instance, integer) if isinstance(err.instance, str) else None
        if fix:  # PyYAML (YAML 1.1) reads an exponent without sign as text
            detail += (f"; YAML reads {err.instance!r} as text, not a number (YAML 1.1 reads exponent notation as a number only with a dot and a signed exponent): "
                       f"write {fix}")
        elif integer and isinstance(err.instance, float) and err.instance.is_integer() and abs(err.instance) < 1e18:
            detail += f" (a number with a decimal point or an exponent); write the integer {int(err.instance)}"
        where = locate(path, files, _get(config, path) if value is not _UNSET else _UNSET)
        if where == "--config" and len(path) > 1 and err.validator == "type" and isinstance(err.instance, str):
            detail += ("; a value nested in --config arrives as text (Snakemake reads `--config key={...}` without "
                       "YAML types): set it in an overlay file given with --configfile")
        line = f"config key {dotted(path)}{f' ({where})' if where else ''}: {detail}"
        desc = err.schema.get("description") if isinstance(err.schema, Mapping) else None
        if desc and err.validator != "additionalProperties":
            line += f" [{dotted(path)}: {desc}]"
        msgs.append(line)
    return msgs


def semantic_errors(config: Mapping) -> list[str]:
    """What the schema cannot say: sizes that depend on several values."""
    msgs = []
    fig4 = (config.get("paper_a") or {}).get("fig4") or {}
    center, hops = fig4.get("center"), fig4.get("hops", 1)
    if isinstance(center, list) and center and all(isinstance(c, int) for c in center) and isinstance(hops, int):
        n = (max(center) + hops + 1) ** len(center)
        if n > FIG4_MAX_HISTOGRAMS:
            msgs.append(
                f"config key paper_a.fig4.center: {center} (length {len(center)} = |X|, counts up to {max(center)}, "
                f"hops {hops}) spans {n:,} histograms, more than the {FIG4_MAX_HISTOGRAMS:,} Figure 4 can enumerate; "
                f"the paper's figure uses X = {{1..5}} (5 counts of 0 or 1): use fewer values or smaller counts"
            )
    return msgs


def check_config(config: dict, schema: str | os.PathLike, files: Sequence[str | os.PathLike] = ()) -> dict:
    """Validate the merged ``config`` read from ``files``; raise ``ConfigError`` saying where; fill defaults."""
    from privanomaly.config import merge as configmerge

    loaded = [(str(f), load_yaml(f)) for f in files]
    if config.get("data_mirror") in NULL_WORDS:  # `--config data_mirror=null`: download, not a directory 'null'
        config["data_mirror"] = None
    notes = configmerge.drop_sweeps(config, loaded)  # a sweep an overlay removes is never checked
    shared = configmerge.shared_sweeps(loaded[1:])  # config.yaml first: a sweep in two overlays
    conflicts = configmerge.kind_conflicts(loaded[1:])
    msgs = (conflicts or nonfinite_errors(config, files) or schema_errors(config, schema, files)
            or semantic_errors(config))
    msgs = msgs and msgs + [configmerge.shared_sweep_line(n, fs) for n, fs in shared.items()
                            if not conflicts and any(f"sweeps.{n}" in m for m in msgs)]
    for key in ("results_dir", "resources_dir", "data_mirror"):  # `~/x` is the home directory, as in a shell
        if not msgs and isinstance(config.get(key), str) and config[key].startswith("~"):
            config[key] = os.path.expanduser(config[key])
    msgs = msgs or source_tree_errors(config, files)
    if msgs:
        shown = msgs[:10] + ([f"... and {len(msgs) - 10} more"] if len(msgs) > 10 else [])
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(shown))
    try:  # the papers' extra_datasets merged into their lists; the claim sweep fitted to paper_a.datasets
        notes += configmerge.resolve(config)
    except configmerge.ConfigListError as exc:
        raise ConfigError(f"invalid configuration:\n  {exc}") from None
    for note in notes + [configmerge.shared_sweep_line(n, fs) for n, fs in shared.items()]:
        print(f"privanomaly: {note}", file=sys.stderr)
    return config


SOURCE_DIRS = ("src", "workflow", "scripts", "tests", "docs", "envs", "profiles", "benchmarks", "tools", ".git",
               ".venv", ".snakemake")
"""The checkout's own directories (code, environment, Snakemake's records): never a place for outputs."""


def source_tree_errors(config: Mapping, files: Sequence = (), root: Path = ROOT) -> list[str]:
    """``results_dir`` / ``resources_dir`` (relative to the working directory) that is the checkout ``root``, a
    directory above it, or inside one of its :data:`SOURCE_DIRS`: an error each, naming the key and why (the run
    would write data/, logs/, benchmarks/ ... among the project's files; with ``src`` it wrote src/data)."""
    if not (root / "workflow").is_dir():  # an installed package, not a checkout
        return []
    msgs = []
    for key in ("results_dir", "resources_dir"):
        if not isinstance(config.get(key), str):
            continue
        path = Path(os.path.abspath(config[key]))
        inside = next((d for d in SOURCE_DIRS if path == root / d or (root / d) in path.parents), None)
        if path == root or path in root.parents:
            why = (f"is the source tree itself ({root})" if path == root else f"holds the source tree ({root})")
        elif inside:
            why = f"is {'' if path == root / inside else 'inside '}the source tree's {inside}/ ({path})"
        else:
            continue
        where = locate([key], files, config[key])
        msgs.append(f"config key {key}{f' ({where})' if where else ''}: {config[key]!r} {why}: the run would write "
                    "its outputs (data/, logs/, benchmarks/, ...) among the project's own files; use a directory of "
                    "its own, e.g. results (the default) or a path outside the checkout")
    return msgs


def merged_config(files: Sequence[str | os.PathLike], values: Sequence[str] = ()) -> dict:
    """The config Snakemake would see from ``files`` (later files override earlier ones, key by key) and the
    ``--config`` ``values`` (``KEY=VALUE``, parsed as Snakemake parses them, over every file)."""
    from snakemake.cli import parse_config
    from snakemake.utils import update_config

    config: dict = {}
    for f in files:
        update_config(config, load_yaml(f))
    try:
        update_config(config, parse_config(list(values)))
    except ValueError as exc:  # "Invalid config definition: ..." (not KEY=VALUE)
        raise ConfigError(f"--config {' '.join(values)}: {exc}") from None
    return config


_UNDER_DEFAULTS: list[dict] = []  # the config objects already put over the defaults in this process


def under_defaults(config: dict, defaults: str | os.PathLike, files: Sequence[str | os.PathLike]) -> list[str]:
    """Put ``config`` (read from ``files``) over the workflow's own ``defaults`` (its config.yaml), in place, when
    the run did not read that file; return every file the config came from, the defaults first.

    A run of this checkout reads config.yaml through the Snakefile's ``configfile:``: nothing changes. As a module
    of another workflow (``module privanomaly: snakefile: ...; config: config``) Snakemake skips the module's
    ``configfile:`` and hands it the user's config: config.yaml then lies under it as a ``--configfile``
    overlay lies over config.yaml (mappings merged key by key). Each ``use rule ... from privanomaly`` reads the
    module again with the same config object: it is put over the defaults once.
    """
    files = [str(f) for f in files]
    if any(_same_file(f, defaults) for f in files):
        return files
    if not any(c is config for c in _UNDER_DEFAULTS):
        from snakemake.utils import update_config

        merged = load_yaml(defaults)
        update_config(merged, config)
        config.clear()
        config.update(merged)
        _UNDER_DEFAULTS.append(config)
    return [str(defaults), *files]


def _same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def main(argv: list[str] | None = None, plan_check: Callable[[dict], None] | None = None,
         prog: str = "python -m privanomaly.config.check") -> int:
    """``python -m privanomaly.config.check [--configfile F ...]``: check config.yaml plus overlays, say where.

    ``plan_check`` (``privanomaly.preflight``, which ``make`` runs) then runs the workflow plan's checks on
    the merged config; it raises :class:`ConfigError`."""
    plan = ("then the workflow plan's checks (dataset names, eps_ref in eps_grid, sweep sizes, ...)" if plan_check
            else "not the workflow plan's checks (python -m privanomaly.preflight adds them)")
    ap = argparse.ArgumentParser(prog=prog, allow_abbrev=False, description=(  # --config is not --configfile
        "Check config.yaml merged with the overlays: strict YAML (a duplicate key, a syntax error or an empty file "
        f"is named with file:line) and the schema (the key and file:line first); {plan}. Exit 1 with the message, "
        "else 0."))
    ap.add_argument("--configfile", nargs="*", default=[], help="overlays, as given to snakemake")
    ap.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                    help="values over the files, as given to snakemake (parsed as snakemake parses them)")
    ap.add_argument("--base", default=str(ROOT / "config.yaml"), help="the workflow's config.yaml")
    ap.add_argument("--schema", default=str(DEFAULT_SCHEMA))
    args = ap.parse_args(argv)
    files = [args.base, *args.configfile]
    try:
        config = check_config(merged_config(files, args.config), args.schema, files)
        if plan_check is not None:
            plan_check(config)
    except ConfigError as exc:
        print(f"privanomaly: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
