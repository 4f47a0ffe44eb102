"""The caption of a catalogue item that shows several datasets names them: the generic rule of the item carries
its `datasets` set of this run (param ``datasets``, privanomaly.report.catalogue.plot_datasets) and the caption
states it, so a reader of the report sees which datasets a table or figure covers (your own included)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace as NS

import jinja2
import pytest

from privanomaly.report import catalogue
from scope_checker import merged_config

ROOT = Path(__file__).resolve().parents[1]
ITEMS = catalogue.load(ROOT / "workflow" / "report" / "catalogue.yaml")
# the compiler figure and paper B's timing table name their datasets from the config keys that define their set
# (paper_a.compiler.dataset, paper_b.timing.datasets)
NAMED_BY_CONFIG = {"paper_a_fig_compiler", "paper_b_timing_table"}
WITH_DATASETS = [it for it in ITEMS if it.plot is not None and it.plot.datasets and it.rule not in NAMED_BY_CONFIG]
CFG = merged_config(ROOT, ROOT / ".test" / "config.yaml")


def _render(caption: str, datasets: list[str]) -> str:
    sm = NS(config=CFG, wildcards=NS(dataset="synthetic_b1", method="paper", pb_reading=""),
            params=NS(plot_params={"reading": "", "paper_r": 1.1}, datasets=datasets))
    text = (ROOT / "workflow" / "report" / caption).read_text(encoding="utf-8")
    return jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(text).render(snakemake=sm)


def test_the_items_with_a_dataset_set_are_paper_a_tables_and_figures_and_paper_b_tuning():
    assert {it.rule for it in WITH_DATASETS} >= {"paper_a_table1", "paper_a_table2", "paper_a_table3",
                                                  "paper_a_fig_errors", "paper_a_fig_normal_ranked",
                                                  "paper_a_growth_table", "paper_a_parameters",
                                                  "paper_a_plot_selection", "paper_b_plot_tuning"}


def test_plot_datasets_is_the_items_set_in_this_runs_plan():
    sets = {"paper_a.tables": ["thyroid", "mine"], "paper_a.selected": ["thyroid", "mine", "fig2data"]}
    by_rule = {it.rule: it for it in ITEMS}
    assert catalogue.plot_datasets(by_rule["paper_a_table2"].plot, sets) == ["thyroid", "mine"]
    assert catalogue.plot_datasets(by_rule["paper_a_parameters"].plot, sets) == ["thyroid", "mine", "fig2data"]
    assert catalogue.plot_datasets(by_rule["paper_a_fig1"].plot, sets) == []  # no dataset set
    with pytest.raises(ValueError, match="no set 'paper_a.tables'"):
        catalogue.plot_datasets(by_rule["paper_a_table2"].plot, {})


def test_the_catalogue_rules_carry_their_datasets():
    smk = (ROOT / "workflow" / "rules" / "report.smk").read_text(encoding="utf-8")
    block = re.search(r"for _item in .*?script:", smk, re.S).group(0)
    assert "datasets=catalogue.plot_datasets(_item.plot, CATALOGUE_SETS)" in block


@pytest.mark.parametrize("item", WITH_DATASETS, ids=lambda it: it.rule)
def test_the_caption_names_the_datasets_shown(item):
    text = _render(item.plot.caption, ["thyroid", "my_own_data"])
    assert "thyroid, my_own_data" in text, (item.plot.caption, text)


def test_a_caption_shared_with_an_item_without_a_set_says_nothing_about_datasets():
    # the growth figure reads the growth table (no dataset set of its own): no empty "datasets:" phrase
    text = _render("paper_a_growth.rst", [])
    assert not re.search(r"[Dd]atasets[^.]*:\s*[.(]", text) and "Datasets shown" not in text


@pytest.mark.parametrize("caption", ["paper_b_scenario1.rst", "paper_b_scenario2.rst"])
def test_paper_b_captions_say_z_scored_only_for_a_dataset_that_is(caption):
    """Scenario 1-2 captions list what was read off the records: the z-scoring only where the dataset's entry
    standardises (the default); a dataset kept on its raw scale (standardize: false, e.g. a user's CSV or the
    synthetic sets) is not said to be z-scored."""
    def render(dataset: str, entry: dict) -> str:
        cfg = {**CFG, "datasets": {**CFG["datasets"], dataset: entry}}
        sm = NS(config=cfg, wildcards=NS(dataset=dataset, method="paper", pb_reading=""),
                params=NS(plot_params={"reading": "", "paper_r": 1.1}, datasets=[]))
        text = (ROOT / "workflow" / "report" / caption).read_text(encoding="utf-8")
        return jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(text).render(snakemake=sm)

    raw = render("mine", {"format": "csv", "preprocess": {"standardize": False}})
    assert "z-scored" not in raw and "proven_end_to_end" in raw
    assert "z-scored" in render("mine", {"format": "csv", "preprocess": {"missing": "drop"}})  # the default
    assert "z-scored" in render("mine", {"format": "csv"})
    assert "z-scored" not in render("synthetic_b1", CFG["datasets"]["synthetic_b1"])  # generated, standardize: false
