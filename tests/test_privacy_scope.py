"""The scope of every released row: public inputs, data-dependent choices, proven end to end."""

import json

import numpy as np
import pandas as pd
import pytest

from privanomaly import mechanisms
from privanomaly.datasets import prepare
from privanomaly.mechanisms.base import Claim
from privanomaly.paper_a import tables
from privanomaly.privacy import scope
from privanomaly.report import figures


def test_claim_is_end_to_end_only_without_data_dependent_choices():
    c = mechanisms.get("sp").claim(eps=1.0, beta=2, k=1)
    assert c.proven and c.public_inputs == () and c.data_dependent == () and c.proven_end_to_end
    tuned = c.scoped(["ε, k"], ["(β, r) by max F1 against the labels"])
    assert tuned.proven and not tuned.proven_end_to_end and tuned.epsilon == c.epsilon
    assert "for public parameters only, and these were read off the data: (β, r) by max F1 against the labels" in tuned.describe()
    assert not Claim(1.0, 0.0, "add_remove", proven=False).proven_end_to_end
    with pytest.raises(ValueError, match="data_dependent must be a sequence"):
        Claim(1.0, 0.0, "add_remove", data_dependent="r tuned")  # a bare string is not a list of choices


def test_prepare_records_that_standardisation_and_pca_are_fitted_on_the_data():
    rng = np.random.default_rng(0)
    feats = pd.DataFrame(rng.normal(size=(20, 3)), columns=["a", "b", "c"])
    _, steps = prepare.preprocess(feats, np.r_[np.zeros(18), np.ones(2)], {"standardize": True, "pca": 2}, 0, "t")
    fitted = {s["step"]: s.get("fitted_on") for s in steps}
    assert fitted["standardize"] == fitted["pca"] == prepare.FITTED_ON_DATA
    sc = scope.preprocessing({"steps": steps})
    assert sc.data_dependent == ("standardisation fitted on the data", "PCA (2 components) fitted on the data")
    _, raw = prepare.preprocess(feats, np.r_[np.zeros(18), np.ones(2)], {"standardize": False}, 0, "t")
    assert scope.preprocessing({"steps": raw}) == scope.Scope((), ())


def test_preprocessing_scope_from_provenance():
    assert scope.preprocessing({"steps": [{"step": "standardize"}]}).data_dependent == (
        "standardisation fitted on the data",)  # provenance written before fitted_on existed
    pub = scope.preprocessing({"steps": [{"step": "standardize", "fitted_on": scope.FITTED_ON_PUBLIC}]})
    assert pub == scope.Scope(("standardisation fitted on the public split",), ())
    med = {"step": "missing", "mode": "impute_median", "cells_imputed": 3}
    assert scope.preprocessing({"steps": [med]}).data_dependent == ("median imputation fitted on the data",)
    assert scope.preprocessing(None).data_dependent == ("preprocessing unknown (no dataset provenance)",)


def test_r_scopes():
    assert scope.paper_b_r({"r": 0.166552, "space": "full"}).data_dependent == (
        "r = 0.166552 tuned by eq. (53) accuracy against the labels",)
    assert "printed by paper B" in scope.paper_b_r({"r": 0.02, "r_source": "paper_b.paper_reported.r"}).data_dependent[0]
    assert scope.paper_b_r({"r": 0.5, "r_source": scope.FITTED_ON_PUBLIC}).data_dependent == ()
    assert scope.sweep_r("value", 0.5) == scope.Scope(("r = 0.5 (config)",), ())
    assert scope.sweep_r("fraction", 0.05).data_dependent and scope.sweep_r("quantile", 0.9).data_dependent
    with pytest.raises(ValueError, match="unknown r kind 'median'"):
        scope.sweep_r("median", 0.5)


def test_add_to_keeps_columns_and_appends_three_at_the_right():
    df = pd.DataFrame({"dataset": ["a", "a"], "x": [1.5, 2.5], "sigma_smooth_proven": [True, False]})
    sc = scope.paper_b_scenario1({"r": 0.5, "r_source": scope.FITTED_ON_PUBLIC}, {"steps": []})
    out = sc.add_to(df, scope.scenario1_proven(df))
    assert list(out.columns) == ["dataset", "x", "sigma_smooth_proven", *scope.SCOPE_COLUMNS]
    pd.testing.assert_frame_equal(out[df.columns], df)
    assert out["proven_end_to_end"].tolist() == [True, False] and out["data_dependent"].eq("").all()
    tuned = scope.paper_b_scenario1({"r": 0.5}, {"steps": []}).add_to(df, scope.scenario1_proven(df))
    assert tuned["proven_end_to_end"].tolist() == [False, False]  # r tuned on the released data: never end to end
    with pytest.raises(ValueError, match="already has a 'public_inputs' column"):
        sc.add_to(out, True)


def test_sweep_rows_scope():
    a = pd.DataFrame({"mechanism": ["sp", "dp"], "claim_proven": [True, True]})
    out = scope.add_sweep_columns(a, "paper_a", "value", 0.5, {"steps": []})
    assert out["proven_end_to_end"].tolist() == [True, True] and out["public_inputs"][0] == "ε, k (per query), β (grid); r = 0.5 (config)"
    out = scope.add_sweep_columns(a, "paper_a", "fraction", 0.05, {"steps": []})
    assert not out["proven_end_to_end"].any()
    assert not scope.add_sweep_columns(a, "paper_a", "value", 0.5, None)["proven_end_to_end"].any()  # unknown prep
    b = pd.DataFrame({"part": ["sigma", "sigma", "top_h", "top_h"], "sigma_smooth_proven": [True, np.nan, np.nan, np.nan],
                      "sigma_global_upper_proven": [False, np.nan, np.nan, np.nan], "skipped": ["", "paper: too costly", "", "h >= m"]})
    assert scope.add_sweep_columns(b, "paper_b", "value", 1.0, {"steps": []})["proven_end_to_end"].tolist() == [
        True, False, True, False]


def _paper_a_inputs(tmp_path, fitted_on=None):
    step = {"step": "standardize"} if fitted_on is None else {"step": "standardize", "fitted_on": fitted_on}
    prov = tmp_path / "toy.json"
    prov.write_text(json.dumps({"dataset": "toy", "dims": 1, "steps": [step]}))
    choice = tmp_path / "toy_choice.json"
    choice.write_text(json.dumps({"dataset": "toy", "beta": 1, "r": 0.5, "fraction": 0.1, "note": "",
                                  **({"r_source": fitted_on} if fitted_on else {})}))
    det = tmp_path / "det.csv"
    pd.DataFrame({"dataset": "toy", "method": ["SP", "LOF"], "private": [True, False], "eps": [1.0, np.nan],
                  "k": [1, np.nan], "precision_labels": [0.5, 0.7]}).to_csv(det, index=False)
    return {"detection": [str(det)], "choices": [str(choice)], "provenance": [str(prov)]}


def test_paper_a_table3_rows_say_what_was_tuned(tmp_path):
    inp = _paper_a_inputs(tmp_path)
    t3 = figures.get("paper_a.table3")(inp, {"missing": ["aps"]})
    assert list(t3.columns[-4:]) == ["note", *scope.SCOPE_COLUMNS]
    toy = t3[t3["dataset"] == "toy"]
    assert toy["data_dependent"].eq("(β, r) = (1, 0.5) by max F1 against the labels; "
                                    "standardisation fitted on the data").all()
    assert not t3["proven_end_to_end"].any()
    assert t3[t3["dataset"] == "aps"][["public_inputs", "data_dependent"]].iloc[0].tolist() == ["", ""]
    honest = figures.get("paper_a.table3")(_paper_a_inputs(tmp_path, scope.FITTED_ON_PUBLIC), {"missing": []})
    assert honest["proven_end_to_end"].tolist() == [True, False]  # the private row only; LOF is not private


def test_paper_a_with_scope_unknown_dataset_rows():
    df = pd.DataFrame({"dataset": ["x", "y"], "v": [1, 2]})
    out = tables.with_scope(df, {"x": scope.Scope(("ε",), ())}, lambda rows: True)
    assert out["proven_end_to_end"].tolist() == [True, False] and out["public_inputs"].tolist() == ["ε", ""]


def test_paper_vs_ours_pages_say_both_papers_tune_non_privately():
    from privanomaly.experiment.verdict import Verdict
    from privanomaly.paper_a import claims
    from privanomaly.paper_b import comparison_page

    md = claims.to_markdown([Verdict.check("A1", "c", "t", "e", True)], "# h")
    assert scope.TUNING_NOTE in md and "Both papers tune non-privately" in scope.TUNING_NOTE
    assert comparison_page.methodology_notes({}, {}, {}, 1)[-1] == scope.TUNING_NOTE


def _scenario2(tmp_path, choice: dict, exponent: str = "standard") -> pd.DataFrame:
    """Rule paper_b_scenario2's script on six points in 2-D (one isolated outlier) with the tuning JSON ``choice``."""
    from test_bad_inputs import _run_script

    X = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [0.1, 0.1], [0.05, 0.05], [5.0, 5.0]])
    data = pd.DataFrame(X, columns=["x0", "x1"]).assign(label=np.array([0, 0, 0, 0, 0, 1], dtype=np.int8))
    data.to_parquet(tmp_path / "toy.parquet")
    (tmp_path / "toy.json").write_text(json.dumps({"dataset": "toy", "steps": [{"step": "standardize"}]}))
    (tmp_path / "choice.json").write_text(json.dumps({"dataset": "toy", **choice}))
    out = {n: str(tmp_path / f"{n}.csv") for n in ("subspaces", "subspaces_md", "sweep", "sweep_md")}
    params = dict(seed=1, k=2, dim=1, eps=[0.5, 1.0], h=[1], n_trials=20, sensitivity=1.0, exact=True,
                  true_subspace={"rule": "labelled_outlier", "min_outliers": 1}, exponent=exponent,
                  max_subspaces=1000)
    _run_script("paper_b_scenario2.py", input={"data": str(tmp_path / "toy.parquet"),
                                               "choice": str(tmp_path / "choice.json")},
                output=out, params=params, wildcards={"pb_dataset": "toy", "pb_reading": ""}, log=tmp_path / "s2.log")
    return pd.read_csv(out["sweep"])


def test_scenario2_rows_say_what_was_tuned(tmp_path):
    """Algorithm 3 releases the top-h subspaces: its precision/recall rows carry the scope columns like every
    released row (r tuned on the labels and standardisation on the data: not proven end to end)."""
    df = _scenario2(tmp_path, {"r": 0.5})
    assert list(df.columns[-3:]) == list(scope.SCOPE_COLUMNS)
    assert df["data_dependent"].eq("r = 0.5 tuned by eq. (53) accuracy against the labels; "
                                   "standardisation fitted on the data").all()
    assert df["public_inputs"].str.startswith("ε, h, k, N, d (bounded DP)").all()
    assert not df["proven_end_to_end"].any() and df["precision_exact"].notna().all()


def test_a_work_guard_on_algorithm_2_makes_which_rows_are_released_a_data_dependent_choice():
    """Past max_work a β's σ_Smooth rows are skipped; Algorithm 2's work depends on the data unless its bound
    from the shape fits (2(N + 1) in 1-D/2-D): then which rows are released is a choice made from the data."""
    from privanomaly.paper_b.released_bound import algorithm2_outlook

    fits_2d = algorithm2_outlook(50, 3, 2, 2000).verdict == "feasible"  # 2 (50 + 1) = 102 <= 2000
    fits_5d = algorithm2_outlook(50, 3, 5, 2000).verdict == "feasible"
    assert fits_2d and not fits_5d
    guard = scope.algorithm2_guard("paper", 2000, True, fits_5d)
    assert guard.data_dependent == ("which β have a σ_Smooth: Algorithm 2 within max_work = 2,000 work units, "
                                    "its work a function of the data",)
    public_r = scope.Scope(("r = 1 (config)",), ())
    row = (public_r + guard).add_to(pd.DataFrame({"x": [1]}), pd.Series([True]))
    assert not row["proven_end_to_end"].iloc[0]
    for args in (("paper", 2000, True, fits_2d), ("fast", 2000, True, fits_5d), ("paper", None, True, fits_5d),
                 ("paper", 2000, False, fits_5d)):  # no skip possible, or a failed job instead of a skipped row
        assert scope.algorithm2_guard(*args) == scope.Scope((), ()), args
