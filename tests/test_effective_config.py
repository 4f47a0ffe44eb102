"""The recorded configuration of a run (privanomaly.config.effective) and the step progress bar (runlog)."""

from __future__ import annotations

import io as _io
import contextlib

import pytest
import yaml

from privanomaly.run import log as runlog
from privanomaly.config import effective as run_config


def test_report_path_forms():
    assert run_config.report_path(["snakemake", "--report", "out/r.html"]) == "out/r.html"
    assert run_config.report_path(["snakemake", "--report=x/y.zip", "--cores", "1"]) == "x/y.zip"
    assert run_config.report_path(["snakemake", "--report", "--cores", "1"]) is None
    assert run_config.report_path(["snakemake", "--cores", "1"]) is None
    assert run_config.is_report_run(["snakemake", "--report"])
    assert not run_config.is_report_run(["snakemake", "paper_a_all", "-n"])


def test_dump_round_trips_and_is_deterministic(tmp_path):
    cfg = {"results_dir": "results", "paper_a": {"datasets": ["a", "b"], "eps_ref": 1.0}, "seed": 7}
    text = run_config.dump(cfg, "results/effective_config.yaml")
    assert text == run_config.dump(dict(cfg), "results/effective_config.yaml")
    assert text.startswith("# The configuration of the run")
    assert yaml.safe_load(text) == cfg


def _record(tmp_path, results_dir, cfg):
    d = tmp_path / results_dir
    d.mkdir(parents=True)
    (d / run_config.RECORD_NAME).write_text(run_config.dump(cfg, "x"), encoding="utf-8")
    return d / run_config.RECORD_NAME


def test_report_run_replaces_the_config_by_the_record(tmp_path):
    recorded = {"results_dir": "results", "datasets": {"mine": {"format": "csv"}}, "data_mirror": "/m"}
    path = _record(tmp_path, "results", recorded)
    given = {"results_dir": "results", "datasets": {}}
    err = _io.StringIO()
    with contextlib.redirect_stderr(err):
        used = run_config.use_recorded_for_report(given, ["snakemake", "--report", "results/report.html"], tmp_path)
    assert used == path
    assert given == recorded  # replaced in place: the overlay's dataset and the mirror are back
    assert "differs from the configuration given now in: data_mirror, datasets" in err.getvalue()


def test_record_found_next_to_the_report_when_the_overlay_moved_results(tmp_path):
    recorded = {"results_dir": ".test/results", "seed": 3}
    _record(tmp_path, ".test/results", recorded)
    given = {"results_dir": "results", "seed": 1}  # the .test overlay was forgotten
    with contextlib.redirect_stderr(_io.StringIO()):
        run_config.use_recorded_for_report(given, ["snakemake", "--report", ".test/results/report.html"], tmp_path)
    assert given == recorded


def test_not_a_report_run_or_no_record_keeps_the_given_config(tmp_path):
    _record(tmp_path, "results", {"results_dir": "results", "seed": 3})
    given = {"results_dir": "results", "seed": 1}
    assert run_config.use_recorded_for_report(given, ["snakemake", "--cores", "2"], tmp_path) is None
    assert given["seed"] == 1
    other = {"results_dir": "elsewhere", "seed": 1}
    assert run_config.use_recorded_for_report(other, ["snakemake", "--report"], tmp_path) is None
    assert other["seed"] == 1


def test_unreadable_record_is_an_error_naming_it(tmp_path):
    d = tmp_path / "results"
    d.mkdir()
    (d / run_config.RECORD_NAME).write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(ValueError, match="effective_config.yaml: expected a YAML mapping"):
        run_config.use_recorded_for_report({"results_dir": "results"}, ["snakemake", "--report"], tmp_path)


def test_steps_bar_counts_the_steps_in_the_log():
    err = _io.StringIO()
    with contextlib.redirect_stderr(err):
        with runlog.steps("thyroid", ["exact errors", "trials"]) as step:
            step("exact errors")
            step("trials")
    out = err.getvalue()
    assert "thyroid" in out and "1/2" in out and "2/2" in out and "done" in out
    assert "trials" in out
    with contextlib.redirect_stderr(_io.StringIO()), pytest.raises(ValueError, match="unknown step 'nope'"):
        with runlog.steps("x", ["a"]) as step:
            step("nope")


def test_finished_message_names_only_the_start_files_the_run_wrote(tmp_path):
    results = tmp_path / "res"
    (results / "paper_a").mkdir(parents=True)
    (results / "paper_a" / "claims.md").write_text("x")  # a paper_a_all run: no index.md, no comparison.md
    msg = run_config.finished_message(results)
    assert f"start with {results}/paper_a/claims.md;" in msg
    assert "index.md" not in msg and "comparison.md" not in msg
    assert f"make report REPORT={results}/report.html" in msg
    (results / "index.md").write_text("x")
    (results / "paper_b").mkdir()
    (results / "paper_b" / "comparison.md").write_text("x")
    msg = run_config.finished_message(results)
    assert f"start with {results}/index.md (then {results}/paper_a/claims.md, {results}/paper_b/comparison.md)" in msg
    assert "start with" not in run_config.finished_message(tmp_path / "empty")
    assert "HTML report: make report," in run_config.finished_message("results")


def test_finished_message_commands_can_be_pasted_with_a_space_in_the_path(tmp_path):
    # the snakemake command was printed unquoted: pasted, `--report /tmp/my` `results/report.html` were two words
    results = tmp_path / "my results"
    msg = run_config.finished_message(results)
    quoted = f"'{results}/report.html'"
    assert f"make report REPORT={quoted}" in msg and f"snakemake --report {quoted} after" in msg, msg
