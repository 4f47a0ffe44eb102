"""privanomaly.run.provenance: config hash, git commit, dataset sha256s — the content of results/provenance.json."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from privanomaly.run import provenance


def test_config_hash_is_order_independent_and_sensitive():
    a = {"seed": 1, "paper_a": {"eps": [0.1, 1.0], "k": 1}, "datasets": {}}
    b = {"datasets": {}, "paper_a": {"k": 1, "eps": [0.1, 1.0]}, "seed": 1}
    assert provenance.config_sha256(a) == provenance.config_sha256(b)
    assert len(provenance.config_sha256(a)) == 64
    c = {**a, "paper_a": {"eps": [0.1, 1.0], "k": 2}}
    assert provenance.config_sha256(c) != provenance.config_sha256(a)
    # list order is meaningful
    d = {**a, "paper_a": {"eps": [1.0, 0.1], "k": 1}}
    assert provenance.config_sha256(d) != provenance.config_sha256(a)
    with pytest.raises(TypeError, match="config must be a mapping"):
        provenance.config_sha256([1, 2])


def test_package_versions_include_numpy_and_mark_missing():
    v = provenance.package_versions(["numpy", "surely-not-installed-pkg-xyz"])
    import numpy

    assert v == {"numpy": numpy.__version__, "surely-not-installed-pkg-xyz": None}


@pytest.mark.subprocess
@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_git_commit_clean_dirty_and_unknown(tmp_path):
    assert provenance.git_commit(tmp_path) == "unknown"  # not a checkout
    run = lambda *a: subprocess.run(["git", "-C", str(tmp_path), *a], check=True, capture_output=True)  # noqa: E731
    run("init", "-q")
    assert provenance.git_commit(tmp_path) == "unknown"  # no commit yet
    (tmp_path / "f.txt").write_text("1")
    run("add", "f.txt")
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x")
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert provenance.git_commit(tmp_path) == head
    (tmp_path / "untracked.txt").write_text("ignored")  # untracked files do not make it dirty
    assert provenance.git_commit(tmp_path) == head
    (tmp_path / "f.txt").write_text("2")
    assert provenance.git_commit(tmp_path) == head + "+dirty"
    sub = tmp_path / "sub"
    sub.mkdir()
    assert provenance.git_commit(sub) == "unknown"  # a directory inside another checkout is not one


def test_dataset_records_and_collect(tmp_path):
    (tmp_path / "thyroid.json").write_text(
        json.dumps(
            {
                "dataset": "thyroid",
                "source": {"path": "thyroid/38_thyroid.npz", "url": "https://x", "sha256": "ab" * 32},
                "rows": 3772,
                "dims": 6,
                "n_anomalies": 93,
                "steps": [],
            }
        )
    )
    (tmp_path / "syn.json").write_text(
        json.dumps(
            {
                "dataset": "syn",
                "source": {"generator": {"name": "gaussian_mixture"}, "seed_keys": [1, "synthetic", "syn"]},
                "rows": 10,
                "dims": 2,
                "n_anomalies": 1,
            }
        )
    )
    doc = provenance.collect({"seed": 5}, [tmp_path / "thyroid.json", tmp_path / "syn.json"], "abc")
    assert doc["datasets"]["thyroid"] == {
        "kind": "file",
        "path": "thyroid/38_thyroid.npz",
        "url": "https://x",
        "sha256": "ab" * 32,
        "rows": 3772,
        "dims": 6,
        "n_anomalies": 93,
        "provenance_file": "thyroid.json",
    }
    assert doc["datasets"]["syn"]["kind"] == "synthetic"
    assert doc["datasets"]["syn"]["seed_keys"] == [1, "synthetic", "syn"]
    assert doc["git_commit"] == "abc" and doc["seed"] == 5
    assert doc["config_sha256"] == provenance.config_sha256({"seed": 5})
    assert doc["packages"]["numpy"] and doc["python"]["version"].count(".") == 2
    # deterministic: same inputs, same document
    assert provenance.collect({"seed": 5}, [tmp_path / "syn.json", tmp_path / "thyroid.json"], "abc") == doc


def test_bad_dataset_provenance_names_the_file(tmp_path):
    (tmp_path / "bad.json").write_text("{trunc")
    with pytest.raises(ValueError, match=r"bad\.json: cannot read dataset provenance JSON"):
        provenance.dataset_records([tmp_path / "bad.json"])
