"""Snakemake commands written in the docs (inline code and ``# my.yaml — snakemake ...`` comments) put their
targets before ``--configfile``/``--config``: both options take every following word, so a target after them is
read as a config file (``FileNotFoundError: 'sweeps_all'``) or as an unparsable ``key=value``. The README's bash
blocks are run by tests/test_readme_commands.py; this covers the commands quoted in prose."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").glob("*.md"))]
# config files and rule files whose comments show commands (e.g. .scale/config.yaml's "by hand" lines)
COMMENTED = [ROOT / "config.yaml", ROOT / ".test" / "config.yaml", ROOT / ".scale" / "config.yaml",
             *sorted((ROOT / "profiles").glob("*/config.yaml")), *sorted((ROOT / "workflow" / "rules").glob("*.smk")),
             ROOT / "Makefile"]
INLINE = re.compile(r"`([^`\n]*\bsnakemake\b[^`\n]*)`")
COMMENT = re.compile(r"#\s*\S+\.yaml\s+[—-]\s+(\S*snakemake\b.*)$", re.M)
COMMENT_LINE = re.compile(r"^#\s+((?:\S*/)?snakemake\s.*)$", re.M)  # a comment line that is a command


def commands(text: str) -> list[str]:
    return ([m.group(1) for m in INLINE.finditer(text)] + [m.group(1) for m in COMMENT.finditer(text)]
            + [m.group(1) for m in COMMENT_LINE.finditer(text)])


def misplaced(cmd: str) -> list[str]:
    """Words after --configfile that are not config files, or after --config that are not key=value."""
    try:
        words = shlex.split(cmd.replace("…", ""))
    except ValueError:
        return []
    bad, opt = [], None
    for w in words:
        if w.startswith("-"):
            opt = w
            continue
        if opt == "--configfile" and not re.search(r"\.ya?ml$|^<|\.\.\.$", w):
            bad.append(w)
        elif opt == "--config" and "=" not in w and not w.startswith("<"):
            bad.append(w)
        elif opt not in ("--configfile", "--config"):
            opt = None
    return bad


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_targets_come_before_configfile_and_config(doc):
    # was: CONVENTIONS.md and the guide said `snakemake --configfile my.yaml sweeps_all`
    bad = {c: misplaced(c) for c in commands(doc.read_text(encoding="utf-8")) if misplaced(c)}
    assert not bad, f"{doc.name}: words read as config files or key=value: {bad}"


@pytest.mark.parametrize("path", COMMENTED, ids=lambda p: str(p.relative_to(ROOT)))
def test_commands_in_config_and_rule_comments_put_targets_first(path):
    # was: .scale/config.yaml's "by hand" lines `snakemake --cores 2 --configfile .scale/config.yaml scale_all`
    # (FileNotFoundError: 'scale_all') and `... --config data_mirror=<real mirror> standin_mirror`
    bad = {c: misplaced(c) for c in commands(path.read_text(encoding="utf-8")) if misplaced(c)}
    assert not bad, f"{path.name}: words read as config files or key=value: {bad}"


def test_the_check_sees_a_misplaced_target():
    assert misplaced("snakemake --configfile my.yaml sweeps_all") == ["sweeps_all"]
    assert misplaced("snakemake --cores 8 --config data_mirror=x paper_a_all") == ["paper_a_all"]
    assert misplaced("snakemake --cores 8 sweeps_all --configfile my.yaml --config seed=7") == []
    assert commands("# my.yaml — snakemake --cores 8 --configfile my.yaml sweeps_all\n") == [
        "snakemake --cores 8 --configfile my.yaml sweeps_all"]
    assert commands("#   snakemake --cores 2 --configfile .scale/config.yaml scale_all\n") == [
        "snakemake --cores 2 --configfile .scale/config.yaml scale_all"]
    assert misplaced("snakemake --cores 2 --configfile .scale/config.yaml scale_all") == ["scale_all"]
