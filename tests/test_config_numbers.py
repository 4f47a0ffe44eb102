"""Numbers the schema's bounds cannot see are rejected by the config check, naming the key and the fix:
NaN and infinity (YAML ``.nan``, ``.inf``: every comparison with NaN is false, so ``minimum`` passes them), and
exponent notation that YAML 1.1 reads as text (``1.0e9``, ``1e-3``: the message says to write ``1.0e+9``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from privanomaly.config.check import ConfigError, check_config, merged_config, number_fix

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")


def _error(tmp_path: Path, text: str) -> str:
    over = tmp_path / "overlay.yaml"
    over.write_text(text)
    files = [str(ROOT / "config.yaml"), str(over)]
    with pytest.raises(ConfigError) as exc:
        check_config(merged_config(files), SCHEMA, files)
    return str(exc.value)


@pytest.mark.parametrize("spelled", [".nan", ".inf", "-.inf", ".NaN"])
def test_nonfinite_sweep_eps_is_rejected_naming_the_key(tmp_path, spelled):
    msg = _error(tmp_path, f"sweeps:\n  paperAbetaR:\n    eps: [0.5, {spelled}]\n")
    assert "config key sweeps.paperAbetaR.eps[1] (" in msg and "overlay.yaml:3)" in msg, msg
    assert "is not a finite number" in msg and "write a finite number" in msg


def test_nonfinite_scalar_is_rejected(tmp_path):
    msg = _error(tmp_path, "paper_a:\n  eps_ref: .nan\n")
    assert "config key paper_a.eps_ref (" in msg and ".nan is not a finite number" in msg, msg


def test_exponent_read_as_text_names_the_key_and_the_fix(tmp_path):
    msg = _error(tmp_path, "paper_a:\n  eps_grid: [1.0e9]\n")
    assert "config key paper_a.eps_grid[0] (" in msg and "write 1.0e+9" in msg, msg
    msg = _error(tmp_path, "paper_a:\n  n_trials: 1.0e3\n")  # an integer key: the integer written out
    assert "config key paper_a.n_trials (" in msg and "write 1000" in msg, msg


@pytest.mark.parametrize("text, fix", [("1.0e9", "1.0e+9"), ("1e-3", "1.0e-3"), ("-2.5E10", "-2.5e+10"),
                                       (".5e3", "0.5e+3"), ("5.e3", "5.0e+3")])
def test_number_fix_is_read_as_the_same_number(text, fix):
    assert yaml.safe_load(text) == text  # YAML 1.1 reads it as text
    assert number_fix(text) == fix
    assert yaml.safe_load(fix) == float(text)


def test_number_fix_leaves_other_text_alone():
    assert number_fix("thyroid") is None and number_fix("1e") is None and number_fix("e5") is None
    assert number_fix("1e9", integer=True) == "1000000000"


def test_shipped_configs_pass():
    for overlay in ([], [str(ROOT / ".test" / "config.yaml")]):
        files = [str(ROOT / "config.yaml"), *overlay]
        check_config(merged_config(files), SCHEMA, files)


def test_nonfinite_number_from_the_command_line_is_located_at_config():
    # `--config seed=nan` was located at config.yaml:7, whose seed is 20191111
    files = [str(ROOT / "config.yaml")]
    config = merged_config(files)
    config["seed"] = float("nan")
    with pytest.raises(ConfigError, match=r"config key seed \(--config\): \.nan is not a finite number"):
        check_config(config, SCHEMA, files)


def test_nested_text_from_the_command_line_says_to_use_an_overlay(tmp_path):
    # `--config paper_a='{eps_ref: 0.5}'` hands over the text '0.5'
    files = [str(ROOT / "config.yaml")]
    config = merged_config(files)
    config["paper_a"]["eps_ref"] = "0.5"
    with pytest.raises(ConfigError, match=r"config key paper_a\.eps_ref \(--config\): '0\.5' is not of type 'number'; a "
                                          r"value nested in --config arrives as text .* an overlay file"):
        check_config(config, SCHEMA, files)


@pytest.mark.parametrize("word", ["null", "Null", "NULL"])
def test_data_mirror_null_from_the_command_line_means_download(word):
    # `--config data_mirror=null` arrives as the text 'null': it was taken as a directory named 'null', and the
    # message said to set data_mirror to null
    files = [str(ROOT / "config.yaml")]
    config = merged_config(files)
    config["data_mirror"] = word
    assert check_config(config, SCHEMA, files)["data_mirror"] is None
