"""A sha256 written unquoted in YAML that is all digits is read as a number: the config check and the dataset
entry check say to quote it (naming the key and the file:line)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from privanomaly.config.check import ConfigError, check_config, merged_config
from privanomaly.datasets import DataError, check_dataset_entry

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
DIGITS = "1234567890" * 6 + "1234"  # 64 digits: a valid sha256 text, a number when unquoted

OVERLAY = f"""\
datasets:
  mine:
    files:
      - path: data/mine.csv
        sha256: {DIGITS}
    format: csv
    label: {{column: y, anomaly_values: [1]}}
paper_a:
  extra_datasets: [mine]
"""


def test_yaml_reads_an_unquoted_digit_sha256_as_a_number():
    assert yaml.safe_load(OVERLAY)["datasets"]["mine"]["files"][0]["sha256"] == int(DIGITS)


def test_config_check_says_to_quote_an_unquoted_digit_sha256(tmp_path):
    over = tmp_path / "overlay.yaml"
    over.write_text(OVERLAY)
    files = [str(ROOT / "config.yaml"), str(over)]
    with pytest.raises(ConfigError) as exc:
        check_config(merged_config(files), SCHEMA, files)
    msg = str(exc.value)
    assert f"config key datasets.mine.files[0].sha256 ({over}:5): {DIGITS} is not of type 'string'" in msg, msg
    assert 'Write it in quotes ("...")' in msg and "read by YAML as a number" in msg, msg
    # quoted, the same digits pass the check
    over.write_text(OVERLAY.replace(f"sha256: {DIGITS}", f'sha256: "{DIGITS}"'))
    check_config(merged_config(files), SCHEMA, files)


@pytest.mark.parametrize("value", [int(DIGITS), 1e5])
def test_dataset_entry_check_says_to_quote_a_numeric_sha256(value):
    entry = {"files": [{"path": "data/mine.csv", "sha256": value}], "format": "csv",
             "label": {"column": "y", "anomaly_values": [1]}}
    with pytest.raises(DataError) as exc:
        check_dataset_entry("mine", entry)
    msg = str(exc.value)
    assert msg.startswith(f"datasets.mine.files[0].sha256: {value!r} is a number, not a sha256 text"), msg
    assert "write it in quotes" in msg, msg
    entry["files"][0]["sha256"] = DIGITS
    check_dataset_entry("mine", entry)
