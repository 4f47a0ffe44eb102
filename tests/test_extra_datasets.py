"""Adding is adding: an overlay adds datasets to the papers' lists without retyping them
(``paper_a.extra_datasets``, ``paper_b.extra_datasets``: one entry registers a dataset for paper B), and a
dataset added to paper A does not pull the paper's claim sweep along (privanomaly.config.merge, applied by the
config check)."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from privanomaly.config import merge as configmerge
from privanomaly.config.check import ConfigError, check_config, merged_config

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
PAPER_A = ["creditcard", "aps", "synthetic_a", "mammography", "thyroid"]
ENTRY = {"files": [{"path": "mine.csv"}], "format": "csv", "label": {"column": "y", "anomaly_values": [1]}}


def checked(tmp_path: Path, overlay: dict) -> dict:
    over = tmp_path / "my.yaml"
    over.write_text(yaml.safe_dump(overlay))
    files = [str(ROOT / "config.yaml"), str(over)]
    return check_config(merged_config(files), SCHEMA, files)


def test_paper_a_extra_dataset_keeps_the_papers_list_and_the_claim_sweep(tmp_path):
    cfg = checked(tmp_path, {"datasets": {"mine": ENTRY}, "paper_a": {"extra_datasets": ["mine"]}})
    assert cfg["paper_a"]["datasets"] == [*PAPER_A, "mine"]
    assert cfg["sweeps"]["paperAbetaR"]["datasets"] == PAPER_A  # the claim sweep: the paper's datasets only
    assert cfg["paper_a"]["claims"]["sweep"] == "paperAbetaR"


def test_own_datasets_alone_do_not_pull_the_claim_sweep(tmp_path, capsys):
    cfg = checked(tmp_path, {"datasets": {"mine": ENTRY},
                             "paper_a": {"datasets": ["mine"], "growth": {"datasets": ["mine"]}}})
    assert "paperAbetaR" not in cfg["sweeps"] and cfg["paper_a"]["claims"]["sweep"] is None
    assert "paperBkR" in cfg["sweeps"]  # other sweeps untouched
    assert "sweeps.paperAbetaR: not run (none of its datasets" in capsys.readouterr().err


def test_claim_sweep_is_fitted_to_a_shorter_paper_a_list(tmp_path):
    cfg = checked(tmp_path, {"paper_a": {"datasets": ["thyroid", "synthetic_a"], "growth": {"datasets": ["thyroid"]}}})
    assert cfg["sweeps"]["paperAbetaR"]["datasets"] == ["synthetic_a", "thyroid"]


def test_one_entry_registers_a_dataset_for_paper_b(tmp_path):
    cfg = checked(tmp_path, {"datasets": {"mine": ENTRY}, "paper_b": {"extra_datasets": {"mine": "My data"}}})
    pb = cfg["paper_b"]
    assert pb["datasets"]["mine"] == "My data" and pb["datasets"]["synthetic_b1"] == "Synthetic 1"
    assert pb["scenario1"]["datasets"] == ["synthetic_b1", "adult_b1", "mine"]


def test_unknown_extra_dataset_names_the_key(tmp_path):
    with pytest.raises(ConfigError, match=r"config key paper_a.extra_datasets\[0\]: unknown dataset 'nope'"):
        checked(tmp_path, {"paper_a": {"extra_datasets": ["nope"]}})
    with pytest.raises(ConfigError, match=r"config key paper_b.extra_datasets\[0\]: unknown dataset 'nope'"):
        checked(tmp_path, {"paper_b": {"extra_datasets": {"nope": "Nope"}}})


def test_resolve_is_idempotent(tmp_path):
    cfg = checked(tmp_path, {"datasets": {"mine": ENTRY}, "paper_a": {"extra_datasets": ["mine"]},
                             "paper_b": {"extra_datasets": {"mine": "My data"}}})
    again = copy.deepcopy(cfg)
    assert configmerge.resolve(again) == [] and again == cfg


@pytest.mark.mirror
@pytest.mark.slow
def test_dag_has_the_papers_rows_plus_the_new_dataset(tmp_path):
    csv = tmp_path / "mine.csv"
    csv.write_text("a,b,y\n" + "".join(f"{i % 7},{i % 5},{int(i % 20 == 0)}\n" for i in range(200)))
    over = tmp_path / "my.yaml"
    over.write_text(yaml.safe_dump({"results_dir": str(tmp_path / "results"),
                                    "datasets": {"mine": {**ENTRY, "files": [{"path": str(csv)}]}},
                                    "paper_a": {"extra_datasets": ["mine"]}}))
    snakemake = str(Path(sys.executable).with_name("snakemake"))
    out = subprocess.run([snakemake, "-n", "paper_a_all", "--configfile", str(over), "--config",
                          f"data_mirror={MIRROR}"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    dry = out.stdout
    for name in ("mine", "thyroid", "mammography", "synthetic_a"):
        assert f"paper_a/work/selection/{name}.json" in dry, name
    assert "sweeps/paperAbetaR/points/dataset~mine" not in dry
