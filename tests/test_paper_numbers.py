"""The papers' printed numbers where the project transcribes them: config.yaml (``paper_b.paper_reported``, the
paper-B parameters, the datasets' generators, paper A's figure parameters) and the captions, which state the
values of the run (trials, ε, k) next to the paper's.

The paper text is quoted here (``../shared/papers/okada-dp-analysis-of-outliers.txt`` Section 6 and Tables 1-2,
``asif2019-sensitive-privacy-sections2-4.txt`` Figures 3-4), so the test needs no file outside the checkout.
"""

from __future__ import annotations

import copy
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
import yaml

from privanomaly.report import catalogue

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
PB = CONFIG["paper_b"]
PA = CONFIG["paper_a"]

# Paper B, Tables 1 and 2, as printed (row label, then one value per dataset, in the tables' column order)
TABLE1 = {"datasets": ["synthetic_b1", "adult_b1"],
          "n_outliers": [5, 5], "n_inliers": [45, 45], "N": [50, 50], "d": [2, 7], "k": [3, 3], "r": [1.1, 0.35]}
TABLE2 = {"datasets": ["synthetic_b2", "adult_b2", "ionosphere_b"],
          "n_outliers": [10, 10, 10], "n_inliers": [490, 369, 225], "N": [500, 379, 235], "d": [10, 7, 34],
          "k": [3, 3, 3], "r": [0.13, 0.02, 0.06]}


@pytest.mark.parametrize("table", [TABLE1, TABLE2], ids=["table1", "table2"])
def test_paper_reported_is_tables_1_and_2_as_printed(table):
    rep = PB["paper_reported"]
    for q in ("n_outliers", "n_inliers", "N", "d", "r"):
        assert [rep[q][ds] for ds in table["datasets"]] == table[q], q
    assert PB["k"] == 3 and set(table["k"]) == {3}


def test_paper_reported_text_claims_as_printed():
    rep = PB["paper_reported"]
    # "approximately 10-30 times larger"; "lower than 7 for eps >= 0.7"; "detect 2 out of 10 subspaces"
    assert rep["sigma_ratio_range"] == [10, 30]
    assert (rep["sigma_smooth_max"], rep["sigma_smooth_eps_from"]) == (7, 0.7)
    assert rep["true_subspaces_synthetic_b2"] == 2
    # "490 positive labeled samples and 10 negative labeled samples in Adult 2" (the text; Table 2 says 369)
    assert rep["adult_b2_text_inliers"] == 490
    # "GS_{q_count,1}(k) = 2k+1 and GS_{q_count,2}(k) = 5k+1"
    assert rep["gs_exact"] == {"d1": [2, 1], "d2": [5, 1]}


def test_paper_b_parameters_are_the_papers():
    # "We changed the privacy parameter from eps = 0.1 to 0.9; delta was fixed as delta = 0.01."
    assert PB["delta"] == 0.01
    assert (min(PB["scenario1"]["eps"]), max(PB["scenario1"]["eps"])) == (0.1, 0.9)
    # "Privacy parameter was varied from eps = 0.2 to 3.2."; "one thousand times average"; "set as 1"
    assert (min(PB["scenario2"]["eps"]), max(PB["scenario2"]["eps"])) == (0.2, 3.2)
    assert PB["scenario2"]["n_trials"] == 1000 and PB["scenario2"]["subspace_dim"] == 1
    assert PB["scenario1"]["datasets"] == TABLE1["datasets"] and PB["scenario2"]["datasets"] == TABLE2["datasets"]


def test_paper_b_synthetic_generators_are_the_papers():
    # Synthetic 1: 45 inliers N(0, I), 5 outliers N(mu, Sigma), mu1 = mu2 = 20, Sigma11 = Sigma22 = 100
    g1 = CONFIG["datasets"]["synthetic_b1"]["generator"]
    assert (g1["dim"], g1["n_normal"], g1["n_anomaly"]) == (2, 45, 5)
    assert g1["normal"] == {"mean": [0, 0], "var": [1, 1]} and g1["anomaly"] == {"mean": [20, 20], "var": [100, 100]}
    # Synthetic 2: 490 inliers N(0, I), 10 outliers, mu1 = mu2 = 20, mu_i = 0 (i = 3..10), Sigma11 = Sigma22 = 100,
    # Sigma_ii = 1 (i = 3..10)
    g2 = CONFIG["datasets"]["synthetic_b2"]["generator"]
    assert (g2["dim"], g2["n_normal"], g2["n_anomaly"]) == (10, 490, 10)
    assert g2["normal"] == {"mean": [0] * 10, "var": [1] * 10}
    assert g2["anomaly"] == {"mean": [20, 20] + [0] * 8, "var": [100, 100] + [1] * 8}


def test_paper_a_figure_parameters_are_the_papers():
    # Fig. 3: "for 0.25-SP AIQ ... (a), k = 1. (b), k = 7. (c), k = 14." (the Figure 2 data and parameters)
    assert PA["fig2"]["eps"] == 0.25 and PA["fig3"]["k_values"] == [1, 7, 14]
    # Fig. 4: "1-sensitive neighborhood graph, X = {1, 2, 3, 4, 5}, l1-metric, (beta = 3, r = 1)-anomaly"
    f4 = PA["fig4"]
    assert (f4["k"], f4["beta"], f4["r"], len(f4["center"])) == (1, 3, 1, 5)


# ------------------------------------------------------------------------------------------ captions
def render(name: str, config: dict, wildcards: dict | None = None, plot_params: dict | None = None) -> str:
    """A caption of workflow/report rendered as Snakemake's report does (Jinja2, ``snakemake`` in scope)."""
    sm = SimpleNamespace(config=config, wildcards=SimpleNamespace(**(wildcards or {})),
                         params=SimpleNamespace(plot_params=plot_params or {}))
    text = (ROOT / "workflow" / "report" / name).read_text(encoding="utf-8")
    return " ".join(jinja2.Template(text).render(snakemake=sm).split())


def test_scenario2_caption_states_the_trials_and_k_of_the_run():
    cfg = copy.deepcopy(CONFIG)
    cfg["paper_b"]["scenario2"]["n_trials"] = 50
    cfg["paper_b"]["k"] = 5
    text = render("paper_b_scenario2.rst", cfg, {"dataset": "synthetic_b2"}, {"name": "Synthetic 2"})
    assert "mean of 50 Monte-Carlo trials per (ε, h)" in text and "the paper: 1000" in text
    assert "k = 5" in text
    assert "1000 Monte-Carlo" not in render("paper_b_scenario2.rst", cfg, {"dataset": "synthetic_b2"}, {})


def test_fig3_caption_states_the_eps_of_the_run():
    cfg = copy.deepcopy(CONFIG)
    cfg["paper_a"]["fig2"]["eps"] = 0.5
    text = render("paper_a_fig3.rst", cfg)
    assert "ε = 0.5" in text and "the paper: 0.25" in text
    assert "ε = 0.25" in render("paper_a_fig3.rst", CONFIG)


def test_catalogue_titles_do_not_state_a_trial_count_as_the_runs():
    """The index shows catalogue titles for every run: a count there must be marked as the paper's."""
    items = catalogue.load(ROOT / "workflow" / "report" / "catalogue.yaml")
    for it in items:
        if "trials" in it.title and "1000" in it.title:
            assert "1000 in the paper" in it.title, it.title


def test_fig2_and_scenario1_captions_state_k_of_the_run():
    cfg = copy.deepcopy(CONFIG)
    cfg["paper_a"]["fig2"]["k"] = 7
    cfg["paper_b"]["k"] = 4
    assert "k = 7 (``paper_a.fig2.k``" in render("paper_a_fig2.rst", cfg)
    text = render("paper_b_scenario1.rst", cfg, {"dataset": "synthetic_b1", "method": "paper"}, {"name": "Synthetic 1"})
    assert "δ = 0.01 and k = 4" in text and "the paper: 0.01 and 3" in text


def test_compiler_caption_states_its_dataset_eps_and_k():
    cfg = copy.deepcopy(CONFIG)
    cfg["paper_a"]["compiler"] = {"dataset": "mammography", "eps": 2.0, "k": 5}
    text = render("paper_a_compiler.rst", cfg)
    assert "on mammography at ε = 2.0 and k = 5" in text


def test_table3_and_ranked_captions_state_k_of_the_run():
    cfg = copy.deepcopy(CONFIG)
    cfg["paper_a"]["k_main"] = 5
    assert "k = 5 (``paper_a.k_main``)" in render("paper_a_table3.rst", cfg)
    assert "k = 5 (``paper_a.k_main``; also panel (a))" in render("paper_a_normal_and_ranked.rst", cfg)
