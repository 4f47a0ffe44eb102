"""privanomaly.config.check.under_defaults: as a Snakemake module the user's config lies over config.yaml."""

from __future__ import annotations

from pathlib import Path

from privanomaly.config.check import under_defaults


def _files(tmp_path: Path) -> tuple[Path, Path]:
    defaults = tmp_path / "workflow" / "config.yaml"
    defaults.parent.mkdir()
    defaults.write_text("seed: 1\nresults_dir: results\npaper_b: {k: 3, fig1: {d_max: 20}}\n", encoding="utf-8")
    user = tmp_path / "user.yaml"
    user.write_text("paper_b: {fig1: {d_max: 6}}\n", encoding="utf-8")
    return defaults, user


def test_module_config_is_put_over_the_defaults_key_by_key(tmp_path):
    defaults, user = _files(tmp_path)
    config = {"paper_b": {"fig1": {"d_max": 6}}}
    assert under_defaults(config, defaults, [user]) == [str(defaults), str(user)]
    assert config == {"seed": 1, "results_dir": "results", "paper_b": {"k": 3, "fig1": {"d_max": 6}}}


def test_a_second_read_of_the_module_keeps_what_the_run_changed(tmp_path):
    """Each `use rule ... from` reads the module again with the same config: the defaults go under it once."""
    defaults, user = _files(tmp_path)
    config = {"paper_b": {"fig1": {"d_max": 6}}}
    under_defaults(config, defaults, [user])
    del config["results_dir"]  # e.g. a key the config check removes
    assert under_defaults(config, defaults, [user]) == [str(defaults), str(user)]
    assert "results_dir" not in config


def test_a_run_that_read_config_yaml_is_left_alone(tmp_path, monkeypatch):
    defaults, user = _files(tmp_path)
    monkeypatch.chdir(defaults.parent)
    config = {"seed": 2}
    assert under_defaults(config, defaults, ["config.yaml", str(user)]) == ["config.yaml", str(user)]
    assert config == {"seed": 2}
