"""privanomaly.datasets.plan.DataPlan: the dataset side of the workflow's plan (common.smk binds its methods)."""

from __future__ import annotations

import re

import pytest

from privanomaly.datasets.validation import DataError
from privanomaly.datasets.plan import DataPlan, wildcard_choice

SHA = "0" * 64


def _config(tmp_path, mirror=None):
    url = lambda p: {"path": p, "url": f"https://example.org/{p}", "sha256": SHA}  # noqa: E731
    return {
        "results_dir": "res",
        "resources_dir": str(tmp_path / "resources"),
        "data_mirror": mirror,
        "datasets": {
            "a": {"files": [url("a/a.csv")]},
            "b": {"files": [url("b/b.csv")]},
            "big": {"files": [url("big/big.csv")], "stand_in": {"note": "stand-in data: big", "generator": "g"}},
        },
    }


def test_availability_follows_the_mirror_and_the_raw_cache(tmp_path):
    mirror = tmp_path / "mirror"
    (mirror / "a").mkdir(parents=True)
    (mirror / "a" / "a.csv").write_text("x\n", encoding="utf-8")
    (tmp_path / "resources" / "raw" / "big").mkdir(parents=True)
    (tmp_path / "resources" / "raw" / "big" / "big.csv").write_text("x\n", encoding="utf-8")  # in the raw cache
    plan = DataPlan(_config(tmp_path, str(mirror)))
    assert plan.raw_files("big") == [str(tmp_path / "resources" / "raw" / "big" / "big.csv")]
    assert list(plan.unavailable()) == ["b"] and "not in mirror" in plan.unavailable()["b"]
    assert plan.available(["b", "a"]) == ["a"]
    assert plan.targets()[:2] == ["res/data/a.parquet", "res/data/a.json"]
    assert plan.targets()[-3:] == ["res/data/summary.csv", "res/data/summary.md", "res/data/unavailable.csv"]
    assert plan.run_records()[:3] == plan.targets()[-3:] and plan.run_records()[-1].startswith("res/")
    # without a mirror every file is attempted for download
    assert DataPlan(_config(tmp_path)).available() == ["a", "b", "big"]
    with pytest.raises(DataError, match="data_mirror"):
        DataPlan(_config(tmp_path, str(tmp_path / "nope"))).unavailable()


@pytest.mark.parametrize("mirror", [None, "mirror"])
def test_a_missing_local_file_is_an_error_naming_the_dataset_never_unavailable(tmp_path, mirror):
    (tmp_path / "mirror" / "a").mkdir(parents=True)
    (tmp_path / "mirror" / "a" / "a.csv").write_text("x\n", encoding="utf-8")
    cfg = _config(tmp_path, mirror and str(tmp_path / "mirror"))
    typo = tmp_path / "my_data" / "mine.cvs"
    cfg["datasets"]["mine"] = {"files": [{"path": str(typo)}]}
    with pytest.raises(DataError) as exc:
        DataPlan(cfg).unavailable()
    msg = str(exc.value)
    assert msg.startswith(f"datasets.mine.files[0]: local data file {typo} does not exist"), msg
    assert "has no url" in msg and "fix its path" in msg, msg
    typo.parent.mkdir()
    typo.write_text("x\n", encoding="utf-8")  # the file at its path: available
    plan = DataPlan(cfg)
    assert "mine" in plan.available() and "mine" not in plan.unavailable()
    # a paper dataset with a url that cannot be fetched offline stays unavailable (not an error)
    if mirror:
        assert list(plan.unavailable()) == ["b", "big"]


def test_names_are_checked_naming_the_key(tmp_path):
    plan = DataPlan(_config(tmp_path))
    assert plan.check_names(["b", "a"], "x.datasets") == ["b", "a"]
    with pytest.raises(DataError, match=r"x.datasets\[1\]: unknown dataset 'c'; known: a, b, big"):
        plan.check_names(["a", "c"], "x.datasets")
    with pytest.raises(DataError, match="x.dataset: unknown dataset 'c'"):
        plan.check_name("c", "x.dataset")
    assert plan.parquet("a") == "res/data/a.parquet"


def test_stand_ins_and_the_mirror_links(tmp_path):
    mirror = tmp_path / "mirror"
    (mirror / "a").mkdir(parents=True)
    (mirror / "a" / "a.csv").write_text("x\n", encoding="utf-8")
    plan = DataPlan(_config(tmp_path, str(mirror)))
    assert plan.stand_in_notes() == {"big": "stand-in data: big"} and plan.stand_in_notes(["a"]) == {}
    assert plan.standin_files() == {"big/big.csv": "g"}
    assert plan.standin_mirror_links() == ["a/a.csv"]  # b is not in the mirror, big is the stand-in itself
    assert DataPlan(_config(tmp_path)).standin_mirror_links() == []


def test_wildcard_choice_matches_exactly_the_values():
    rx = re.compile(f"(?:{wildcard_choice(['a.b', 'c'])})\\Z")
    assert rx.match("a.b") and rx.match("c") and not rx.match("aXb")
    assert not re.match(f"(?:{wildcard_choice([])})\\Z", "")


@pytest.mark.parametrize("mirror", [None, ""])
def test_download_mode_is_announced_never_silent(tmp_path, mirror):
    note = DataPlan(_config(tmp_path, mirror)).mirror_notice()
    assert note.startswith("data_mirror is not set") and "canonical URL" in note and "DATA_MIRROR=DIR" in note
    assert DataPlan(_config(tmp_path, str(tmp_path))).mirror_notice() == (
        f"data_mirror: raw files are copied from {tmp_path} (sha256 checked)")
