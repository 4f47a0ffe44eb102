"""Content tracking of raw files: ``DataPlan.raw_sha256`` (a param of rule ``prepare``) changes when a raw
file's content changes, also when the file is restored from a backup with an *older* mtime (``cp -p``),
which Snakemake's mtime check alone misses; hashing is cached by (path, size, mtime_ns)."""

from __future__ import annotations

import hashlib
import json
import os

from privanomaly.run import provenance
from privanomaly.datasets.plan import DataPlan


def _config(tmp_path, files):
    return {"datasets": {"mine": {"files": files, "format": "csv", "label": {"column": "y"}},
                         "gen": {"generator": {"name": "gaussian_outliers"}}},
            "results_dir": str(tmp_path / "results"), "resources_dir": str(tmp_path / "resources"),
            "data_mirror": None}


def test_restored_file_with_older_mtime_changes_the_param(tmp_path):
    data = tmp_path / "mine.csv"
    data.write_text("a,y\n1,0\n2,1\n")
    plan = DataPlan(_config(tmp_path, [{"path": str(data)}]))
    first = plan.raw_sha256("mine")
    assert first == [hashlib.sha256(data.read_bytes()).hexdigest()]
    old = data.stat().st_mtime_ns
    data.write_text("a,y\n1,0\n3,1\n")  # the backup: other content ...
    os.utime(data, ns=(old - 10**9, old - 10**9))  # ... and an older mtime
    again = DataPlan(_config(tmp_path, [{"path": str(data)}])).raw_sha256("mine")
    assert again != first and again == [hashlib.sha256(data.read_bytes()).hexdigest()]


def test_missing_file_gives_the_pinned_sha_and_generators_nothing(tmp_path):
    pinned = "ab" * 32
    plan = DataPlan(_config(tmp_path, [{"path": "x/f.csv", "url": "https://example.org/f.csv", "sha256": pinned}]))
    assert plan.raw_sha256("mine") == [pinned]
    assert plan.raw_sha256("gen") == []


def test_hash_is_cached_by_path_size_and_mtime(tmp_path, monkeypatch):
    data = tmp_path / "big.bin"
    data.write_bytes(b"x" * 1000)
    cache = tmp_path / "resources" / provenance.SHA256_CACHE
    digest = provenance.cached_sha256(data, cache)
    assert digest == hashlib.sha256(b"x" * 1000).hexdigest()
    entry = json.loads(cache.read_text())[str(data.resolve())]
    assert entry[:2] == [1000, data.stat().st_mtime_ns] and entry[2] == digest
    provenance._MEMO.clear()  # a new process: the file cache answers, nothing is hashed

    def no_hashing(path):
        raise AssertionError("hashed again")

    monkeypatch.setattr("privanomaly.datasets.sources.sha256_file", no_hashing)
    assert provenance.cached_sha256(data, cache) == digest
    monkeypatch.undo()
    data.write_bytes(b"y" * 1000)  # same size; a new mtime_ns
    os.utime(data, ns=(entry[1] + 5, entry[1] + 5))
    assert provenance.cached_sha256(data, cache) == hashlib.sha256(b"y" * 1000).hexdigest()


def test_damaged_cache_is_rebuilt(tmp_path):
    data = tmp_path / "f.bin"
    data.write_bytes(b"abc")
    cache = tmp_path / "c.json"
    cache.write_text("{not json")
    provenance._MEMO.clear()
    assert provenance.cached_sha256(data, cache) == hashlib.sha256(b"abc").hexdigest()
    assert str(data.resolve()) in json.loads(cache.read_text())


def test_cache_of_valid_json_but_no_mapping_is_rebuilt(tmp_path):
    data = tmp_path / "f.bin"
    data.write_bytes(b"abc")
    cache = tmp_path / "c.json"
    cache.write_text("null\n")  # was AttributeError: 'NoneType' object has no attribute 'get'
    provenance._MEMO.clear()
    assert provenance.cached_sha256(data, cache) == hashlib.sha256(b"abc").hexdigest()
    assert str(data.resolve()) in json.loads(cache.read_text())


def test_a_resources_dir_that_cannot_be_written_only_loses_the_cache(tmp_path, monkeypatch):
    # a shared raw cache mounted read-only: every DAG build stopped with "OSError: [Errno 30] Read-only file
    # system: '.../resources/.sha256_cache.json...tmp.json'" (InputFunctionException in rule prepare)
    data = tmp_path / "mine.csv"
    data.write_text("a,y\n1,0\n2,1\n")

    def read_only(path, text):
        raise OSError(30, "Read-only file system", str(path))

    monkeypatch.setattr("privanomaly.io.write_text", read_only)
    provenance._MEMO.clear()
    plan = DataPlan(_config(tmp_path, [{"path": str(data)}]))
    assert plan.raw_sha256("mine") == [hashlib.sha256(data.read_bytes()).hexdigest()]
    assert not (tmp_path / "resources" / provenance.SHA256_CACHE).exists()
