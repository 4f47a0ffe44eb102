"""The defaults of the Python API and of ``python -m privanomaly`` say they are the pipeline's (config.yaml):
``api.BETAS``/``FRACTIONS`` = ``paper_a.selection``, ``api.R_GRID`` = ``paper_b.tuning.r_grid``, the
``--k``/``--delta``/``--max-work`` help texts = ``paper_b.k``/``delta``/``scenario1.max_work``. A change of
config.yaml that is not carried over would leave the API tuning on another grid than the pipeline, silently."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
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


def test_a_claim_spends_at_most_the_eps_asked_for_but_the_printed_exponent():
    """docs/guide.md: claim(eps=...) is the (eps, delta) actually spent, at most the eps asked for, except
    exp_top_h_printed (Theorem 3: 2 eps)."""
    import privanomaly.audit  # noqa: F401 - registers the end-to-end mechanisms too
    from privanomaly import mechanisms

    over = {}
    for name in mechanisms.names():
        m = mechanisms.get(name)
        for eps in (0.1, 1.0, 3.0):
            try:
                claim = m.claim(eps=eps, delta=0.01, k=1, beta=5, h=2)
            except TypeError:
                claim = m.claim(eps=eps)
            if claim.epsilon > eps * (1 + 1e-12):
                over.setdefault(name, []).append(claim.epsilon / eps)
    assert over == {"exp_top_h_printed": [2.0, 2.0, 2.0]}


@pytest.mark.parametrize("module", ["privanomaly", "privanomaly.audit", "privanomaly.config.check",
                                    "privanomaly.preflight", "privanomaly.run.guard", "privanomaly.report.partial",
                                    "privanomaly.report.gallery", "privanomaly.report.catalogue"])
@pytest.mark.subprocess
def test_every_command_line_names_itself_in_its_help(module):
    # was: "usage: runguard.py", "usage: gallery.py", ... - not the command the docs give
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, check=True).stdout
    assert out.startswith(f"usage: python -m {module} "), out[:80]
