"""The registry of plot functions (privanomaly.report.figures) and the catalogue's `plot:` sections."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from privanomaly.config import keys as configkeys
from privanomaly.report import catalogue, figures

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "workflow" / "report" / "catalogue.yaml"


def test_every_plot_item_names_a_registered_function_an_existing_caption_and_config_params():
    import yaml

    config = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    rendered = [it for it in catalogue.load(CATALOGUE) if it.plot]
    # the rules come from the catalogue (one per item with a section); a plot item's primary file is its PNG,
    # a table item's its CSV, and no two items share a rule
    assert len({it.rule for it in rendered}) == len(rendered)
    for it in rendered:
        assert it.files[0].endswith(".png" if it.plot.kind == "plot" else ".csv"), (it.rule, it.files[0])
    assert {it.paper for it in rendered if it.plot.kind == "table"} == {"A", "B"}
    assert {it.paper for it in rendered if it.plot.kind == "plot"} == {"A", "B"}
    registered = figures.names()
    for it in rendered:
        assert it.plot.function in registered, it.rule
        assert (ROOT / "workflow" / "report" / it.plot.caption).is_file(), it.plot.caption
        # raises if a key is absent (a key with {dataset} is read at the first paper-B dataset with a printed r)
        sets = {name: [] for _, name in it.plot.sets}  # the plan's sets: the workflow builds them
        params = _params(config, it, sets)["plot_params"]
        if callable(params):
            params({"dataset": "adult_b1", "method": "fast"})
    # every registered function is used; one function may draw several items (paper B's readings)
    assert sorted({it.plot.function for it in rendered}) == registered


def _params(config: dict, item: catalogue.Item, sets: dict) -> dict:
    """The params of an item's generic rule as workflow/rules/report.smk gives them (report.smk item_params)."""
    stand_in = {"A": {"syn": "stand-in"}}.get(item.paper) if item.plot.stand_in else None
    plot_params = (lambda wc: catalogue.plot_params(config, item.plot, sets, wc)) if catalogue.per_job(item.plot) \
        else catalogue.plot_params(config, item.plot, sets)
    return {"kind": item.plot.kind, "function": item.plot.function, "plot_params": plot_params, "stand_in": stand_in}


def _item(plot: catalogue.Plot, files=("paper_b/figures/x_{dataset}.png",)) -> catalogue.Item:
    return catalogue.Item("B", "Figure 9", "t", "paper_b_plot_x", tuple(files), plot=plot)


def test_plot_params_fill_wildcards_in_config_keys_and_add_values():
    config = {"names": {"a": "Adult", "b": "B"}, "r": {"a": 0.35}, "k": 3}
    plot = catalogue.Plot("f", "c.rst", "s", (("t", "x.csv"),),
                          params=(("name", "names.{dataset}"), ("r", "r.{dataset}"), ("k", "k")),
                          values=(("reading", "paper_r"),))
    params = _params(config, _item(plot), {})
    assert (params["kind"], params["function"], params["stand_in"]) == ("plot", "f", None)
    assert params["plot_params"]({"dataset": "a"}) == {"name": "Adult", "r": 0.35, "k": 3, "reading": "paper_r"}
    with pytest.raises(ValueError, match="no key 'r.b'"):
        params["plot_params"]({"dataset": "b"})
    # a table's plan sets (workflow-derived lists such as the unavailable datasets) come in as params too;
    # without a per-job key the params are one mapping, not a function
    table = catalogue.Plot("f", "c.rst", "s", (("t", "x.csv"),), sets=(("missing", "p.missing"),), kind="table",
                           stand_in=True)
    item = catalogue.Item("A", "Table 9", "t", "paper_a_table9", ("paper_a/tables/t9.csv", "paper_a/tables/t9.md"),
                          plot=table)
    params = _params(config, item, {"p.missing": ["aps"]})
    assert params["plot_params"] == {"missing": ["aps"]} and params["stand_in"] == {"syn": "stand-in"}
    with pytest.raises(ValueError, match="no set 'p.missing'"):
        _params(config, item, {})


def test_an_items_inputs_expand_over_its_dataset_set():
    plot = catalogue.Plot("paper_b.x", "cap.rst", "Figures", (("t", "tables/{d}.csv"), ("u", "one.csv")),
                          datasets="paper_b.s2")
    assert catalogue.plot_inputs(plot, "res", {"paper_b.s2": ["a", "b"]}) == {
        "t": ["res/tables/a.csv", "res/tables/b.csv"], "u": "res/one.csv"}
    with pytest.raises(ValueError, match="paper_b.x: no set 'paper_b.s2'"):
        catalogue.plot_inputs(plot, "res", {})


def test_unknown_function_and_double_registration_are_errors():
    with pytest.raises(KeyError, match="'paper_a.nope' is not registered.*paper_a.fig1"):
        figures.get("paper_a.nope")
    with pytest.raises(ValueError, match="registered twice"):
        figures.register("paper_a.fig1")(lambda t, p: None)


def test_config_value_names_the_missing_key():
    assert configkeys.config_value({"a": {"b": [1, 2]}}, "a.b") == [1, 2]
    with pytest.raises(ValueError, match="no key 'a.c'"):
        configkeys.config_value({"a": {"b": 1}}, "a.c.d")


def test_read_tables_reads_one_file_or_concatenates_a_list(tmp_path):
    for name, rows in (("x", [1, 2]), ("y", [3])):
        pd.DataFrame({"dataset": name, "v": rows}).to_csv(tmp_path / f"{name}.csv", index=False)
    t = figures.read_tables({"one": str(tmp_path / "y.csv"), "many": [str(tmp_path / "x.csv"), str(tmp_path / "y.csv")]})
    assert t["one"]["v"].tolist() == [3]
    assert t["many"]["v"].tolist() == [1, 2, 3] and t["many"].index.tolist() == [0, 1, 2]
    assert figures.shown_datasets({"many": t["many"], "one": t["one"]}) == ["x", "y"]


def test_read_tables_reads_json_and_keeps_tables_without_a_dataset_column_apart(tmp_path):
    for name, r in (("x", 0.5), ("y", 2.0)):
        (tmp_path / f"{name}.json").write_text(f'{{"dataset": "{name}", "r": {r}}}', encoding="utf-8")
        pd.DataFrame({"r": [r, 2 * r]}).to_csv(tmp_path / f"{name}.csv", index=False)
    t = figures.read_tables({"one": str(tmp_path / "x.json"),
                             "choices": [str(tmp_path / "x.json"), str(tmp_path / "y.json")],
                             "curves": [str(tmp_path / "x.csv"), str(tmp_path / "y.csv")]})
    assert t["one"] == {"dataset": "x", "r": 0.5}
    assert [c["r"] for c in t["choices"]] == [0.5, 2.0]
    assert [c["r"].tolist() for c in t["curves"]] == [[0.5, 1.0], [2.0, 4.0]]


BASE = "items:\n  - {paper: A, item: x, title: t, rule: r, files: [a.png, a.pdf], plot: %s}\n"


@pytest.mark.parametrize(
    "plot, message",
    [
        ("{caption: c.rst, subcategory: s, inputs: {t: t.csv}}", r"catalogue.yaml: items\[0\] \('x'\)\.plot: 'function' is a required property"),
        ("{function: f, caption: c.rst, subcategory: s, inputs: {t: t.csv}, colour: red}", r"items\[0\] \('x'\)\.plot\.colour: unknown key"),
        ("{function: f, caption: c.rst, subcategory: s, inputs: {t: '{d}.csv'}}", "plot.datasets"),
        ("{function: f, caption: c.rst, subcategory: s, inputs: {t: t.csv}, params: [a]}", "plot.params"),
        ("{function: f, caption: c.rst, subcategory: s, inputs: {t: t.csv}, values: [a]}", "plot.values"),
        ("{function: f, caption: c.rst, subcategory: s, inputs: {t: t.csv}, params: {n: 'a.{dataset}'}}",
         r"plot.params.n: \['dataset'\] are not wildcards"),
    ],
)
def test_bad_plot_sections_are_errors_naming_the_key(tmp_path, plot, message):
    path = tmp_path / "catalogue.yaml"
    path.write_text(BASE % plot, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        catalogue.load(path)


def test_paper_files_expand_wildcards_over_named_sets_and_skip_empty_when(tmp_path):
    path = tmp_path / "catalogue.yaml"
    path.write_text(
        "items:\n"
        "  - {paper: B, item: x, title: t, rule: r, files: ['f/{dataset}_{method}.csv'],"
        " expand: {dataset: ds, method: ms}}\n"
        "  - {paper: B, item: y, title: t, rule: r, files: [g.csv], when: none}\n"
        "  - {paper: B, item: z, title: t, rule: r, files: [h.csv, h.md], when: ds}\n", encoding="utf-8")
    items = catalogue.load(path)
    files = catalogue.paper_files(items, "B", {"ds": ["a", "b"], "ms": ["p", "f"], "none": []})
    assert files == ["f/a_p.csv", "f/a_f.csv", "f/b_p.csv", "f/b_f.csv", "h.csv", "h.md"]
    with pytest.raises(ValueError, match="B x: no set 'ds'"):
        catalogue.paper_files(items, "B", {"ms": ["p"]})
    path.write_text("items:\n  - {paper: B, item: x, title: t, rule: r, files: ['f/{dataset}.csv']}\n",
                    encoding="utf-8")
    with pytest.raises(ValueError, match="B x: name the set of each wildcard"):
        catalogue.paper_files(catalogue.load(path), "B", {})
    path.write_text("items:\n  - {paper: B, item: x, title: t, rule: r, files: ['f/{dataset}.csv'], "
                    "expand: {d: ds}}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"items\[0\] \('x'\)\.expand: name the set of each wildcard"):
        catalogue.load(path)


def test_wildcards_naming_one_set_of_pairs_range_over_it_jointly(tmp_path):
    """Paper B's Scenario 1 has per-dataset methods: (dataset, method) pairs, not their product."""
    path = tmp_path / "catalogue.yaml"
    path.write_text("items:\n  - {paper: B, item: x, title: t, rule: r, files: ['f/{dataset}_{method}.csv'],"
                    " expand: {dataset: jobs, method: jobs}}\n", encoding="utf-8")
    items = catalogue.load(path)
    assert catalogue.paper_files(items, "B", {"jobs": [("a", "paper"), ("a", "fast"), ("big", "fast")]}) == [
        "f/a_paper.csv", "f/a_fast.csv", "f/big_fast.csv"]
    with pytest.raises(ValueError, match="share the set 'jobs', whose values must be 2-tuples"):
        catalogue.paper_files(items, "B", {"jobs": ["a"]})


def test_plotted_item_must_start_with_its_png(tmp_path):
    path = tmp_path / "catalogue.yaml"
    path.write_text("items:\n  - {paper: A, item: x, title: t, rule: r, files: [a.pdf, a.png], "
                    "plot: {function: f, caption: c.rst, subcategory: s, inputs: {t: t.csv}}}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="first file must be the .png"):
        catalogue.load(path)


@pytest.mark.slow
def test_error_vs_eps_legend_states_the_configured_confidence_level():
    """The sampled trials' intervals are computed at paper_a.ci_level: the legend says that level."""
    from privanomaly.paper_a import plots

    summ = pd.DataFrame({"dataset": "d", "group": "anomaly", "mechanism": ["SP", "DP"], "k": 1, "eps": 1.0,
                         "mean_error": [1e-6, 0.27], "n_records": 3})
    trials = pd.DataFrame({"dataset": "d", "mechanism": ["SP", "DP"], "k": 1, "eps": 1.0, "sampled_error": [0.0, 0.3],
                           "ci_low": [0.0, 0.2], "ci_high": [0.01, 0.4]})
    fig = figures.get("paper_a.error_vs_eps")({"summaries": summ, "trials": trials}, {"k_grid": [1], "ci_level": 0.9})
    texts = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert "sampled trials, 90% CI" in texts and "no mistake sampled: 90% upper bound" in texts
    fig = plots.error_vs_eps(summ, trials, [1])  # the default is the config's default, 0.95
    assert "sampled trials, 95% CI" in [t.get_text() for leg in fig.legends for t in leg.get_texts()]


@pytest.mark.slow
def test_error_vs_eps_draws_every_mechanism_of_the_errors_list():
    """paper_a.mechanisms.errors names the mechanisms of "the error-vs-eps figures": one beyond SP and DP
    is drawn too, with its exact values and sampled points (was: silently left out)."""
    from privanomaly.paper_a import plots

    summ = pd.DataFrame({"dataset": "d", "group": "anomaly", "mechanism": ["SP", "DP", "RR", "SP", "DP", "RR"],
                         "k": [1, 1, 1, 5, 5, 5], "eps": 1.0, "mean_error": [1e-6, 0.27, 0.2689, 1e-3, 0.27, 0.2689],
                         "n_records": 3})
    trials = summ.drop(columns=["group", "mean_error", "n_records"]).assign(
        sampled_error=[0.0, 0.3, 0.25, 0.0, 0.3, 0.25], ci_low=0.0, ci_high=0.4)
    fig = plots.error_vs_eps(summ, trials, [1, 5])
    ax = fig.axes[0]
    rr = [ln for ln in ax.get_lines() if ln.get_label() == "RR, k=1 (exact)"]
    assert len(rr) == 1 and rr[0].get_ydata().tolist() == [0.2689]
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert "RR, k=1 (exact)" in labels and "SP, k=5 (exact)" in labels and "optimal DP (exact)" in labels
    one_k = plots.error_vs_eps(summ[summ["k"] == 1], trials[trials["k"] == 1], [1])
    assert "RR (exact)" in [ln.get_label() for ln in one_k.axes[0].get_lines()]


def test_a_catalogue_typo_is_named_before_any_job(tmp_path):
    """Add-a-figure with a typo in the caption file or the function name: named with the item before any job
    (was: the caption only at `snakemake --report` after the whole run, the function when its plot job ran)."""
    from privanomaly import preflight as configplan
    from privanomaly.config.check import ConfigError

    report = tmp_path / "workflow" / "report"
    report.mkdir(parents=True)
    (report / "mine.rst").write_text("Paper A: mine\n", encoding="utf-8")
    entry = ("items:\n  - {paper: A, item: Mine, title: t, rule: paper_a_mine, files: [m.png, m.pdf], "
             "plot: {function: %s, caption: %s, subcategory: s, inputs: {t: t.csv}}}\n")
    (report / "catalogue.yaml").write_text(entry % ("paper_a.fig1", "mine.rst"), encoding="utf-8")
    items = catalogue.load(report / "catalogue.yaml")
    catalogue.check_sections(items, report, figures.names())  # all good: no error
    configplan.check_catalogue(report)
    (report / "catalogue.yaml").write_text(entry % ("paper_a.fig1", "mien.rst"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"catalogue: A 'Mine' \(plot:\) caption: no file 'mien.rst'"):
        catalogue.check_sections(catalogue.load(report / "catalogue.yaml"), report)
    (report / "catalogue.yaml").write_text(entry % ("paper_a.fgi1", "mine.rst"), encoding="utf-8")
    items = catalogue.load(report / "catalogue.yaml")
    catalogue.check_sections(items, report)  # without the registry (DAG time): captions only
    with pytest.raises(ValueError, match=r"function: 'paper_a.fgi1' is not a registered plot/table function "
                                         r"\(did you mean 'paper_a.fig1'\?\)"):
        catalogue.check_sections(items, report, figures.names())
    with pytest.raises(ValueError, match="paper_a.fgi1"):
        configplan.check_catalogue(report)
    # the real catalogue passes both
    root = Path(__file__).resolve().parents[1] / "workflow" / "report"
    catalogue.check_sections(catalogue.load(root / "catalogue.yaml"), root, figures.names())


def test_scenario1_draws_the_papers_bands_only_for_its_datasets():
    """Figures 3-4's green bands are the paper's claims about Synthetic 1 / Adult 1; on a dataset the paper never
    saw they would read as a claim about it (was: drawn on every dataset, yours included)."""
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Polygon, Rectangle

    from privanomaly.paper_b import plots

    paper = {"r": {"synthetic_b1": 1.1}, "sigma_smooth_max": 7, "sigma_smooth_eps_from": 0.7,
             "sigma_ratio_range": [10, 30]}
    rows = pd.DataFrame({"method": "fast", "convention": "printed", "eps": [0.5, 0.9], "sigma_global": [30.0, 17.0],
                         "sigma_global_upper": [60.0, 33.0], "sigma_smooth": [300.0, 160.0], "ratio": [0.1, 0.1],
                         "true_count": [5, 5], "skipped": ""})

    def bands(name):
        fig = plots.plot_scenario1(rows.assign(dataset=name), name, paper)
        mid, right = fig.axes[1], fig.axes[2]
        return ([c for c in mid.collections if isinstance(c, PolyCollection)],
                [p for p in right.patches if isinstance(p, (Polygon, Rectangle))],
                [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()])

    fill, span, labels = bands("synthetic_b1")
    assert len(fill) == 1 and len(span) == 1 and "paper: 10–30×" in labels
    fill, span, labels = bands("mydata")
    assert fill == [] and span == [] and not any(lb.startswith("paper:") for lb in labels)
