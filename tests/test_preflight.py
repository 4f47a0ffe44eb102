"""`python -m privanomaly.preflight` (what `make reproduce` runs first) stops on the checks Snakemake would
otherwise only meet when it builds the DAG, naming the key."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from privanomaly.config.check import DEFAULT_SCHEMA, ConfigError, check_config, merged_config
from privanomaly.config import check as configcheck
from privanomaly import preflight as configplan
from privanomaly.preflight import check_plan

ROOT = Path(__file__).resolve().parents[1]

CASES = [
    ("paper_a: {eps_ref: 7.0}\n",
     "config paper_a.eps_ref=7.0 must be one of paper_a.eps_grid [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0]"),
    ("paper_a: {k_main: 7}\n", "config paper_a.k_main=7 must be one of paper_a.k_grid [1, 5, 10]"),
    ("paper_a: {datasets: [thyroid, nope]}\n", "paper_a.datasets[1]: unknown dataset 'nope'"),
    ("paper_b: {timing: {datasets: [nope]}}\n",
     "config paper_b.timing.datasets[0]: 'nope' is not a key of paper_b.datasets"),
    ("sweep_max_points: 1\n", "config sweeps.paperAbetaR: its grid has 400 points, more than sweep_max_points = 1"),
    ("paper_b: {readings_methods: [paper], scenario1: {methods: [fast]}}\n",
     "config paper_b.readings_methods[0]: 'paper' is not in paper_b.scenario1.methods ['fast']"),
    # passed make's check and stopped only the DAG build
    ("paper_a: {claims: {sweep: nosuch}}\n", "config paper_a.claims.sweep: 'nosuch' is not a sweep (known: "),
]


def _check(tmp_path: Path, text: str) -> None:
    overlay = tmp_path / "my.yaml"
    overlay.write_text(text)
    files = [str(ROOT / "config.yaml"), str(overlay)]
    check_plan(check_config(merged_config(files), DEFAULT_SCHEMA, files))


@pytest.mark.parametrize("text, expected", CASES)
def test_plan_check_names_the_key(tmp_path, text, expected):
    with pytest.raises(ConfigError) as err:
        _check(tmp_path, text)
    assert str(err.value).startswith(f"invalid configuration:\n  {expected}"), str(err.value)


@pytest.mark.parametrize("overlay", [None, ".test/config.yaml", ".scale/config.yaml"])
def test_shipped_configs_pass(tmp_path, overlay):
    files = [str(ROOT / "config.yaml")] + ([str(ROOT / overlay)] if overlay else [])
    check_plan(check_config(merged_config(files), DEFAULT_SCHEMA, files))  # .scale's mirror does not exist yet


@pytest.mark.subprocess
def test_command_line_exits_1_before_snakemake(tmp_path):
    bad = tmp_path / "my.yaml"
    bad.write_text("paper_a: {eps_ref: 7.0}\n")
    proc = subprocess.run([sys.executable, "-m", "privanomaly.preflight", "--configfile", str(bad)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stderr == ("privanomaly: invalid configuration:\n  config paper_a.eps_ref=7.0 must be one of "
                           "paper_a.eps_grid [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0]\n"), proc.stderr


def test_make_runs_the_plan_check():
    assert "CONFIGCHECK := $(BIN)/python -m privanomaly.preflight" in (ROOT / "Makefile").read_text()


def test_results_dir_that_is_a_file_is_named(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(ConfigError) as err:
        _check(tmp_path, f"results_dir: {afile}\n")
    assert str(err.value) == (f"invalid configuration:\n  results_dir: '{afile}' is a file, not a directory; "
                              "set results_dir to a directory")


def test_help_names_its_own_command(capsys):
    # was: `python -m privanomaly.preflight --help` printed "usage: configplan.py" and configcheck's docstring
    for mod, main in (("preflight", configplan.main), ("config.check", configcheck.main)):
        with pytest.raises(SystemExit):
            main(["--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert out.startswith(f"usage: python -m privanomaly.{mod} "), out
        assert ("then the workflow plan's checks" in out) == (mod == "preflight"), out
        assert ":class:" not in out


def test_the_workflow_hub_runs_no_check_and_prints_no_notice():
    """The config check (workflow/rules/config.smk -> privanomaly.preflight.check_workflow) is the one place the
    workflow checks its config; the run's notices print from the one onstart (preflight.notices). common.smk and
    inputs.smk only wire: they used to loop over check_dataset_entry, call check_papers and print the notices at
    every parse."""
    rules = ROOT / "workflow" / "rules"
    for name in ("common.smk", "inputs.smk"):
        text = (rules / name).read_text(encoding="utf-8")
        for word in ("check_dataset_entry", "check_papers", "check_sections", "check_known", r"\bprint\("):
            assert not re.search(word, text), (name, word)
    assert "RUN_PLAN = check_workflow(config" in (rules / "config.smk").read_text(encoding="utf-8")
    assert "notices(config, RUN_PLAN)" in (rules / "data.smk").read_text(encoding="utf-8")


@pytest.mark.mirror
def test_the_plan_is_built_once_by_the_config_check(tmp_path):
    """check_workflow returns what it built (the data plan, the papers' sets, the sweeps, the catalogue) and
    common.smk binds it: it used to build the DataPlan, the sets, the sweeps and the catalogue a second time."""
    text = (ROOT / "workflow" / "rules" / "common.smk").read_text(encoding="utf-8")
    for built in ("DataPlan(", "catalogue.load(", "pa_plan.sets(", "pb_plan.sets(", "SweepPlan("):
        assert built not in text, built
    files = [str(ROOT / "config.yaml"), str(ROOT / ".test" / "config.yaml")]
    config = check_config(merged_config(files), DEFAULT_SCHEMA, files)
    config = {**config, "data_mirror": str(tmp_path), "resources_dir": str(tmp_path / "resources")}
    from workflow_copy import MIRROR

    config = {**config, "data_mirror": str(MIRROR)}  # the .test datasets, credit card and APS left out
    plan = configplan.check_workflow(config, ROOT / "workflow" / "report")
    from privanomaly.report import catalogue

    assert plan.catalogue == catalogue.load(ROOT / "workflow" / "report" / "catalogue.yaml")
    assert "creditcard" in plan.data.unavailable()
    assert "creditcard" in plan.paper_a.missing and plan.paper_b.datasets
    assert plan.sweeps.a == ["paperAbetaR"] and plan.sweeps.claims_sweep("paperAbetaR") == "paperAbetaR"
    assert configplan.notices(config, plan) == configplan.notices(config)  # the same lines from the shared plan


def test_notices_name_the_datasets_a_run_leaves_out(tmp_path):
    """preflight.notices: the mirror line, each unavailable dataset with its reason, paper A's tables without
    it (a mirror without credit card and APS, as on CI)."""
    files = [str(ROOT / "config.yaml"), str(ROOT / ".test" / "config.yaml")]
    config = check_config(merged_config(files), DEFAULT_SCHEMA, files)
    config = {**config, "data_mirror": str(tmp_path), "resources_dir": str(tmp_path / "resources")}
    lines = configplan.notices(config)
    assert lines[0] == f"data_mirror: raw files are copied from {tmp_path} (sha256 checked)"
    assert any(line.startswith("creditcard: ") and "not in mirror" in line for line in lines), lines
    assert any(line.startswith("paper_a: creditcard left out of the tables (") for line in lines), lines
