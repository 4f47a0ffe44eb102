"""The library's planners that the get_* functions of workflow/rules/common.smk call: per-dataset settings of
paper A, where a paper-B reading's r lives and which datasets it computes, per-sweep settings of a job, the
rows of unavailable datasets. The rules built on them are checked job by job by benchmarks/dag_jobs.py and by
every workflow test that runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from privanomaly.paper_a import plan as pa_plan
from privanomaly.paper_b import plan as pb_plan
from privanomaly.datasets.plan import DataPlan
from privanomaly.sweeps.plan import SweepPlan


def test_data_plan_rows_of_unavailable_datasets(tmp_path):
    cfg = {"results_dir": "res", "resources_dir": str(tmp_path / "resources"), "data_mirror": str(tmp_path),
           "datasets": {"a": {"files": [{"path": "a/a.csv", "url": "https://example.org/a.csv", "sha256": "0" * 64}]},
                        "syn": {"generator": "x"}}}
    rows = DataPlan(cfg).unavailable_rows()
    assert [r["dataset"] for r in rows] == ["a"] and "not in mirror" in rows[0]["reason"]
    assert DataPlan(cfg).raw_files("a") == [str(tmp_path / "resources" / "raw" / "a" / "a.csv")]


def test_paper_a_settings_select_fig2s_betas_and_list_the_datasets_without_growth():
    pa = {"fig2": {"dataset": "mix", "betas": [1, 2], "eps": 0.25}, "selection": {"betas": [5]},
          "eps_grid": [0.5, 1.0], "compiler": {"eps": 0.1}, "k_grid": [1, 7], "fig3": {"k_values": [14, 1]}}
    sets = pa_plan.PaperASets(tables=["t1", "t2"], missing={}, paper_datasets=["t1", "t2"], yours=[], growth=["t1"],
                              compiler_sets=[], compiler=[], selected=[])
    assert pa_plan.betas(pa, "mix") == [1, 2] and pa_plan.betas(pa, "t1") == [5]
    assert (pa_plan.eps_min(pa), pa_plan.k_sensitive(pa)) == (0.1, [1, 7, 14])
    assert list(pa_plan.not_evaluated(sets)["A4"]) == ["t2"] and "A3" not in pa_plan.not_evaluated(sets)
    # a dataset the claim sweep does not run on (the user's own) gets the reason for A3, A6, A8
    why = pa_plan.not_evaluated(sets, "paperAbetaR", ["t1"])
    assert list(why["A3"]) == list(why["A6"]) == list(why["A8"]) == ["t2"] and "claim sweep 'paperAbetaR'" in why["A8"]["t2"]


def test_paper_b_reading_decides_where_r_lives_and_which_datasets_it_computes():
    pb = {"datasets": {"s1": "S1", "s2": "S2", "mine": "Mine"}, "tables": {"table1": ["s1"], "table2": ["s2", "mine"]},
          "scenario1": {"datasets": ["s1"], "methods": ["fast"]}, "scenario2": {"datasets": ["s2"]},
          "timing": {"datasets": []}, "readings": ["paper_r"], "tuning": {"space": {"s2": "pca"}},
          "paper_reported": {"r": {"s1": 1.1, "s2": 0.13}}}
    sets = pb_plan.sets(pb, ["s1", "s2", "mine"])
    assert pb_plan.choice_file("res/paper_b", "", "s2") == "res/paper_b/tuning/s2.json"
    assert pb_plan.choice_file("res/paper_b", "paper_r/", "s2") == "res/paper_b/paper_r/tuning/s2.json"
    assert pb_plan.reading_datasets(pb, sets.table2, "") == ["s2", "mine"]
    assert pb_plan.reading_datasets(pb, sets.table2, "paper_r/") == ["s2"]  # mine: no printed r
    assert pb_plan.tables_subcategory("paper_r/") == "Tables 1-2 at the paper's r"
    assert pb_plan.r_readings_regex(pb) == "|paper_r/"
    files = pb_plan.readings_files(pb_plan.readings_plan("res/paper_b", pb, sets))
    assert "res/paper_b/paper_r/tuning/s1.json" in files and len(files) == len(set(files))
    # our accuracy at the paper's r is read from the paper's-r records, never written into our tuning's
    ours = pb_plan.readings_plan("res/paper_b", pb, sets)["ours"]["inputs"]
    assert ours["at_paper_r"] == {"s1": "res/paper_b/paper_r/tuning/s1.json",
                                  "s2": "res/paper_b/paper_r/tuning/s2.json"}


def test_sweep_settings_are_per_sweep_and_max_work_falls_back_to_scenario1():
    cfg = {"a": {"kind": "paper_a", "datasets": ["t"], "mechanisms": ["sp", "optimal_dp"], "eps": [0.5], "k": [1],
                 "beta": [5], "r": {"fraction": [0.05]}},
           "b": {"kind": "paper_b", "datasets": ["t"], "k": [3], "r": {"fraction": [0.1]}, "eps": [0.5, 1.0], "h": [1],
                 "subspace_dims": [1], "methods": ["fast"], "conventions": ["printed"]}}
    plan = SweepPlan(cfg, lambda names, key: names, lambda names: list(names))
    assert plan.chunk_settings("a") == {"mechanisms": ["sp", "optimal_dp"], "cap": plan.cap("a")}
    assert plan.counts_settings("a")["cap"] == plan.cap("a")
    b = plan.b_settings("b", {"max_work": 99})
    assert b["eps"] == [0.5, 1.0] and b["radii"] == [{"r_kind": "fraction", "r_spec": 0.1}] and b["max_work"] == 99
    assert plan.table_settings("b") == {"kind": "paper_b", "r_kind": "fraction"}
    assert plan.claims_table("S", "a") == ["S/a/sweep.parquet"] and plan.claims_table("S", None) == []
    # a job's parameters are records, never a string it parses back
    assert plan.balls("a") == [{"beta": 5, "r_kind": "fraction", "r_spec": 0.05}] and plan.chunks("a") == [("t", 0)]
    assert plan.chunk_points("a", 0) == [{"eps": 0.5, "beta": 5, "r_kind": "fraction", "r_spec": 0.05, "k": 1}]
    assert plan.growth_points("a", "t") == [{"beta": 5, "r_kind": "fraction", "r_spec": 0.05}]



def _plain(x) -> bool:
    """Built of dicts, lists, strings, numbers, bools and None only: a param Snakemake can compare by its repr."""
    if isinstance(x, dict):
        return type(x) is dict and all(_plain(k) and _plain(v) for k, v in x.items())
    if isinstance(x, list):
        return all(map(_plain, x))
    return x is None or type(x) in (str, int, float, bool)


def test_sweep_params_are_plain_data_whose_repr_changes_only_with_the_points():
    """Snakemake reruns a job when the repr of a param changes and ignores a param of another type (a dataclass,
    a tuple subclass is a tuple, a numpy number...): every sweep param is plain data, its repr the same plan after
    plan, and adding a β changes the chunks' points while appending an ε keeps the first chunk's."""
    def plan(beta=(2, 5), eps=(0.5, 1.0)):
        cfg = {"a": {"kind": "paper_a", "datasets": ["t"], "mechanisms": ["sp"], "eps": list(eps), "k": [1],
                     "beta": list(beta), "r": {"value": [0.5, 1.0]}},
               "b": {"kind": "paper_b", "datasets": ["t"], "k": [3], "r": {"quantile": [0.9]}, "eps": [0.5]}}
        return SweepPlan(cfg, lambda names, key: names, lambda names: list(names), points_per_job=4)

    p = plan()
    params = [p.balls("a"), p.chunk_points("a", 0), p.growth_points("a", "t"), p.counts_settings("a"),
              p.chunk_settings("a"), p.b_settings("b", {"max_work": 9}), p.table_settings("b")]
    assert all(map(_plain, params)), params
    assert repr(params) == repr([plan().balls("a"), plan().chunk_points("a", 0), plan().growth_points("a", "t"),
                                 plan().counts_settings("a"), plan().chunk_settings("a"),
                                 plan().b_settings("b", {"max_work": 9}), plan().table_settings("b")])
    assert p.balls("a") == [{"beta": None, "r_kind": "value", "r_spec": r} for r in (0.5, 1.0)]  # shared by every β
    assert plan(beta=(2, 5, 9)).balls("a") == p.balls("a")
    assert repr(plan(beta=(2, 5, 9)).chunk_points("a", 0)) != repr(p.chunk_points("a", 0))
    assert repr(plan(eps=(0.5, 1.0, 2.0)).chunk_points("a", 0)) == repr(p.chunk_points("a", 0))


def test_record_tables_are_capped_at_the_smallest_eps_each_is_used_at():
    """The tables' record tables never run at Figure 2's ε (Figures 2-3 have a dataset of their own): their cap
    leaves fig2.eps out; Figure 2's and the compiler figure's datasets keep the min over every ε."""
    pa = {"datasets": ["t1"], "fig2": {"dataset": "mix", "eps": 0.05}, "compiler": {"dataset": "comp", "eps": 0.5},
          "eps_grid": [0.25, 1.0], "eps_ref": 1.0,
          "mechanisms": {"errors": ["sp", "optimal_dp", "compiler"], "detection": ["sp"]}}
    assert pa_plan.eps_min(pa) == pa_plan.eps_min(pa, "mix") == pa_plan.eps_min(pa, "comp") == 0.05
    assert pa_plan.eps_min(pa, "t1") == 0.0625  # the compiler's error decays at eps/4 (noise_share)
    pa["fig2"]["eps"] = 1.0
    assert pa_plan.eps_min(pa, "mix") == pa_plan.eps_min(pa, "t1") == 0.0625


def test_the_claims_params_hold_what_the_claims_read():
    """Rule paper_a_claims's params: the keys of paper_a its claims read - evaluated on them alone, every claim
    passes on tables where every claim holds (no key missing); Figure 4, PyOD and the selection are not in."""
    import yaml
    from test_paper_a_claims import _tables

    from privanomaly.paper_a import claims

    pa = yaml.safe_load((Path(__file__).resolve().parents[1] / "config.yaml").read_text(encoding="utf-8"))["paper_a"]
    pa = {**pa, "fig2": {**pa["fig2"], "dataset": "a"}, "eps_grid": [0.5, 1.0], "eps_ref": 1.0}
    got = pa_plan.claims_settings(pa)
    assert set(got) == {"eps_ref", "k_main", "eps_grid", "ci_level", "claims", "fig2"}
    assert got["fig2"] == {"dataset": "a"} and got["claims"] == pa["claims"]
    paper, _, _ = claims.evaluate_by_scope(_tables(("a", "b")), got, ["a", "b"], ["a", "b"])
    assert [r.verdict for r in paper] == ["PASS"] * 10


def test_rule_prepare_reads_what_makes_the_table_not_the_description():
    from privanomaly.datasets.validation import build_entry

    entry = {"description": "d", "homepage": "h", "stand_in": {"generator": "g", "note": "n"},
             "files": [{"path": "a.csv", "url": "u", "sha256": "0" * 64}], "format": "csv", "read": {"sep": ";"},
             "label": {"column": "y", "anomaly_values": [1]}, "preprocess": {"standardize": True}}
    assert build_entry(entry) == {k: entry[k] for k in ("files", "format", "read", "label", "preprocess")}
    assert build_entry({"generator": {"name": "gaussian_mixture"}, "description": "d"}) == {
        "generator": {"name": "gaussian_mixture"}}
