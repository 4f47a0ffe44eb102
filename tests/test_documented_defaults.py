"""The defaults of the Python API and of ``python -m privanomaly`` say they are the pipeline's (config.yaml):
``api.BETAS``/``FRACTIONS`` = ``paper_a.selection``, ``api.R_GRID`` = ``paper_b.tuning.r_grid``, the
``--k``/``--delta``/``--max-work`` help texts = ``paper_b.k``/``delta``/``scenario1.max_work``. A change of
config.yaml that is not carried over would leave the API tuning on another grid than the pipeline, silently."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import yaml

from privanomaly import api
from privanomaly.__main__ import parser

CONFIG = yaml.safe_load((Path(__file__).resolve().parents[1] / "config.yaml").read_text(encoding="utf-8"))


def _sub(name: str):
    return parser()._subparsers._group_actions[0].choices[name]


def _help(name: str, flag: str) -> tuple[object, str]:
    action = next(a for a in _sub(name)._actions if flag in a.option_strings)
    return action.default, action.help


def test_api_grids_are_the_pipelines():
    sel = CONFIG["paper_a"]["selection"]
    assert list(api.BETAS) == sel["betas"] and list(api.FRACTIONS) == sel["fractions"]
    assert api.R_GRID == CONFIG["paper_b"]["tuning"]["r_grid"]
    assert inspect.signature(api.choose_beta_r).parameters["metric"].default == CONFIG["paper_a"]["metric"]
    assert CONFIG["paper_b"]["tuning"]["tie_break"] == "smallest"  # what api.choose_r uses


def test_api_paper_b_defaults_are_the_pipelines():
    params = inspect.signature(api.release_outlier_count).parameters
    assert params["delta"].default == CONFIG["paper_b"]["delta"]
    assert params["max_work"].default == CONFIG["paper_b"]["scenario1"]["max_work"]
    assert inspect.signature(api.choose_r).parameters["k"].default == CONFIG["paper_b"]["k"]


def test_cli_help_states_its_real_defaults():
    pb = CONFIG["paper_b"]
    for flag, value in (("--k", pb["k"]), ("--delta", pb["delta"]), ("--max-work", pb["scenario1"]["max_work"])):
        default, text = _help("paper-b", flag)
        assert default == value, (flag, default, value)
        assert re.search(rf"default {re.escape(str(value))}\b", text), (flag, text)
    for sub, flag in (("paper-a", "--mechanism"), ("paper-b", "--mechanism"), ("paper-a", "--k")):
        default, text = _help(sub, flag)
        assert f"default {default}" in text, (sub, flag, text)
