"""The paper_a section of the config schema: shipped configs validate; bad values fail naming the key."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config, validate

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
BASE = yaml.safe_load((ROOT / "config.yaml").read_text())


def _with(path: tuple, value) -> dict:
    cfg = copy.deepcopy(BASE)
    node = cfg["paper_a"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return cfg


def test_shipped_configs_validate():
    validate(copy.deepcopy(BASE), SCHEMA)
    cfg = copy.deepcopy(BASE)
    update_config(cfg, yaml.safe_load((ROOT / ".test" / "config.yaml").read_text()))
    validate(cfg, SCHEMA)


@pytest.mark.parametrize(
    "path, value, key",
    [
        (("eps_ref",), 0, "eps_ref"),
        (("eps_grid",), [0.5, -1.0], "eps_grid"),
        (("eps_grid",), [], "eps_grid"),
        (("fig2", "eps"), 0.0, "eps"),
        (("fig4", "r"), -0.5, "r"),
        (("fig4", "beta"), 0, "beta"),
        (("selection", "betas"), [2.5], "betas"),
        (("selection", "betas"), [], "betas"),
        (("selection", "fractions"), [1.5], "fractions"),
        (("k_main",), 0, "k_main"),
        (("k_grid",), [1, 0], "k_grid"),
        (("fig3", "k_values"), [], "k_values"),
        (("n_trials",), 0, "n_trials"),
        (("pyod",), {"SVM": {}}, "pyod"),
        (("unknown_key",), 1, "unknown_key"),
    ],
)
def test_bad_values_are_rejected_naming_the_key(path, value, key):
    with pytest.raises(Exception) as err:
        validate(_with(path, value), SCHEMA)
    assert key in str(err.value)


def test_every_paper_a_key_has_a_description():
    schema = yaml.safe_load(Path(SCHEMA).read_text())["properties"]["paper_a"]

    def walk(node, where):
        for name, sub in node.get("properties", {}).items():
            assert "description" in sub or "$ref" in sub, f"{where}.{name} has no description"
            walk(sub, f"{where}.{name}")

    assert "description" in schema
    walk(schema, "paper_a")
    for name, d in schema["$defs"].items():
        assert "description" in d, name


def test_cross_key_checks_name_the_key():
    from privanomaly.paper_a import plan as workflow_checks

    pa = copy.deepcopy(BASE["paper_a"])
    workflow_checks.check_config(pa, {})
    for mutate, key in [
        (lambda p: p.update(eps_ref=0.3), "paper_a.eps_ref"),
        (lambda p: p.update(k_main=99), "paper_a.k_main"),
        (lambda p: p["growth"].update(datasets=["adult"]), "paper_a.growth.datasets[0]"),
        (lambda p: p["fig2"].update(dataset=p["datasets"][0]), "paper_a.fig2.dataset"),
    ]:
        bad = copy.deepcopy(pa)
        mutate(bad)
        with pytest.raises(ValueError, match=key.replace("[", r"\[").replace("]", r"\]")):
            workflow_checks.check_config(bad, {})
    with pytest.raises(ValueError, match="compiler.dataset.*unavailable"):
        workflow_checks.check_config(pa, {pa["compiler"]["dataset"]: "not mirrored"})


def test_targets_cover_every_table_and_figure_in_both_formats():
    """Paper A's targets are its catalogue items' files: every table as CSV + Markdown, every figure as PNG +
    PDF, claims.md; the plotted ones are exactly the figures."""
    from pathlib import Path

    from privanomaly.report import catalogue

    items = catalogue.load(Path(__file__).resolve().parents[1] / "workflow" / "report" / "catalogue.yaml")
    t = catalogue.paper_files(items, "A")
    assert "paper_a/claims.md" in t
    assert "paper_a/tables/table3.csv" in t and "paper_a/tables/table3.md" in t
    assert "paper_a/figures/fig4_sensitive_graph.png" in t and "paper_a/figures/fig4_sensitive_graph.pdf" in t
    assert "privacy/price_A.csv" in t and "privacy/price_A.md" in t  # the price of honest tuning
    assert "privacy/figures/price_A.png" in t and "privacy/figures/price_A.pdf" in t
    assert len(t) == len(set(t)) == 35
    figures = sorted(f for f in t if f.startswith(("paper_a/figures/", "privacy/figures/")))
    plotted = sorted(f for it in items if it.paper == "A" and it.plot and it.plot.kind == "plot" for f in it.files)
    assert figures == plotted and len(plotted) == 20
    tabled = sorted(f for it in items if it.paper == "A" and it.plot and it.plot.kind == "table" for f in it.files)
    assert len(tabled) == 10 and all(f.startswith("paper_a/tables/") for f in tabled)


def test_dataset_sets_of_paper_a_follow_the_config_and_availability():
    from privanomaly.paper_a import plan as workflow_checks

    pa = {"datasets": ["thyroid", "aps", "mine"], "claims": {"paper_datasets": ["thyroid", "aps"]},
          "growth": {"datasets": ["thyroid", "aps"]}, "fig2": {"dataset": "toy"}, "compiler": {"dataset": "thyroid"}}
    s = workflow_checks.sets(pa, ["thyroid", "mine", "toy"], {"aps": "not in mirror"})
    assert s.tables == ["thyroid", "mine"] and s.missing == {"aps": "not in mirror"}
    assert s.yours == ["mine"] and s.growth == ["thyroid", "mine"]
    assert s.compiler_sets == ["thyroid", "mine"] and s.selected == ["thyroid", "mine", "toy"]
    # the catalogue's names for them (its `datasets`/`sets`): the missing datasets' names only
    assert s.named()["paper_a.growth"] == ["thyroid", "mine"] and s.named()["paper_a.missing"] == ["aps"]
