"""Every caption of workflow/report renders as Snakemake's report renders it - Jinja2 with ``trim_blocks`` and
``lstrip_blocks``, then docutils to HTML - without a docutils error in the text a reader sees, without two
words glued together where a Jinja block ends a line, and stating the values of the run it describes.

The configurations are config.yaml and config.yaml + .test/config.yaml; the wildcards and plot params are
those the workflow gives (each paper-B reading, each sweep and sweep figure), so every branch is rendered.
"""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path
from types import SimpleNamespace as NS

import jinja2
import pytest
from docutils.core import publish_parts

from scope_checker import merged_config

ROOT = Path(__file__).resolve().parents[1]
CAPTIONS = sorted((ROOT / "workflow" / "report").glob("*.rst"))
CONFIGS = {"default": merged_config(ROOT), "test": merged_config(ROOT, ROOT / ".test" / "config.yaml")}
# an incomplete run: `make report` lists the missing outputs on the front page (workflow.rst)
CONFIGS["incomplete"] = copy.deepcopy(CONFIGS["test"])
CONFIGS["incomplete"]["report"]["missing_outputs"] = [f"paper_a/tables/t{i}.csv" for i in range(35)]
READINGS = ["", "paper_r", "paper_r_printed_exponent"]
SWEEP_FIGURES = ["error_vs_eps", "gain", "sigma_ratio", "noise_vs_eps", "top_h", "other"]
OFFLINE_UNAVAILABLE = {"creditcard", "aps"}  # not in the mirror: a run without them lists them as unavailable


def _contexts(cfg: dict):
    """One ``snakemake`` object per combination of wildcards/params a caption can be rendered with."""
    for reading in READINGS:
        for sweep in cfg.get("sweeps") or {"none": None}:
            for figure in SWEEP_FIGURES:
                wc = NS(dataset="synthetic_b1", method="paper", paper="A", sweep=sweep, figure=figure,
                        pb_reading=reading, name="paper_a_error_vs_eps")
                # rules sweep_collect/sweep_plot: the sweep's datasets this run has (offline: no creditcard, aps)
                run = [d for d in (cfg["sweeps"][sweep]["datasets"] if sweep != "none" else [])
                       if d not in OFFLINE_UNAVAILABLE]
                yield NS(config=cfg, wildcards=wc,
                         params=NS(plot_params={"reading": reading, "paper_r": 1.1}, datasets=run))


def _render(text: str, sm: NS, trim: bool) -> str:
    env = jinja2.Environment(trim_blocks=trim, lstrip_blocks=trim)
    return env.from_string(text).render(snakemake=sm, categories={}, files=[])


def _cases():
    for path in CAPTIONS:
        for name, cfg in CONFIGS.items():
            yield pytest.param(path, cfg, id=f"{path.stem}-{name}")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # docutils 0.22: writer_name, as Snakemake calls it
@pytest.mark.parametrize("path, cfg", list(_cases()))
def test_caption_renders_without_docutils_messages_or_glued_words(path, cfg):
    text = path.read_text(encoding="utf-8")
    seen = set()
    for sm in _contexts(cfg):
        if path.name in ("sweep_figure.rst", "sweep_table.rst") and not cfg.get("sweeps"):
            continue
        rendered = _render(text, sm, trim=True)
        if rendered in seen:
            continue
        seen.add(rendered)
        # docutils as Snakemake calls it; its messages would be shown inside the caption
        body = publish_parts(rendered, writer_name="html",
                             settings_overrides={"warning_stream": io.StringIO()})["body"]
        assert "system-message" not in body and "problematic" not in body, (
            f"{path.name}: docutils reports a problem in the rendered caption:\n"
            + re.sub(r"<[^>]+>", "", body[body.find("System Message"):])[:400])
        # a block tag that ends a line eats that newline (trim_blocks): the words around it must stay apart
        loose = set(_render(text, sm, trim=False).split())
        glued = [w for w in rendered.split() if w not in loose]
        assert glued == [], f"{path.name}: words glued where a Jinja block ends a line: {glued}"


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_the_checks_catch_a_substitution_and_a_glued_word():
    body = publish_parts("a (|x - y| < 1) b", writer_name="html",
                         settings_overrides={"warning_stream": io.StringIO()})["body"]
    assert "system-message" in body
    text = "a{% if 1 %}\nb{% endif %}\n"
    assert _render(text, NS(), trim=True).split() == ["ab"]
    assert _render(text, NS(), trim=False).split() == ["a", "b"]


def test_timing_caption_states_the_runs_datasets_and_eps():
    cfg = copy.deepcopy(CONFIGS["test"])
    cfg["paper_b"]["timing"]["eps"] = 0.7
    sm = NS(config=cfg, wildcards=NS(), params=NS(plot_params={}))
    text = " ".join(_render((ROOT / "workflow/report/paper_b_timing.rst").read_text(), sm, trim=True).split())
    assert "ε = 0.7" in text and "ε = 0.5" not in text
    # the datasets of paper_b.timing.datasets under the names the table gives them (.test: a slice of Adult)
    assert "Synthetic 1, Adult 2, Adult (3000-row slice)" in text
    assert "all of Adult" not in text


def test_sweep_table_caption_names_the_distance_each_kind_reads_r_off():
    """Paper A reads a fraction or quantile r off the (β+1)-NN distances; paper B off the (k+1)-NN distances
    on dist_S (privanomaly.sweeps.counts.resolve_r_paper_b) - paper B's sweeps have no β."""
    cfg = CONFIGS["test"]
    text = {}
    for name in ("paperAbetaR", "paperBkR"):
        sm = NS(config=cfg, wildcards=NS(sweep=name), params=NS(plot_params={}))
        text[name] = " ".join(_render((ROOT / "workflow/report/sweep_table.rst").read_text(), sm, trim=True).split())
    assert "flagging about that share of the records, read off the (β+1)-NN distances" in text["paperAbetaR"]
    assert "read off the (k+1)-NN distances on paper B's distance dist_S" in text["paperBkR"]
    assert "β" not in text["paperBkR"].split("r given as")[1].split(")")[0]


def test_table1_caption_names_the_datasets_pca_is_applied_to():
    """It stated "credit card, APS and synthetic" as fixed text; it follows ``datasets.<name>.preprocess.pca``."""
    cfg = copy.deepcopy(CONFIGS["default"])
    sm = NS(config=cfg, wildcards=NS(), params=NS(plot_params={}))
    path = ROOT / "workflow/report/paper_a_table1.rst"
    text = " ".join(_render(path.read_text(), sm, trim=True).split())
    assert "applies it: creditcard to 6, aps to 6, synthetic_a to 6;" in text
    cfg["datasets"]["aps"]["preprocess"].pop("pca")
    text = " ".join(_render(path.read_text(), sm, trim=True).split())
    assert "applies it: creditcard to 6, synthetic_a to 6;" in text


def test_audit_caption_states_the_draws_per_cell_of_each_level():
    """The audit page's caption quotes the goodness-of-fit draws per (x_i, B) cell; they are the levels' own."""
    from privanomaly.audit.harness import LEVELS

    text = " ".join((ROOT / "workflow/report/privacy_audit.rst").read_text(encoding="utf-8").split())
    assert f"{LEVELS['fast'].gof_n:,} draws per cell at the fast level, {LEVELS['full'].gof_n:,} at the full one" in text


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("caption", ["sweep_table.rst", "sweep_figure.rst"])
def test_a_sweep_description_is_shown_as_written_whatever_its_characters(caption):
    """A sweep's description is free text: RST markup characters in it (``|x|`` a substitution, ``*`` an
    emphasis, ``name_`` a reference, a backtick, ``[1]_`` a footnote) are shown literally, not parsed."""
    cfg = copy.deepcopy(CONFIGS["test"])
    name = next(iter(cfg["sweeps"]))
    desc = "eps |grid| *fine `x` _y {{ z }} a\\b end_ [1]_ <http://a> k: 1"
    cfg["sweeps"][name]["description"] = desc + "\nsecond line"
    sm = NS(config=cfg, wildcards=NS(sweep=name, figure="error_vs_eps"),
            params=NS(plot_params={}, datasets=["thyroid"]))
    rendered = _render((ROOT / "workflow/report" / caption).read_text(encoding="utf-8"), sm, trim=True)
    body = publish_parts(rendered, writer_name="html", settings_overrides={"warning_stream": io.StringIO()})["body"]
    assert "system-message" not in body and "problematic" not in body
    text = " ".join(re.sub(r"<[^>]+>", "", body).replace("&lt;", "<").replace("&gt;", ">").split())
    assert desc + " second line" in text


def test_paper_b_tables_caption_states_adults_dimension_from_config():
    """Adult's d follows the attributes ``datasets.adult_b1`` keeps (it was the fixed text "d = 5")."""
    cfg = copy.deepcopy(CONFIGS["default"])
    sm = NS(config=cfg, wildcards=NS(pb_reading=""), params=NS(plot_params={}))
    path = ROOT / "workflow/report/paper_b_tables.rst"
    text = " ".join(_render(path.read_text(encoding="utf-8"), sm, trim=True).split())
    assert "Adult has d = 5 here (age, education-num, capital-gain, capital-loss, hours-per-week:" in text
    cfg["datasets"]["adult_b1"]["preprocess"]["drop_columns"].remove("fnlwgt")
    text = " ".join(_render(path.read_text(encoding="utf-8"), sm, trim=True).split())
    assert "Adult has d = 6 here (age, fnlwgt, education-num," in text


@pytest.mark.parametrize("caption", ["sweep_table.rst", "sweep_figure.rst"])
def test_sweep_captions_name_the_datasets_of_the_run_and_the_convention_drawn(caption):
    """The captions list the datasets the sweep's table has (rule param ``datasets``), not the configured ones an
    offline run lacks; sigma_ratio names the convention the figure draws when the sweep lists no ``printed``."""
    cfg = copy.deepcopy(CONFIGS["default"])
    name = next(n for n, s in cfg["sweeps"].items() if s["kind"] == "paper_a")
    sm = NS(config=cfg, wildcards=NS(sweep=name, figure="error_vs_eps"),
            params=NS(plot_params={}, datasets=["synthetic_a", "thyroid"]))
    text = " ".join(_render((ROOT / "workflow/report" / caption).read_text(encoding="utf-8"), sm, trim=True).split())
    assert "synthetic_a, thyroid" in text and "creditcard" not in text
    if caption == "sweep_figure.rst":
        b = next(n for n, s in cfg["sweeps"].items() if s["kind"] == "paper_b")
        sm.wildcards = NS(sweep=b, figure="sigma_ratio")
        cfg["sweeps"][b]["conventions"] = ["local_theorem1", "beta_equals_eps_alpha_without_5"]
        text = " ".join(_render((ROOT / "workflow/report" / caption).read_text(encoding="utf-8"), sm, trim=True).split())
        assert "noise convention beta_equals_eps_alpha_without_5 (a reading of the printed constants" in text
        assert "as printed" not in text
        cfg["sweeps"][b]["conventions"] = ["printed", "local_theorem1"]
        text = " ".join(_render((ROOT / "workflow/report" / caption).read_text(encoding="utf-8"), sm, trim=True).split())
        assert "noise convention as printed (the only one with a DP guarantee)" in text


def test_top_h_sweep_caption_states_the_guarantee_the_utility_and_what_true_means():
    """Precision and recall of top-h discovery mean nothing without what a "true" subspace is
    (paper_b.scenario2.true_subspace) and which exponent was drawn (its guarantee): the caption states both and
    tells the (k, r) lines apart."""
    cfg = copy.deepcopy(CONFIGS["default"])
    b = next(n for n, s in cfg["sweeps"].items() if s["kind"] == "paper_b")
    sm = NS(config=cfg, wildcards=NS(sweep=b, figure="top_h"), params=NS(plot_params={}, datasets=["synthetic_b1"]))
    path = ROOT / "workflow/report/sweep_figure.rst"
    text = " ".join(_render(path.read_text(encoding="utf-8"), sm, trim=True).split())
    assert "u = q_count / GS^UB(k) at the subspace's dimension (eq. 51" in text and "ε/h per draw" in text
    assert "ε-DP for the whole selection" in text
    assert "at least 1 labelled outlier is a distance outlier" in text
    assert "one line style per (k, r) point" in text
    cfg["paper_b"]["scenario2"]["true_subspace"]["min_outliers"] = 2
    cfg["paper_b"]["scenario2"]["utility_sensitivity"] = 0.5
    text = " ".join(_render(path.read_text(encoding="utf-8"), sm, trim=True).split())
    assert "at least 2 labelled outliers are distance outliers" in text
    assert "2ε-DP for the whole selection" in text and "dp_epsilon" in text


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("caption, figure", [("sweep_table.rst", "sigma_ratio"), ("sweep_figure.rst", "sigma_ratio"),
                                             ("sweep_figure.rst", "noise_vs_eps")])
def test_paper_b_sweep_captions_state_a_delta_grid_and_the_mechanisms(caption, figure):
    """A paper-B sweep with a δ list and named count mechanisms: the captions list both, render without a
    docutils message and glue no words."""
    cfg = copy.deepcopy(CONFIGS["test"])
    b = next(n for n, s in cfg["sweeps"].items() if s["kind"] == "paper_b")
    for delta, said in ((0.01, "δ = 0.01"), ([0.01, 1e-05], "δ ∈ 0.01, 1e-05")):
        cfg["sweeps"][b]["delta"] = delta
        sm = NS(config=cfg, wildcards=NS(sweep=b, figure=figure), params=NS(plot_params={}, datasets=["synthetic_b1"]))
        path = ROOT / "workflow/report" / caption
        rendered = _render(path.read_text(encoding="utf-8"), sm, trim=True)
        text = " ".join(rendered.split())
        assert said in text
        if figure == "noise_vs_eps" or caption == "sweep_table.rst":
            assert "gaussian_gs_upper, gaussian_smooth_fast" in text
        body = publish_parts(rendered, writer_name="html", settings_overrides={"warning_stream": io.StringIO()})["body"]
        assert "system-message" not in body
        loose = set(_render(path.read_text(encoding="utf-8"), sm, trim=False).split())
        assert [w for w in rendered.split() if w not in loose] == []
