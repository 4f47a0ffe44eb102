"""Overlays that used to be taken silently or to fail far from their cause: a sweep removed by an overlay
(``sweeps: {name: null}``; ``sweeps: {}``, which changed nothing), one sweep name in two overlays (merged key by key
into an entry of neither file, the error naming no file), an output directory inside the source tree (``src``:
the run wrote src/data), and ``configplan --config`` (read as ``--configfile``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from privanomaly import preflight as configplan
from privanomaly.config.check import DEFAULT_SCHEMA, ConfigError, check_config, merged_config
from privanomaly.preflight import check_plan

ROOT = Path(__file__).resolve().parents[1]
MINE = ("sweeps:\n  mine:\n    kind: paper_a\n    datasets: [thyroid]\n    mechanisms: [sp, optimal_dp]\n"
        "    eps: [1.0]\n    k: [1]\n    beta: [5]\n    r: {fraction: [0.01]}\n")


def _checked(tmp_path: Path, *texts: str, capsys=None) -> dict:
    files = [str(ROOT / "config.yaml")]
    for i, text in enumerate(texts):
        files.append(str(tmp_path / f"overlay{i}.yaml"))
        Path(files[-1]).write_text(text)
    config = check_config(merged_config(files), DEFAULT_SCHEMA, files)
    check_plan(config)
    return config


def test_an_overlay_removes_a_default_sweep_with_null(tmp_path, capsys):
    config = _checked(tmp_path, "sweeps:\n  paperBkR: null\n")  # was: "None is not of type 'object'"
    assert list(config["sweeps"]) == ["paperAbetaR"]
    assert f"sweeps.paperBkR: removed (sweeps.paperBkR: null in {tmp_path / 'overlay0.yaml'})" in capsys.readouterr().err


def test_an_empty_sweeps_mapping_removes_the_sweeps_before_it_and_says_so(tmp_path, capsys):
    # was silently ignored: the files merge key by key, and {} has no key
    config = _checked(tmp_path, "sweeps: {}\n")
    assert config["sweeps"] == {} and config["paper_a"]["claims"]["sweep"] is None
    err = capsys.readouterr().err
    assert f"sweeps.paperAbetaR: removed (sweeps: {{}} in {tmp_path / 'overlay0.yaml'})" in err
    assert "paper_a.claims.sweep: null (its sweep paperAbetaR is removed; claims A3, A6, A8 from the tables)" in err
    config = _checked(tmp_path, "sweeps: {}\n", MINE)  # the sweeps of the files after it stay
    assert list(config["sweeps"]) == ["mine"]
    config = _checked(tmp_path, MINE, "sweeps: {}\n")
    assert config["sweeps"] == {}


def test_one_sweep_in_two_overlays_names_both_files(tmp_path, capsys):
    other = "sweeps:\n  mine:\n    kind: paper_b\n    k: [3]\n"
    with pytest.raises(ConfigError) as err:  # was an error about a key of the mixed entry, naming neither file
        _checked(tmp_path, MINE, other)
    a, b = tmp_path / "overlay0.yaml", tmp_path / "overlay1.yaml"
    assert f"config key sweeps.mine: defined as paper_a in {a} and as paper_b in {b}: two sweeps under one name" in str(
        err.value)
    with pytest.raises(ConfigError) as err:  # the same kind, a schema error in the mixed entry: both files named
        _checked(tmp_path, MINE, "sweeps:\n  mine:\n    k: [0]\n")
    assert f"sweeps.mine is defined in {a} and {b}: overlays merge a sweep key by key" in str(err.value)
    config = _checked(tmp_path, MINE, "sweeps:\n  mine:\n    eps: [2.0]\n")  # a tweak of one key: merged, logged
    assert config["sweeps"]["mine"]["eps"] == [2.0] and config["sweeps"]["mine"]["beta"] == [5]
    assert f"sweeps.mine is defined in {a} and {b}" in capsys.readouterr().err


@pytest.mark.parametrize("value, why", [(".", "is the source tree itself"), ("..", "holds the source tree"),
                                        ("src", "is the source tree's src/"), ("workflow/x", "is inside the source "
                                                                                           "tree's workflow/")])
@pytest.mark.parametrize("key", ["results_dir", "resources_dir"])
def test_an_output_directory_in_the_source_tree_is_refused(tmp_path, monkeypatch, key, value, why):
    monkeypatch.chdir(ROOT)  # relative to the working directory, as Snakemake's
    with pytest.raises(ConfigError) as err:  # with src the run wrote src/data and src/benchmarks
        _checked(tmp_path, f"{key}: {value}\n")
    assert f"config key {key} ({tmp_path / 'overlay0.yaml'}:1): {value!r} {why}" in str(err.value)
    assert "use a directory of its own" in str(err.value)


def test_an_output_directory_beside_the_tree_or_in_results_is_taken(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert _checked(tmp_path, "results_dir: .test/results\n")["results_dir"] == ".test/results"
    monkeypatch.chdir(tmp_path)  # a user's directory: "." is theirs, not the source tree
    assert _checked(tmp_path, "results_dir: .\n")["results_dir"] == "."


@pytest.mark.subprocess
def test_configplan_reads_config_as_config_not_configfile(capsys):
    # was: --config was taken as an abbreviation of --configfile ("config file not found: seed=-1")
    assert configplan.main(["--config", "seed=-1"]) == 1
    assert "config key seed (--config): -1 is less than the minimum of 0" in capsys.readouterr().err
    assert configplan.main(["--config", "seed=5"]) == 0
    with pytest.raises(SystemExit):
        configplan.main(["--configf", "x.yaml"])  # no abbreviation of options
    assert "unrecognized arguments: --configf" in capsys.readouterr().err
    proc = subprocess.run([sys.executable, "-m", "privanomaly.preflight", "--config", "seed"], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert proc.returncode == 1 and "--config seed: Invalid config definition" in proc.stderr, proc.stderr
