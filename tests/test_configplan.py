"""`python -m privanomaly.configplan` (what `make reproduce` runs first) stops on the checks Snakemake would
otherwise only meet when it builds the DAG, naming the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from privanomaly.configcheck import DEFAULT_SCHEMA, ConfigError, check_config, merged_config
from privanomaly import configcheck, configplan
from privanomaly.configplan import check_plan

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
    proc = subprocess.run([sys.executable, "-m", "privanomaly.configplan", "--configfile", str(bad)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stderr == ("privanomaly: invalid configuration:\n  config paper_a.eps_ref=7.0 must be one of "
                           "paper_a.eps_grid [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0]\n"), proc.stderr


def test_make_runs_the_plan_check():
    assert "CONFIGCHECK := $(BIN)/python -m privanomaly.configplan" in (ROOT / "Makefile").read_text()


def test_results_dir_that_is_a_file_is_named(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(ConfigError) as err:
        _check(tmp_path, f"results_dir: {afile}\n")
    assert str(err.value) == (f"invalid configuration:\n  results_dir: '{afile}' is a file, not a directory; "
                              "set results_dir to a directory")


def test_help_names_its_own_command(capsys):
    # was: `python -m privanomaly.configplan --help` printed "usage: configplan.py" and configcheck's docstring
    for mod, main in (("configplan", configplan.main), ("configcheck", configcheck.main)):
        with pytest.raises(SystemExit):
            main(["--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert out.startswith(f"usage: python -m privanomaly.{mod} "), out
        assert ("then the workflow plan's checks" in out) == (mod == "configplan"), out
        assert ":class:" not in out
