"""privanomaly.steps: the compute steps of workflow/steps.yaml (one rule each, steps.smk) and the values of the
workflow's plan they name (DataPlan, paper A/B, sweeps). The rules Snakemake builds from them are checked in
tests/test_report_workflow.py (log, benchmark, report items) and by every workflow test that runs them."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from privanomaly import steps
from privanomaly.paper_a import workflow_checks as pa_checks
from privanomaly.paper_b import workflow as pb_workflow
from privanomaly.plan import DataPlan
from privanomaly.report import catalogue
from privanomaly.sweeps.plan import SweepPlan

ROOT = Path(__file__).resolve().parents[1]
STEPS = ROOT / "workflow" / "steps.yaml"


def _expand(pattern: str, **sets: list) -> list[str]:
    """Snakemake's expand on named sets (product, in order)."""
    names = list(sets)
    return [pattern.format(**dict(zip(names, combo))) for combo in itertools.product(*sets.values())]


def _write(tmp_path, steps_: list[dict]) -> Path:
    path = tmp_path / "steps.yaml"
    path.write_text(yaml.safe_dump({"steps": steps_}), encoding="utf-8")
    return path


def _step(**kw) -> dict:
    return {"rule": "r", "doc": "d.", "output": {"csv": "{RESULTS}/x/{dataset}_{method}.csv"}, "script": "s.py", **kw}


def test_the_workflows_steps_load_and_each_has_its_script():
    loaded = steps.load(STEPS)
    names = [s.rule for s in loaded]
    assert len(names) == len(set(names)) == 34
    assert all((ROOT / "scripts" / s.script).is_file() for s in loaded), [s.script for s in loaded]
    # a rule is a step or a catalogue plot/table item, never both
    generic = {it.rule for it in catalogue.load(ROOT / "workflow" / "report" / "catalogue.yaml") if it.plot}
    assert not generic & set(names)
    by_name = {s.rule: s for s in loaded}
    assert by_name["paper_a_select"].log == "{pa_dataset}" and by_name["paper_a_fig1_data"].log == "all"
    assert by_name["paper_b_scenario1"].log == "{pb_reading}{pb_dataset}_{pb_method}"  # as written
    assert dict(by_name["paper_a_errors"].resources) == {"mem_mb": 8000, "runtime": 30}


def test_default_log_joins_the_first_outputs_wildcards_but_not_constants(tmp_path):
    (s,) = steps.load(_write(tmp_path, [_step()]))
    assert s.log == "{dataset}_{method}" and s.threads == 1 and not s.localrule
    (s,) = steps.load(_write(tmp_path, [_step(output={"md": "{RESULTS}/{RUN_CONFIG_RECORD}"})]))
    assert s.log == "all"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"shell": "ls"}, "unknown key(s) ['shell']"),
        ({"doc": ""}, "step r.doc: expected a non-empty string"),
        ({"script": None}, "step r.script: expected a non-empty string"),
        ({"output": {}}, "step r.output: expected a non-empty mapping"),
        ({"output": {"csv": ["a", "b"]}}, "step r.output.csv: expected a path"),
        ({"input": {"x": 3}}, "step r.input.x: expected a path, a list"),
        ({"input": {"x": {"plan": "a", "value": 1}}}, "step r.input.x: expected one of ['expand', 'plan']"),
        ({"input": {"x": {"value": 1}}}, "step r.input.x: expected one of ['expand', 'plan']"),
        ({"params": {"x": {"plan": "a", "extra": 1}}}, "step r.params.x: {plan: ...} takes no other key"),
        ({"params": {"x": ["paper_a.k"]}}, "step r.params.x: expected a path, a list or one of"),
        ({"report": {"md": {"caption": "c.rst", "category": "C"}}}, "step r.report.md: not an output"),
        ({"report": {"csv": {"caption": "c.rst"}}}, "step r.report.csv: expected {caption, category"),
        ({"threads": 0}, "step r.threads: expected a positive integer"),
        ({"resources": {"mem_mb": "8G"}}, "step r.resources.mem_mb: expected a positive integer"),
        ({"wildcards": {"dataset": {"set": "x"}}}, "step r.wildcards.dataset: expected one of ['plan']"),
    ],
)
def test_a_bad_step_is_an_error_naming_the_file_the_step_and_the_key(tmp_path, change, message):
    path = _write(tmp_path, [_step(**change)])
    with pytest.raises(ValueError) as err:
        steps.load(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_a_key_given_twice_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "steps.yaml"
    path.write_text("steps:\n  - rule: r\n    doc: d.\n    script: a.py\n    script: b.py\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"steps\.yaml:5:.*duplicate key 'script'"):
        steps.load(path)


def test_two_steps_of_one_name_and_a_step_without_name_are_errors(tmp_path):
    with pytest.raises(ValueError, match="step r: a second step of that name"):
        steps.load(_write(tmp_path, [_step(), _step()]))
    with pytest.raises(ValueError, match=r"steps\[0\]: expected a mapping with a 'rule' name"):
        steps.load(_write(tmp_path, [{"doc": "d."}]))


def _resolver(values=None, config=None):
    return steps.Resolver({"RESULTS": "res", "W": "res/w"}, {"ds": ["a", "b"], "m": ["fast"]}, values or {},
                          config or {"paper_a": {"k": 3, "space": {"a": "full"}}, "seed": 7}, _expand)


def test_inputs_fill_constants_expand_sets_and_take_plan_values(tmp_path):
    (s,) = steps.load(_write(tmp_path, [_step(input={
        "data": "{RESULTS}/data/{dataset}.parquet",
        "tables": {"expand": "{W}/{d}_{x}.csv", "d": "ds", "x": "m"},
        "mixed": [{"expand": "{W}/{d}.csv", "d": "ds"}, "{W}/extra.csv"],
        "fn": {"plan": "files"},
    })]))
    files = lambda wc: [f"res/{wc.dataset}.json"]  # noqa: E731
    got = _resolver({"files": files}).inputs(s)
    assert got["data"] == "res/data/{dataset}.parquet"  # the wildcard is Snakemake's
    assert got["tables"] == ["res/w/a_fast.csv", "res/w/b_fast.csv"]
    assert got["mixed"] == ["res/w/a.csv", "res/w/b.csv", "res/w/extra.csv"]
    assert got["fn"] is files


def test_params_read_config_keys_sets_values_wildcards_and_plan_values(tmp_path):
    (s,) = steps.load(_write(tmp_path, [_step(params={
        "k": "paper_a.k", "seed": "seed", "space": "paper_a.space.{dataset}", "sets": {"set": "ds"},
        "literal": {"value": [1, 2]}, "name": {"wildcard": "dataset"}, "fn": {"plan": "f"},
    })]))
    got = _resolver({"f": 42}).params(s)
    wc = {"dataset": "a"}  # Snakemake's Wildcards: item access by name
    assert (got["k"], got["seed"], got["sets"], got["literal"], got["fn"]) == (3, 7, ["a", "b"], [1, 2], 42)
    assert got["space"](wc) == "full" and got["name"](wc) == "a"
    with pytest.raises(ValueError, match="no key 'paper_a.space.b'"):
        got["space"]({"dataset": "b"})


def test_unknown_constants_sets_plan_values_and_config_keys_are_errors_naming_the_step(tmp_path):
    cases = [
        ({"output": {"csv": "{NOPE}/x.csv"}}, "step r.output.csv: no workflow constant 'NOPE'"),
        ({"input": {"x": {"expand": "{d}", "d": "nope"}}}, "step r.input.x: no set 'nope'"),
        ({"input": {"x": {"plan": "nope"}}}, "step r.input.x: no plan value 'nope'"),
        ({"params": {"x": "paper_a.nope"}}, "no key 'paper_a.nope'"),
    ]
    for change, message in cases:
        (s,) = steps.load(_write(tmp_path, [_step(**change)]))
        r = _resolver()
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
            r.outputs(s, lambda p, **kw: p), r.inputs(s), r.params(s)


def test_outputs_are_wrapped_for_the_report_and_logs_go_to_the_rules_directory(tmp_path):
    (s,) = steps.load(_write(tmp_path, [_step(
        output={"csv": "{RESULTS}/t/{dataset}.csv", "md": "{RESULTS}/t/{dataset}.md"},
        report={"csv": {"caption": "cap.rst", "category": "Paper A", "subcategory": {"plan": "sub"}}},
    )]))
    sub = lambda wc: "Tables"  # noqa: E731
    report = lambda path, **kw: ("report", path, kw)  # noqa: E731
    out = _resolver({"sub": sub}).outputs(s, report)
    assert out["md"] == "res/t/{dataset}.md"
    assert out["csv"] == ("report", "res/t/{dataset}.csv",
                          {"caption": "../report/cap.rst", "category": "Paper A", "subcategory": sub})
    assert _resolver().log(s, "res/logs", ".log") == "res/logs/r/{dataset}.log"


def test_data_plan_values_for_the_data_and_stand_in_steps(tmp_path):
    sha = "0" * 64
    cfg = {"results_dir": "res", "resources_dir": str(tmp_path / "resources"), "data_mirror": None,
           "datasets": {"a": {"files": [{"path": "a/a.csv", "url": "https://example.org/a.csv", "sha256": sha}]},
                        "big": {"files": [{"path": "big/big.csv", "url": "https://example.org/b.csv"}],
                                "stand_in": {"note": "stand-in data: big", "generator": "g"}}}}
    v = DataPlan(cfg).step_values()
    wc = SimpleNamespace(relpath="a/a.csv", dataset="big")
    assert (v["data.url"](wc), v["data.sha256"](wc)) == ("https://example.org/a.csv", sha)
    assert v["data.raw_files"](wc) == [str(tmp_path / "resources" / "raw" / "big" / "big.csv")]
    assert v["data.entry"](wc)["stand_in"]["generator"] == "g"
    assert v["data.names"] == "a|big" and v["data.downloads"] == r"a/a\.csv|big/big\.csv"
    assert v["data.unavailable_rows"] == [] and v["standins.files"] == {"big/big.csv": "g"}
    assert v["standins.generator"](SimpleNamespace(relpath="big/big.csv")) == "g"


def test_paper_a_values_select_fig2s_betas_and_list_the_datasets_without_growth():
    pa = {"fig2": {"dataset": "mix", "betas": [1, 2], "eps": 0.25}, "selection": {"betas": [5]},
          "eps_grid": [0.5, 1.0], "compiler": {"eps": 0.1}, "k_grid": [1, 7], "fig3": {"k_values": [14, 1]}}
    sets = {"paper_a.missing": {"gone": "why"}, "paper_a.tables": ["t1", "t2"], "paper_a.growth": ["t1"]}
    v = pa_checks.step_values(pa, sets, {"t2": "stand-in"})
    assert v["paper_a.betas"](SimpleNamespace(pa_dataset="mix")) == [1, 2]
    assert v["paper_a.betas"](SimpleNamespace(pa_dataset="t1")) == [5]
    assert (v["paper_a.eps_min"], v["paper_a.k_sensitive"]) == (0.1, [1, 7, 14])
    assert list(v["paper_a.not_evaluated"]["A4"]) == ["t2"] and v["paper_a.missing"] == {"gone": "why"}


def test_paper_b_values_follow_the_jobs_reading():
    pb = {"datasets": {"s1": "S1", "s2": "S2", "mine": "Mine"}, "tables": {"table1": ["s1"], "table2": ["s2", "mine"]},
          "scenario1": {"datasets": ["s1"], "methods": ["fast"]}, "scenario2": {"datasets": ["s2"]},
          "timing": {"datasets": []}, "readings": ["paper_r"], "tuning": {"space": {"s2": "pca"}},
          "paper_reported": {"r": {"s1": 1.1, "s2": 0.13}}}
    v = pb_workflow.step_values(pb, pb_workflow.sets(pb, ["s1", "s2", "mine"]), "res", "res/paper_b")
    ours, paper = SimpleNamespace(pb_reading="", pb_dataset="s2"), SimpleNamespace(pb_reading="paper_r/", pb_dataset="s2")
    assert v["paper_b.choice"](ours) == "res/paper_b/tuning/s2.json"
    assert v["paper_b.choice"](paper) == "res/paper_b/paper_r/tuning/s2.json"
    assert v["paper_b.table2"](ours) == ["s2", "mine"] and v["paper_b.table2"](paper) == ["s2"]  # mine: no printed r
    assert v["paper_b.tables_choices"](paper) == ["res/paper_b/paper_r/tuning/s1.json", "res/paper_b/paper_r/tuning/s2.json"]
    assert v["paper_b.tables_data"](ours)[-1] == "res/data/mine.parquet"
    assert v["paper_b.tables_subcategory"](paper) == "Tables 1-2 at the paper's r"
    assert (v["paper_b.space"](ours), v["paper_b.paper_r"](ours)) == ("pca", 0.13)
    assert v["paper_b.exponent"](paper) == "standard" and v["paper_b.r_readings"] == "|paper_r/"
    assert "res/paper_b/paper_r/tuning/s1.json" in v["paper_b.readings_files"]


def test_sweep_values_are_per_job_settings_of_the_jobs_sweep():
    cfg = {"a": {"kind": "paper_a", "datasets": ["t"], "mechanisms": ["sp", "optimal_dp"], "eps": [0.5], "k": [1], "beta": [5],
                 "r": {"fraction": [0.05]}},
           "b": {"kind": "paper_b", "datasets": ["t"], "k": [3], "r": {"fraction": [0.1]}, "eps": [0.5, 1.0], "h": [1],
                 "subspace_dims": [1], "methods": ["fast"], "conventions": ["printed"]}}
    plan = SweepPlan(cfg, lambda names, key: names, lambda names: list(names))
    v = plan.step_values("S", {"max_work": 99}, "a")
    a, b = SimpleNamespace(sweep="a"), SimpleNamespace(sweep="b")
    assert v["sweep.mechanisms"](a) == ["sp", "optimal_dp"] and isinstance(v["sweep.eps"](b), list)
    assert v["sweep.cap"](a) == plan.cap("a") and v["sweep.max_work"](b) == 99
    assert (v["sweep.kind"](b), v["sweeps.a"], v["sweeps.all"]) == ("paper_b", "a", "a|b")
    assert v["sweeps.claims_name"](a) == "a" and v["sweeps.claims_table"](a) == ["S/a/sweep.parquet"]
    assert v["sweeps.counts_file"](SimpleNamespace(sweep="a", dataset="t", beta="5", r="f0.05")).startswith("S/a/counts/t/")
