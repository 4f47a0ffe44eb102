"""``make report`` after an incomplete run (privanomaly.report.partial): it names the missing outputs by rule,
says how to finish the run, lists them next to the report and builds the report of the outputs that exist
(``snakemake --report`` alone stops on the first missing one: "marked for report but does not exist")."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from privanomaly.report import partial

SUMMARY = "output_file\tdate\trule\tlog-file(s)\tstatus\tplan\n{rows}"


def fake_snakemake(tmp_path: Path, rows: list[tuple[str, ...]]) -> Path:
    """A stand-in for the snakemake executable: prints a --summary of ``rows`` ((path, rule, status[, plan])),
    records every call."""
    calls = tmp_path / "calls.jsonl"
    table = SUMMARY.format(rows="".join(f"{r[0]}\t-\t{r[1]}\t-\t{r[2]}\t{r[3] if len(r) > 3 else 'no update'}\n"
                                        for r in rows))
    exe = tmp_path / "snakemake"
    exe.write_text(f"#!{sys.executable}\nimport json, sys\n"
                   f"open({str(calls)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
                   f"print({table!r}) if '--summary' in sys.argv else None\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return exe


def calls(tmp_path: Path) -> list[list[str]]:
    return [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]


@pytest.mark.subprocess
def test_incomplete_run_lists_missing_and_reports_what_exists(tmp_path, capsys):
    done = tmp_path / "results" / "paper_a" / "tables" / "table1.csv"
    done.parent.mkdir(parents=True)
    done.write_text("dataset\nthyroid\n")
    gone = tmp_path / "results" / "paper_b" / "tables" / "scenario1_x_paper.csv"
    exe = fake_snakemake(tmp_path, [(str(done), "paper_a_table1", "ok"), (str(gone), "paper_b_scenario1", "missing")])
    report = tmp_path / "results" / "report.html"
    rc = partial.run(str(exe), ["--configfile", "my file.yaml"], str(report), "make reproduce")
    assert rc == 0
    err = capsys.readouterr().err
    assert "1 of 2 outputs are missing" in err and "paper_b_scenario1: 1 missing" in err
    assert "Finish the run with `make reproduce CONFIG='my file.yaml'`" in err
    assert f"its log under {tmp_path / 'results' / 'logs'}/<rule>/" in err
    assert partial.missing_list_path(report).read_text() == f"paper_b_scenario1\t{gone}\n"
    summary_call, report_call = calls(tmp_path)
    assert summary_call == ["--configfile", "my file.yaml", "--summary"]
    assert report_call[-3:] == ["--report", str(report), str(done)]  # only the existing output as a target


@pytest.mark.subprocess
def test_finishing_an_incomplete_run_reruns_its_recorded_configuration(tmp_path, capsys):
    # `make report` needs no CONFIG (the record names the run), so the finish command must name the record:
    # plain `make reproduce` would run config.yaml without the run's overlay, into another results_dir
    results = tmp_path / ".test" / "results"
    done = results / "paper_a" / "claims.md"
    done.parent.mkdir(parents=True)
    done.write_text("x")
    record = results / "effective_config.yaml"
    record.write_text("results_dir: .test/results\n")
    exe = fake_snakemake(tmp_path, [(str(done), "paper_a_claims", "ok"),
                                    (str(results / "paper_b" / "comparison.md"), "paper_b_comparison", "missing")])
    assert partial.run(str(exe), ["--config", "data_mirror=/m"], str(results / "report.html"), "make reproduce") == 0
    err = capsys.readouterr().err
    assert f"Finish the run with `make reproduce CONFIG={record}`" in err
    assert "only some targets were built" in err
    assert f"then run `make report REPORT={results / 'report.html'}` again" in err


def test_finish_command_without_a_record_names_the_overlay_or_nothing(tmp_path):
    record = tmp_path / "effective_config.yaml"  # absent: results written before runs recorded their config
    assert partial.finish_command("make reproduce", ["--configfile", "my.yaml", "--config", "a=1"], record) == (
        "make reproduce CONFIG=my.yaml")
    assert partial.finish_command("make reproduce", ["--config", "data_mirror=/m"], record) == "make reproduce"


@pytest.mark.subprocess
def test_complete_run_is_plain_report_and_uses_the_recorded_config(tmp_path):
    done = tmp_path / "results" / "index.md"
    done.parent.mkdir(parents=True)
    done.write_text("x")
    (tmp_path / "results" / "effective_config.yaml").write_text("seed: 1\n")
    report = tmp_path / "results" / "report.html"
    partial.missing_list_path(report).write_text("stale\n")
    exe = fake_snakemake(tmp_path, [(str(done), "report_index", "ok")])
    assert partial.run(str(exe), [], str(report), "make reproduce") == 0
    summary_call, report_call = calls(tmp_path)
    assert summary_call == ["--configfile", str(tmp_path / "results" / "effective_config.yaml"), "--summary"]
    assert report_call == ["--cores", "1", "--report", str(report)]
    assert not partial.missing_list_path(report).exists()


def test_parse_summary_skips_snakemake_chatter():
    text = "Building DAG of jobs...\n" + SUMMARY.format(rows="a.csv\t-\tr1\t-\tok\tno update\nb.csv\t-\tr2\t-\tmissing\tupdate pending\n")
    rows = partial.parse_summary(text)
    assert [(o.path, o.rule, o.status) for o in rows] == [("a.csv", "r1", "ok"), ("b.csv", "r2", "missing")]
    assert rows[1].missing


def test_report_run_lists_the_missing_outputs_on_its_front_page(tmp_path):
    from privanomaly.config import effective as run_config

    report = tmp_path / "results" / "report.html"
    report.parent.mkdir(parents=True)
    partial.missing_list_path(report).write_text("paper_b_scenario1\tresults/paper_b/x.csv\nsweep_point\tp.parquet\n")
    config = {"report": {"gallery": []}, "results_dir": str(tmp_path / "results")}
    argv = ["snakemake", "--report", str(report)]
    assert run_config.add_missing_outputs(config, argv) == ["results/paper_b/x.csv", "p.parquet"]
    assert config["report"]["missing_outputs"] == ["results/paper_b/x.csv", "p.parquet"]
    assert run_config.add_missing_outputs({"report": {}}, ["snakemake", "--report", str(tmp_path / "r.html")]) == []
    text = (partial.ROOT_REPORT_TEXT).read_text(encoding="utf-8")
    assert 'snakemake.config["report"].get("missing_outputs")' in text


@pytest.mark.subprocess
def test_outputs_out_of_date_are_not_reported_as_the_runs_results(tmp_path, capsys):
    """A run of a new configuration that stopped after recording it (killed, or a job failed) leaves outputs of
    the old one: --summary plans to write them again ("update pending"). They must not appear in the report of
    the recorded configuration as its results - here every output exists, so plain --report would show them."""
    results = tmp_path / "results"
    (results / "paper_a").mkdir(parents=True)
    current, old_table, old_figure = (results / "paper_a" / n for n in ("claims.md", "errors.csv", "errors.png"))
    for f in (current, old_table, old_figure):
        f.write_text("x")
    (results / "effective_config.yaml").write_text("seed: 1\n")  # the new configuration, recorded
    exe = fake_snakemake(tmp_path, [(str(current), "paper_a_claims", "ok", "no update"),
                                    (str(old_table), "paper_a_errors", "params changed", "update pending"),
                                    (str(old_figure), "paper_a_fig_errors", "ok", "update pending")])
    report = results / "report.html"
    assert partial.run(str(exe), [], str(report), "make reproduce") == 0
    err = capsys.readouterr().err
    assert "0 of 3 outputs are missing" in err and "2 are out of date" in err
    assert "paper_a_errors: 1 out of date" in err and "paper_a_fig_errors: 1 out of date" in err
    assert calls(tmp_path)[-1][-3:] == ["--report", str(report), str(current)]  # the current output only
    assert partial.missing_list_path(report).read_text() == (f"paper_a_errors\t{old_table}\tout of date\n"
                                                             f"paper_a_fig_errors\t{old_figure}\tout of date\n")
    rows = partial.parse_summary(SUMMARY.format(rows="a\t-\tr\t-\tparams changed\tupdate pending\n"))
    assert rows[0].plan == "update pending"


def test_the_front_page_tells_missing_outputs_from_ones_out_of_date(tmp_path):
    """One figure deleted after a run: its job's other output (the PDF) and what reads it (index.md) exist but are
    out of date. The report's front page must not call those 'missing': the list says which are out of date and
    the heading counts 'missing or out of date' (the terminal message already told them apart)."""
    import jinja2
    from types import SimpleNamespace as NS

    from privanomaly.config import effective as run_config

    outputs = [partial.Output("res/s/gain.png", "sweep_plot", "missing", "update pending"),
               partial.Output(str(tmp_path / "gain.pdf"), "sweep_plot", "ok", "update pending"),
               partial.Output(str(tmp_path / "index.md"), "report_index", "ok", "update pending")]
    for o in outputs[1:]:
        Path(o.path).write_text("x")
    report = tmp_path / "report.html"
    partial.missing_list_path(report).write_text(partial.missing_lines(outputs))
    from scope_checker import merged_config

    config = merged_config(Path(__file__).resolve().parents[1])
    config["results_dir"] = str(tmp_path)
    listed = run_config.add_missing_outputs(config, ["snakemake", "--report", str(report)])
    assert listed == ["res/s/gain.png", f"{outputs[1].path} (out of date)", f"{outputs[2].path} (out of date)"]
    text = partial.ROOT_REPORT_TEXT.read_text(encoding="utf-8")
    page = jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(text).render(
        snakemake=NS(config=config))
    head = page[page.index("This run is incomplete"):]
    assert head.startswith("This run is incomplete: 3 outputs are missing or out of date")
    assert "* ``res/s/gain.png``" in head and f"* ``{outputs[2].path} (out of date)``" in head


@pytest.mark.subprocess
def test_results_without_a_recorded_configuration_say_so_and_stop(tmp_path, capsys):
    # was: the default config's DAG, and 267 "missing" outputs listed under the wrong folder
    results = tmp_path / "results"
    results.mkdir()
    (results / "index.md").write_text("x")
    exe = fake_snakemake(tmp_path, [(str(results / "index.md"), "report_index", "missing")])
    report = results / "report.html"
    assert partial.run(str(exe), ["--config", "data_mirror=/m"], str(report), "make reproduce") == 1
    err = capsys.readouterr().err
    assert f"privanomaly: no report: {results}/ holds no effective_config.yaml - no run recorded its configuration" in err
    assert "Run the workflow first (`make reproduce`, with CONFIG=<your overlay>" in err
    assert not (tmp_path / "calls.jsonl").exists() and not partial.missing_list_path(report).exists()  # nothing run
    assert partial.run(str(exe), [], str(tmp_path / "none" / "report.html"), "make reproduce") == 1
    assert f"{tmp_path / 'none'}/ does not exist" in capsys.readouterr().err
    # an overlay given explicitly (results of a run before runs recorded their configuration): as before
    assert partial.run(str(exe), ["--configfile", "old.yaml"], str(report), "make reproduce") == 0
