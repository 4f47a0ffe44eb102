"""The privacy scope of a run's tables, checked independently (tests/scope_checker.py): no row says proven
end to end while one of its inputs was read off the released records, every such input is named, a row with
nothing data-dependent is not under-claimed, and every composed (ε, δ) of the price tables is recomputed.

The slow test adds, to a clone of the whole ``.test`` DAG's run (tests/test_dag_run.py), an overlay with the
honest cases the default grids never produce (a sweep with a configured r on data that are not z-scored), so that
both verdicts are exercised; the fast tests show the checker catches an over-claim, an unstated choice and an
under-claim, and that paper A's growth table states its scope."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

import scope_checker
import workflow_copy as wc
from privanomaly.report import figures
from privanomaly.sp.dlap import rational_rate

ROOT = Path(__file__).resolve().parents[1]
OVERLAY = {
    "sweeps": {
        "scopeA": {"kind": "paper_a", "datasets": ["synthetic_a_2d", "thyroid"], "mechanisms": ["sp", "optimal_dp"],
                   "eps": [1.0], "k": [1], "beta": [5], "r": {"value": [0.5]}, "n_absent": 10},
        "scopeB": {"kind": "paper_b", "datasets": ["synthetic_b1"], "k": [3], "r": {"value": [1.0]}, "eps": [0.5],
                   "methods": ["fast"], "conventions": ["printed"], "h": [1], "subspace_dims": [1]},
    }
}
TARGETS = ["privacy/price_A.csv", "privacy/price_B.csv", "paper_a/tables/table1.csv", "paper_a/tables/table2.csv",
           "paper_a/tables/table3.csv", "paper_a/tables/parameters.csv", "paper_a/tables/growth.csv",
           "paper_b/tables/scenario1_synthetic_b1_fast.csv", "paper_b/paper_r/tables/scenario1_adult_b1_fast.csv",
           "paper_b/tables/scenario2_pr_synthetic_b2.csv", "sweeps/scopeA/sweep.csv", "sweeps/scopeB/sweep.csv",
           "sweeps/paperBkR/sweep.csv"]


@pytest.mark.mirror
@pytest.mark.slow
def test_no_row_of_a_run_over_or_under_claims(tmp_path, monkeypatch, dag_run):
    copy = wc.clone(dag_run.copy, tmp_path / "wf")  # the whole .test DAG's run (tests/test_dag_run.py), plus:
    (copy / "scope.yaml").write_text(yaml.safe_dump(OVERLAY))
    monkeypatch.setattr(wc, "targets", lambda: TARGETS)
    wc.run(copy, 2, "--configfile", ".test/config.yaml", "scope.yaml", timeout=900)
    cfg = scope_checker.merged_config(copy, copy / ".test/config.yaml", copy / "scope.yaml")
    problems, seen = scope_checker.check_run(copy / wc.RESULTS, cfg)
    assert problems == []
    # every scoped table of the run was checked: the TARGETS and the rest of the .test DAG's
    scoped = {p.relative_to(copy / wc.RESULTS).as_posix() for p in (copy / wc.RESULTS).rglob("*.csv")}
    scoped = {rel for rel in scoped if scope_checker._kind(rel) is not None}
    assert set(TARGETS) <= scoped and seen["tables"] == len(scoped)
    assert seen["proven"] >= 10 and seen["not_proven"] >= 50
    a = pd.read_csv(copy / wc.RESULTS / "sweeps/scopeA/sweep.csv")
    # a configured r: proven end to end on raw features, not on thyroid (z-scored on every record)
    assert a.groupby("dataset")["proven_end_to_end"].all().to_dict() == {"synthetic_a_2d": True, "thyroid": False}
    b = pd.read_csv(copy / wc.RESULTS / "sweeps/scopeB/sweep.csv")
    assert b["proven_end_to_end"].all() and b["data_dependent"].isna().all()


# ------------------------------------------------------------------------------------ the checker can fail
def _fake_run(tmp_path: Path, steps: list[dict], rows: list[dict]) -> Path:
    res = tmp_path / "results"
    (res / "data").mkdir(parents=True)
    (res / "data" / "toy.json").write_text(json.dumps({"rows": 10, "steps": steps}))
    (res / "sweeps" / "s").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(res / "sweeps" / "s" / "sweep.csv", index=False)
    return res


def _row(**kw) -> dict:
    base = {"dataset": "toy", "mechanism": "sp", "beta": 5, "k": 1, "eps": 1.0, "r_kind": "value",
            "public_inputs": "ε, k (per query), β (grid); r = 0.5 (config)", "data_dependent": "", "proven_end_to_end": True}
    return {**base, **kw}


@pytest.mark.parametrize("steps, row, expected", [
    ([], _row(), None),
    ([], _row(r_kind="fraction"), "proven end to end although ['tuned']"),
    ([{"step": "standardize", "fitted_on": "all records"}], _row(), "standardize not stated"),
    ([{"step": "pca", "n_components": 2}], _row(data_dependent="PCA fitted on the data"), "although ['pca']"),
    ([], _row(proven_end_to_end=False), "but proven_end_to_end = False"),
])
def test_checker_catches_over_and_under_claims(tmp_path, steps, row, expected):
    res = _fake_run(tmp_path, steps, [row])
    problems, _ = scope_checker.check_run(res, {"sweeps": {"s": {"r": {"value": [0.5], "fraction": [0.1]}}}})
    if expected is None:
        assert problems == []
    else:
        assert len(problems) >= 1 and any(expected in p for p in problems), problems


def test_checker_expects_algorithm_2s_work_guard_where_the_shape_does_not_bound_its_work(tmp_path):
    """Algorithm 2 (method paper) under max_work on 3-D data: whether a σ_Smooth row was released depends on the
    data; in 2-D with max_work >= 2(N + 1) it cannot be skipped. The fast bound has no guard."""
    res = _fake_run(tmp_path, [], [_row(part="sigma", method="paper"), _row(part="sigma", method="fast")])
    cfg = {"sweeps": {"s": {"r": {"value": [0.5]}, "max_work": 3000}}, "paper_b": {"scenario1": {"max_work": 5000}}}
    for dims, flagged in ((3, True), (2, False)):
        (res / "data" / "toy.json").write_text(json.dumps({"rows": 10, "dims": dims, "steps": []}))
        problems, _ = scope_checker.check_run(res, cfg)
        assert problems == ([  # row 0 (Algorithm 2): the guard stated nowhere, and the row claimed proven
            "sweeps/s/sweep.csv row 0 (toy): data-dependent work guard not stated in ''",
            "sweeps/s/sweep.csv row 0 (toy): proven end to end although ['work guard'] are data-dependent",
        ] if flagged else []), problems


def test_checker_recomputes_the_composed_claims():
    cfg = {"privacy": {"public_split": {"fraction": 0.2}, "selection_share": 0.1}, "paper_b": {"delta": 0.01}}
    row = {"dataset": "toy", "eps": 2.0, "tuning": "private_selection", "n_public": 2, "n_private": 8,
           "eps_selection": 0.2, "eps_release": 1.8, "claim_eps": 2.0, "claim_delta": 0.01, "neighbours": "substitution"}
    assert scope_checker.check_price(pd.DataFrame([row]), "B", cfg, {"toy": 10}) == []
    over = scope_checker.check_price(pd.DataFrame([{**row, "claim_eps": 1.8}]), "B", cfg, {"toy": 10})
    assert len(over) == 1 and "!= composed 2.0" in over[0]
    assert "is not the 11 records" in scope_checker.check_price(pd.DataFrame([row]), "B", cfg, {"toy": 11})[0]
    # paper A's end-to-end rows do not publish the private part's size (it moves under add/remove)
    a = {**row, "tuning": "public_split", "eps_selection": 0.0, "eps_release": 2.0, "claim_delta": 0.0,
         "neighbours": "sensitive_k", "claim_eps": float(rational_rate(2.0))}
    assert "n_private published" in scope_checker.check_price(pd.DataFrame([a]), "A", cfg, {"toy": 10})[0]
    assert scope_checker.check_price(pd.DataFrame([{**a, "n_private": float("nan")}]), "A", cfg, {"toy": 10}) == []


# ------------------------------------------------------------------------------- paper A's growth table
def test_growth_table_states_its_scope(tmp_path):
    """The growth curves are SP/DP errors at a (β, fraction) chosen by F1 on the labels, with r re-derived on
    every subsample: each row says so, and none is proven end to end."""
    curves = tmp_path / "toy.csv"
    pd.DataFrame({"dataset": "toy", "size_fraction": [0.5, 1.0], "n_records": [50, 100], "beta": 5, "r": [0.4, 0.3],
                  "n_anomalies": [2, 4], "eps": 1.0, "k": 1, "mean_error_sp": 0.01, "median_error_sp": 0.01,
                  "mean_error_dp": 0.27, "note": ""}).to_csv(curves, index=False)
    choice, prov = tmp_path / "toy.json", tmp_path / "toy_prov.json"
    choice.write_text(json.dumps({"dataset": "toy", "beta": 5, "r": 0.3, "fraction": 0.05}))
    prov.write_text(json.dumps({"steps": [{"step": "standardize"}]}))
    t = figures.get("paper_a.growth_table")({"curves": [str(curves)], "choices": [str(choice)],
                                              "provenance": [str(prov)]}, {"configured": ["toy"], "missing": {}})
    assert list(t.columns[-3:]) == ["public_inputs", "data_dependent", "proven_end_to_end"]
    assert not t["proven_end_to_end"].any()
    text = t["data_dependent"].iloc[0]
    assert "by max F1 against the labels" in text and "read off each subsample's (β+1)-NN distances" in text
    assert "standardisation fitted on the data" in text


def test_audit_caption_states_the_scope_of_the_audited_claims():
    text = (ROOT / "workflow/report/privacy_audit.rst").read_text()
    assert "Every audited claim is for public parameters" in text
    assert "G_S(k) edges for every candidate (β, r)" in text


@pytest.mark.parametrize("caption, reading, wanted", [
    ("paper_b_scenario1.rst", "", "holds for a public r; this r was tuned by eq. (53) accuracy against these records' labels"),
    ("paper_b_scenario1.rst", "paper_r", "holds for a public r; the paper printed this r after tuning it on the same records"),
    ("paper_b_scenario2.rst", "", "The ε-DP of Algorithm 3 holds for a public r; this r was tuned by eq. (53)"),
    ("paper_b_scenario2.rst", "paper_r_printed_exponent", "holds for a public r; the paper printed this r"),
    ("paper_a_table3.rst", "", "Each mechanism's claim holds per query"),
    ("paper_a_table2.rst", "", "Each mechanism's claim holds per query"),
    ("privacy_price.rst", "", "fit every preprocessing step (median imputation, standardisation, PCA) on the raw"),
    ("sweep_table.rst", "", "an r given as fraction is read off the data's k-NN distances"),
    ("paper_a_fig2.rst", "", "privacy guarantees only for a public (β, r)"),
    ("paper_a_fig3.rst", "", "privacy guarantees only for a public (β, r)"),
    ("paper_a_table1.rst", "", "each mechanism's ε holds only for a public (β, r)"),
    ("paper_a_table2.rst", "", "each mechanism's ε holds only for a public (β, r)"),
    ("paper_a_table3.rst", "", "each mechanism's ε holds only for a public (β, r)"),
    ("paper_a_error_vs_eps.rst", "", "ε-SP / ε-DP hold only for a public (β, r)"),
    ("paper_a_normal_and_ranked.rst", "", "ε-SP / ε-DP hold only for a public (β, r)"),
    ("paper_a_compiler.rst", "", "ε-SP / ε-DP hold only for a public (β, r)"),
    ("paper_a_growth.rst", "", "ε holds only for a public\n(β, r)"),
    ("paper_a_parameters.rst", "", "released as is, outside every\nmechanism's ε"),
    ("paper_b_tables.rst", "", "released as is, outside every (ε, δ)"),
    ("paper_b_tuning.rst", "", "hold only for a public r"),
])
def test_captions_that_state_a_claim_state_its_scope(caption, reading, wanted):
    """A caption saying "proven" / "ε-DP" says that it holds for public parameters and what was not public."""
    import jinja2
    from types import SimpleNamespace as NS

    cfg = scope_checker.merged_config(ROOT)
    sm = NS(config=cfg, params=NS(plot_params={"reading": reading, "paper_r": 1.1}),
            wildcards=NS(dataset="synthetic_b1", method="fast", paper="A", sweep="paperAbetaR"))
    text = jinja2.Template((ROOT / "workflow/report" / caption).read_text()).render(snakemake=sm)
    assert wanted in text
