"""STAND-IN-DATA.md says "this results directory is a scale run, not a reproduction". `scale_all` is listed by
`snakemake --list-target-rules` in every run, so a user can build it with a normal configuration: the label must
then not be written over real results (no dataset is a stand-in), and the job says why instead."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace as NS

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "standin_readme.py"


def _run(tmp_path, notes, files):
    out = tmp_path / "results" / "STAND-IN-DATA.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    sm = NS(params=NS(notes=notes, files=files, seed=7), log=[str(tmp_path / "log.txt")], output=[str(out)])
    runpy.run_path(str(SCRIPT), init_globals={"snakemake": sm})
    return out


def test_a_run_without_stand_ins_gets_no_stand_in_label(tmp_path):
    with pytest.raises(ValueError, match=r"no dataset of this run is a stand-in.*make scale"):
        _run(tmp_path, {}, {})
    assert not (tmp_path / "results" / "STAND-IN-DATA.md").exists()


def test_a_scale_run_is_labelled_with_its_stand_ins(tmp_path):
    out = _run(tmp_path, {"creditcard": "stand-in data: generated"}, {"creditcard/creditcard.csv": "creditcard"})
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Stand-in data: this results directory is a scale run")
    assert "- `creditcard`: stand-in data: generated" in text and "`creditcard/creditcard.csv` (creditcard)" in text
