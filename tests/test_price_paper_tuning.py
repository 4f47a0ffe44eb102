"""The price table's ``paper`` row is this reproduction's own tuning: the (β, r) of paper A's Table 1.

Paper A's selection protocol scores a seeded subsample of the query rows on a dataset larger than
``paper_a.selection.max_query_rows`` (credit card, APS). Rule ``paper_a_select`` draws it from
``seeding.rng(seed, "paper_a_select", dataset)`` (the config's master seed); the price table must draw the same
rows, else its ``paper`` baseline - and the (β, r) its ``data_dependent`` column names - is another tuning
than the one Tables 1-3 release."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from privanomaly.price import tuning as price
from privanomaly import seeding
from privanomaly.paper_a import selection
from privanomaly.price import plan as price_plan

CONFIG = {"seed": 11, "paper_a": {"selection": {"betas": [1, 2, 3, 5], "fractions": [0.02, 0.05, 0.1],
                                                "max_query_rows": 60},
                                  "k_main": 1, "metric": "euclidean"},
          "privacy": {"eps": [1.0], "public_split": {"fraction": 0.2, "seed": 7}, "selection_share": 0.1,
                      "selection_methods": ["exponential"]}}


def _dataset(tmp_path, n=400, seed=4):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(n - 12, 2)), rng.normal(0.0, 4.0, size=(12, 2))])
    y = np.r_[np.zeros(n - 12, np.int8), np.ones(12, np.int8)]
    df = pd.DataFrame(X, columns=["x0", "x1"])
    df["label"] = y
    data, prov = tmp_path / "toy.parquet", tmp_path / "toy.json"
    df.to_parquet(data)
    prov.write_text(json.dumps({"dataset": "toy", "steps": []}))  # nothing fitted: also the raw-scale table
    return X, y, str(data), str(prov)


def test_paper_row_is_the_selection_of_rule_paper_a_select(tmp_path):
    X, y, data, prov = _dataset(tmp_path)
    sel = CONFIG["paper_a"]["selection"]
    # rule paper_a_select's choice (scripts/paper_a_select.py): the master seed, key "paper_a_select"
    ours = selection.choose(selection.selection_surface(
        X, y, sel["betas"], sel["fractions"], rng=seeding.rng(CONFIG["seed"], "paper_a_select", "toy"),
        max_query_rows=sel["max_query_rows"]))
    settings = price_plan.paper_settings("A", CONFIG)
    t = price.price_table("A", ["toy"], [data], [prov], CONFIG["privacy"], settings, [data], [prov])
    paper = t[t["tuning"] == "paper"].iloc[0]
    assert (int(paper["beta"]), float(paper["r"])) == (ours.beta, ours.r)
    assert f"(β, r) = ({ours.beta}, {ours.r:.6g}) by max F1 against the labels" in paper["data_dependent"]


def test_the_subsample_matters_here(tmp_path):
    """The check above is not vacuous: another seed's subsample chooses another (β, r) on this dataset."""
    X, y, _, _ = _dataset(tmp_path)
    sel = CONFIG["paper_a"]["selection"]
    picks = {(c.beta, c.r) for c in (selection.choose(selection.selection_surface(
        X, y, sel["betas"], sel["fractions"], rng=seeding.rng(s, "paper_a_select", "toy"),
        max_query_rows=sel["max_query_rows"])) for s in range(6))}
    assert len(picks) > 1


def test_paper_a_settings_without_the_master_seed_are_refused(tmp_path):
    _, _, data, prov = _dataset(tmp_path, n=40)
    settings = {k: v for k, v in price_plan.paper_settings("A", CONFIG).items() if k != "seed"}
    with pytest.raises(ValueError, match="paper A's settings need the master 'seed'"):
        price.price_table("A", ["toy"], [data], [prov], CONFIG["privacy"], settings, [data], [prov])


@pytest.mark.parametrize("paper, share, part", [("B", 1e-9, "selection"), ("A", 1e-9, "selection"),
                                                ("A", 1 - 1e-9, "release")])
def test_a_share_too_small_for_the_exact_samplers_names_the_config_keys(tmp_path, paper, share, part):
    """A selection (either paper) or an SP release (paper A) below the exact samplers' smallest rate 2^-50 is
    refused before any work, naming the config keys (it was a "discrete Laplace rate" error from deep inside)."""
    _, _, data, prov = _dataset(tmp_path, n=40)
    privacy = {**CONFIG["privacy"], "eps": [1e-8, 1.0], "selection_share": share}
    settings = price_plan.paper_settings(paper, {**CONFIG, "paper_b": {
        "k": 3, "delta": 0.01, "tuning": {"r_grid": {"min": 0.1, "max": 2, "num": 5}}}})
    with pytest.raises(ValueError, match=rf"privacy.eps × privacy.selection_share: the {part} of a row "
                                         r"would spend .* below 2\^-50.*smallest privacy.eps \(1e-08\)"):
        price.price_table(paper, ["toy"], [data], [prov], privacy, settings, [data], [prov])
