"""CITATION.cff is valid Citation File Format 1.2.0 and agrees with pyproject.toml and the README; LICENSE is MIT.

The schema (tests/data/citation_file_format_1.2.0.schema.json) is the format's published JSON schema
(https://citation-file-format.github.io/1.2.0/schema.json, CC-BY-4.0), the one ``cffconvert --validate`` uses.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "tests" / "data" / "citation_file_format_1.2.0.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def errors(doc: dict) -> list[str]:
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]


def test_citation_file_is_valid_cff(cff):
    assert errors(cff) == []


def test_the_schema_check_catches_a_broken_file(cff):
    broken = {k: v for k, v in cff.items() if k != "authors"}
    assert any("'authors' is a required property" in e for e in errors(broken))
    assert errors({**cff, "cff-version": "1.2"}) != []
    assert errors({**cff, "references": [{"type": "article", "title": "no authors"}]}) != []


def test_citation_names_the_two_papers_and_matches_the_project(cff):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert str(cff["version"]) == project["version"]
    assert cff["license"] == project["license"]["text"] == "MIT"
    refs = {r["title"]: r for r in cff["references"]}
    assert set(refs) == {"How to Accurately and Privately Identify Anomalies", "Differentially Private Analysis of Outliers"}
    assert refs["How to Accurately and Privately Identify Anomalies"]["doi"] == "10.1145/3319535.3363209"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "10.1145/3319535.3363209" in readme and "1507.06763" in readme  # the README's BibTeX: the same papers
    assert "CITATION.cff" in readme


def test_license_file_is_mit():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text
