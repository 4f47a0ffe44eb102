"""No single dataset sinks a run (paper B, Scenario 1): an infeasible Algorithm 2 is written as ``skipped``
rows with the reason instead of a failed job, per-dataset methods and guards are config, Algorithm 2 logs
its progress, and the outlook predicts AlgorithmTooCostly from (N, k, d) before any job runs."""

from __future__ import annotations

import json
import logging
import math

import numpy as np
import pandas as pd
import pytest

from privanomaly.outliers import smooth
from privanomaly.paper_b import comparison, plots, released_bound, scenario1
from privanomaly.paper_b import plan as workflow
from privanomaly.paper_b.released_bound import AlgorithmTooCostly, algorithm2_outlook
from privanomaly.run.log import Ticker
from test_bad_inputs import _run_script

CONVENTIONS = ["printed", "beta_equals_eps"]
EPS = [0.1, 0.5, 0.9]


def gaussian(n: int, d: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d))


def test_infeasible_betas_become_skipped_rows_with_the_global_columns():
    X = gaussian(60, 3)
    calls = []

    def smooth_fn(beta):  # feasible for the largest beta only (the cheap end), like a max_work guard
        calls.append(beta)
        if len(calls) > 1:
            raise AlgorithmTooCostly("Algorithm 2: work 5001 > max_work 5000")
        return {"value": 4.0, "ls0": 4.0, "t_max": 0, "t_stop": 1, "method_used": "paper", "work_paper": 12}

    with pytest.raises(AlgorithmTooCostly):  # the default keeps failing (the paper's own datasets must finish)
        scenario1.scenario1_table(X, 3, 0.8, EPS, 0.01, CONVENTIONS, smooth_fn)
    calls.clear()
    df = scenario1.scenario1_table(X, 3, 0.8, EPS, 0.01, CONVENTIONS, smooth_fn, skip_infeasible=True)
    assert len(df) == len(EPS) * len(CONVENTIONS) and len(calls) == 2  # stops at the first infeasible beta
    done, skipped = df[df["skipped"] == ""], df[df["skipped"] != ""]
    assert len(done) >= 1 and len(skipped) >= 1
    assert done["beta"].min() > skipped["beta"].max()  # only the costlier (smaller) betas are skipped
    assert skipped["sigma_smooth"].isna().all() and skipped["ratio"].isna().all()
    assert (skipped["sigma_global"] > 0).all() and (skipped["true_count"] == done["true_count"].iloc[0]).all()
    assert not skipped["sigma_smooth_proven"].any()
    assert skipped["skipped"].str.contains("work 5001 > max_work 5000").all()
    assert (done["smooth_sensitivity"] == 4.0).all() and (done["work_paper"] == 12).all()


@pytest.mark.parametrize("skip_infeasible", [True, False])
def test_a_safety_timeout_makes_skipped_rows_never_a_failed_job(skip_infeasible):
    # a wall-clock limit is machine-dependent: it may only make rows `skipped` (naming its key), the run goes on
    X = gaussian(60, 3)
    calls = []

    def smooth_fn(beta):
        calls.append(beta)
        if len(calls) > 1:
            raise released_bound._timed_out("fast smooth bound", 300)
        return {"value": 4.0, "ls0": 4.0, "t_max": 0, "t_stop": 1, "method_used": "fast", "work_paper": 0}

    df = scenario1.scenario1_table(X, 3, 0.8, EPS, 0.01, CONVENTIONS, smooth_fn, skip_infeasible=skip_infeasible)
    skipped = df[df["skipped"] != ""]
    assert len(calls) == 2 and len(skipped) and len(skipped) < len(df)  # the first beta computed, then none
    assert skipped["skipped"].str.contains("paper_b.scenario1.timeout_seconds").all()
    assert not skipped["skipped"].str.contains("methods_by_dataset").any()  # never advises the bound that ran out
    assert skipped["sigma_smooth"].isna().all() and not skipped["sigma_smooth_proven"].any()


def test_timeout_messages_name_the_key_and_never_the_bound_that_ran_out():
    slow_paper = str(released_bound._timed_out("Algorithm 2", 300))
    slow_fast = str(released_bound._timed_out("fast smooth bound", 300))
    assert "paper_b.scenario1.timeout_seconds" in slow_paper and "paper_b.scenario1.methods_by_dataset" in slow_paper
    assert "[fast]" not in slow_fast and "paper_b.scenario1.timeout_seconds" in slow_fast


def test_script_writes_skipped_rows_instead_of_failing(tmp_path):
    X = gaussian(60, 2, seed=3)  # 2-D: Algorithm 2 needs at most 2 (N + 1) = 122 work units
    data = pd.DataFrame(X, columns=[f"x{i}" for i in range(2)])
    data["label"] = np.array([1] * 6 + [0] * 54, dtype=np.int8)
    data.to_parquet(tmp_path / "mine.parquet")
    (tmp_path / "choice.json").write_text(json.dumps({"dataset": "mine", "r": 0.3}))
    (tmp_path / "mine.json").write_text(json.dumps({"dataset": "mine", "steps": []}))  # prepare's provenance
    out = {"csv": str(tmp_path / "s1.csv"), "md": str(tmp_path / "s1.md")}
    # the rule's params (privanomaly.paper_b.plan.scenario1_bound: Algorithm 2's guard for the dataset) and the
    # safety timeout, read from the config
    params = dict(k=3, delta=0.01, eps=EPS, conventions=["printed"], bound={"max_work": 1, "skip_infeasible": True})
    config = {"paper_b": {"scenario1": {"timeout_seconds": None}}}
    _run_script("paper_b_scenario1.py", input={"data": str(tmp_path / "mine.parquet"),
                                               "choice": str(tmp_path / "choice.json")},
                output=out, params=params, wildcards={"pb_dataset": "mine", "pb_method": "paper"},
                log=tmp_path / "s1.log", config=config)
    df = pd.read_csv(out["csv"])
    assert len(df) == len(EPS) and df["skipped"].notna().all()
    assert df["skipped"].str.contains("max_work").all() and df["sigma_global"].notna().all()
    assert "rows skipped" in (tmp_path / "s1.log").read_text()
    # a per-dataset guard lifts it (max_work_by_dataset: the bound's max_work of this dataset)
    _run_script("paper_b_scenario1.py", input={"data": str(tmp_path / "mine.parquet"),
                                               "choice": str(tmp_path / "choice.json")},
                output=out, params={**params, "bound": {"max_work": 1000, "skip_infeasible": True}},
                wildcards={"pb_dataset": "mine", "pb_method": "paper"}, log=tmp_path / "s1.log", config=config)
    df = pd.read_csv(out["csv"])
    assert df["skipped"].isna().all() and df["sigma_smooth"].notna().all()  # "" reads back as empty


def test_comparison_and_figure_accept_skipped_rows():
    X = gaussian(40, 2, seed=1)

    def smooth_fn(beta):
        if beta < 0.01:
            raise AlgorithmTooCostly("past max_work")
        return {"value": 3.0, "ls0": 3.0, "t_max": 0, "t_stop": 1, "method_used": "paper", "work_paper": 3}

    df = scenario1.scenario1_table(X, 3, 0.5, EPS, 0.01, CONVENTIONS, smooth_fn, skip_infeasible=True)
    df.insert(0, "method", "paper")
    df.insert(0, "dataset", "mine")
    summary = comparison.convention_summary(df, {})
    assert not summary.empty and summary["ratio_min"].notna().all()  # only the computed rows count
    fig = plots.plot_scenario1(df, "mine", {})
    assert any("not computed" in t.get_text() for t in fig.texts)


def test_per_dataset_methods_and_guard():
    pb = {"k": 3, "scenario1": {"datasets": ["synthetic_b1", "mine"], "methods": ["paper", "fast"], "max_work": 5000,
                                "methods_by_dataset": {"mine": ["fast"]}, "max_work_by_dataset": {"synthetic_b1": None}}}
    assert workflow.scenario1_jobs(pb, ["synthetic_b1", "mine"]) == [
        ("synthetic_b1", "paper"), ("synthetic_b1", "fast"), ("mine", "fast")]
    assert workflow.scenario1_max_work(pb, "synthetic_b1") is None and workflow.scenario1_max_work(pb, "mine") == 5000
    workflow.check_methods_by_dataset(pb)
    with pytest.raises(ValueError, match=r"paper_b.scenario1.methods_by_dataset.other: 'other' is not in"):
        workflow.check_methods_by_dataset({"scenario1": {**pb["scenario1"], "methods_by_dataset": {"other": ["fast"]}}})


def test_outlook_predicts_too_costly_from_shape(tmp_path):
    assert algorithm2_outlook(50, 3, 2, 5000).verdict == "feasible"  # 2-D: <= 2 (N + 1) closed-form solves
    big = algorithm2_outlook(1831, 3, 21, 5000, "mine")
    assert big.verdict == "likely too costly" and "methods_by_dataset: {mine: [fast]}" in big.message
    assert algorithm2_outlook(50, 3, 7, 5000).verdict == "unknown"
    X = gaussian(200, 2, seed=2)  # the 2-D bound holds
    assert smooth.algorithm2(X, 3, 0.3, 0.1).work <= algorithm2_outlook(200, 3, 2, None).work_bound
    frame = pd.DataFrame(gaussian(150, 5), columns=list("abcde")).assign(label=np.int8(0))
    frame.to_parquet(tmp_path / "mine.parquet")
    pb = {"k": 3, "scenario1": {"datasets": ["mine"], "methods": ["paper", "fast"], "max_work": 5000}}
    warn = workflow.scenario1_outlooks(pb, ["mine", "absent"], lambda d: str(tmp_path / f"{d}.parquet"))
    assert len(warn) == 1 and "N = 150 records in 5-D" in warn[0]
    pb["scenario1"]["methods_by_dataset"] = {"mine": ["fast"]}
    assert workflow.scenario1_outlooks(pb, ["mine"], lambda d: str(tmp_path / f"{d}.parquet")) == []


def test_algorithm2_writes_progress_lines(caplog, monkeypatch):
    monkeypatch.setattr(smooth, "PROGRESS_SECONDS", 0.0)
    with caplog.at_level(logging.INFO, logger="privanomaly"):
        res = smooth.algorithm2(gaussian(30, 2, seed=4), 3, 0.4, 0.1, max_work=1000)
        smooth.block_smooth_bound(gaussian(30, 2, seed=4), 3, 0.4, 0.1)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Algorithm 2 (N = 30")]
    assert len(lines) == res.work and f"window t = 0 of at most {smooth.horizon(30, 0.1) - 1}" in lines[0]
    assert "s elapsed" in lines[0] and "of max_work 1000, at most about" in lines[0] and "s left" in lines[0]
    fast = [r.getMessage() for r in caplog.records if r.getMessage().startswith("fast smooth bound (N = 30")]
    assert fast and all("block grids" in x and "s left" in x for x in fast)  # time left, extrapolated


def test_ticker_paces_by_the_clock():
    now = [0.0]
    tick = Ticker("job", every=5.0, clock=lambda: now[0])
    assert not tick("a")
    now[0] = 4.9
    assert not tick(lambda: 1 / 0)  # not due: the message is not even built
    now[0] = 5.0
    assert tick("b") and not tick("c")
    assert math.isclose(tick.last, 5.0)


def test_figure_states_the_whole_reason_a_smooth_bound_is_missing():
    """The figure's note gives each skip reason in full, wrapped over lines - what to do ("raise ... or use method
    'fast'") comes at the end of the reason and was cut off at 160 characters."""
    X = gaussian(40, 2, seed=1)
    why = ("Algorithm 2: WorkBudgetExceeded: Algorithm 1 exceeded its work budget of 2000 work units "
           "(smallest-enclosing-ball evaluations). The released bound may not depend on the data, so there is no "
           "fallback: raise paper_b.scenario1.max_work (or set it to null), or use method 'fast' for this dataset")

    def smooth_fn(beta):
        if beta < 0.01:
            raise AlgorithmTooCostly(why)
        return {"value": 3.0, "ls0": 3.0, "t_max": 0, "t_stop": 1, "method_used": "paper", "work_paper": 3}

    df = scenario1.scenario1_table(X, 3, 0.5, EPS, 0.01, CONVENTIONS, smooth_fn, skip_infeasible=True)
    df.insert(0, "method", "paper")
    df.insert(0, "dataset", "mine")
    fig = plots.plot_scenario1(df, "mine", {})
    note = next(t.get_text() for t in fig.texts if "not computed" in t.get_text())
    assert " ".join(note.split()).endswith("or use method 'fast' for this dataset")
    assert max(len(line) for line in note.splitlines()) <= 160 and len(note.splitlines()) > 1


def test_skipped_rows_name_the_guard_key_that_set_the_guard(tmp_path):
    """A guard from paper_b.scenario1.max_work_by_dataset.<dataset> is the key to raise: the rows said to raise
    paper_b.scenario1.max_work, which the per-dataset entry overrides (raising it changes nothing)."""
    pb = {"scenario1": {"max_work": 5000, "skip_infeasible": True, "max_work_by_dataset": {"mine": 1}}}
    bound = workflow.scenario1_bound(pb, "mine", "paper")
    assert bound["max_work"] == 1 and bound["guard_key"] == "paper_b.scenario1.max_work_by_dataset.mine"
    assert workflow.scenario1_bound(pb, "other", "paper")["guard_key"] == "paper_b.scenario1.max_work"
    X = gaussian(60, 2, seed=3)
    data = pd.DataFrame(X, columns=[f"x{i}" for i in range(2)])
    data["label"] = np.array([1] * 6 + [0] * 54, dtype=np.int8)
    data.to_parquet(tmp_path / "mine.parquet")
    (tmp_path / "choice.json").write_text(json.dumps({"dataset": "mine", "r": 0.3}))
    (tmp_path / "mine.json").write_text(json.dumps({"dataset": "mine", "steps": []}))
    out = {"csv": str(tmp_path / "s1.csv"), "md": str(tmp_path / "s1.md")}
    params = dict(k=3, delta=0.01, eps=EPS, conventions=["printed"], bound=bound)
    _run_script("paper_b_scenario1.py", input={"data": str(tmp_path / "mine.parquet"),
                                               "choice": str(tmp_path / "choice.json")},
                output=out, params=params, wildcards={"pb_dataset": "mine", "pb_method": "paper"},
                log=tmp_path / "s1.log", config={"paper_b": {"scenario1": {"timeout_seconds": None}}})
    df = pd.read_csv(out["csv"])
    assert df["skipped"].str.contains("raise paper_b.scenario1.max_work_by_dataset.mine").all()


def test_the_dag_time_outlook_estimates_every_scenario1_job_from_its_shape(tmp_path):
    import yaml

    pb = yaml.safe_load(open("config.yaml"))["paper_b"]
    pb["scenario1"] = {**pb["scenario1"], "datasets": ["big", "later"], "methods_by_dataset": {"big": ["fast"]}}
    data = pd.DataFrame(np.zeros((5000, 9)), columns=[f"x{i}" for i in range(9)])
    data["label"] = np.zeros(5000, dtype=np.int8)
    data.to_parquet(tmp_path / "big.parquet")
    lines = workflow.scenario1_estimates(pb, ["big", "later"], lambda d: str(tmp_path / f"{d}.parquet"))
    assert lines[0].startswith("scenario1 big (fast): about ") and "N = 5,000, d = 9" in lines[0]
    assert [x.split(":")[0] for x in lines[1:]] == [f"scenario1 later ({m})" for m in pb["scenario1"]["methods"]]
    assert all("once its table is prepared" in x for x in lines[1:])
    # the estimate is a function of the shape (and config) only: the data's values never enter
    data.iloc[:, :9] = np.random.default_rng(0).normal(size=(5000, 9))
    data.to_parquet(tmp_path / "big.parquet")
    assert workflow.scenario1_estimates(pb, ["big"], lambda d: str(tmp_path / f"{d}.parquet"))[0] == lines[0]
