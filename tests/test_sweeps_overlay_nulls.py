"""An overlay drops a key of a config.yaml sweep by setting it to null (privanomaly.sweeps.spec.parse reads
null as absent; its error message for a change of r's kind says to write ``r: {fraction: null, value: [...]}``).
Every reader of the configuration must then see the key as absent - not only the parser: the report's
captions (rendered by Snakemake from ``snakemake.config``, as tests/test_report_captions.py renders them), the
recorded configuration, the index. The config check (privanomaly.config.check.check_config ->
privanomaly.config.merge.resolve) removes those nulls from the configuration itself."""

from __future__ import annotations

import copy
import io
from pathlib import Path
from types import SimpleNamespace as NS

import jinja2
import pytest
import yaml
from docutils.core import publish_parts

from privanomaly.config import merge as configmerge
from privanomaly.config.check import check_config
from privanomaly.sweeps import spec
from scope_checker import merged_config

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
OVERLAY = {"sweeps": {
    # r changed from fraction (config.yaml) to value, as parse's error message says to write it
    "paperAbetaR": {"r": {"fraction": None, "value": [0.5, 1.0]}},
    # r changed to quantile; Algorithm 2's guard back to paper_b.scenario1's (the schema allows null there)
    "paperBkR": {"r": {"fraction": None, "quantile": [0.9]}, "max_work": None},
}}


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    overlay = tmp_path_factory.mktemp("ovl") / "nulls.yaml"
    overlay.write_text(yaml.safe_dump(OVERLAY))
    cfg = merged_config(ROOT, ROOT / ".test" / "config.yaml", overlay)
    return check_config(cfg, SCHEMA, [ROOT / "config.yaml", ROOT / ".test" / "config.yaml", overlay])


def test_the_checked_configuration_has_no_null_under_a_sweep(checked):
    a, b = checked["sweeps"]["paperAbetaR"], checked["sweeps"]["paperBkR"]
    assert a["r"] == {"value": [0.5, 1.0]}
    assert b["r"] == {"quantile": [0.9]} and "max_work" not in b
    # the parser reads the same sweeps as before the nulls were removed
    assert spec.parse("paperAbetaR", a).r_kind == "value"
    assert spec.parse("paperBkR", b).r_kind == "quantile" and spec.parse("paperBkR", b).max_work is None
    assert configmerge.resolve(copy.deepcopy(checked)) == []  # idempotent: nothing left to change


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("caption", ["sweep_table.rst", "sweep_figure.rst"])
@pytest.mark.parametrize("sweep, figure", [("paperAbetaR", "error_vs_eps"), ("paperAbetaR", "gain"),
                                           ("paperBkR", "sigma_ratio")])
def test_sweep_captions_render_after_an_overlay_drops_keys(checked, caption, sweep, figure):
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    sm = NS(config=checked, wildcards=NS(sweep=sweep, figure=figure), params=NS())
    text = env.from_string((ROOT / "workflow" / "report" / caption).read_text()).render(
        snakemake=sm, categories={}, files=[])
    body = publish_parts(text, writer_name="html", settings_overrides={"warning_stream": io.StringIO()})["body"]
    assert "system-message" not in body
    assert "None" not in text
    if sweep == "paperAbetaR":
        assert "value 0.5, 1.0" in text and "fraction" not in text
        if caption == "sweep_table.rst":
            assert "(absolute radii)" in text
    else:
        assert "quantile 0.9" in text and "fraction" not in text


def test_a_null_description_is_no_description():
    sw = spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": ["sp"], "eps": [1.0], "k": [1],
                          "beta": [2], "r": {"value": [1.0]}, "description": None})
    assert sw.description == ""


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_a_description_written_over_lines_is_one_line_in_the_configuration_and_captions(tmp_path):
    overlay = tmp_path / "desc.yaml"
    overlay.write_text("sweeps:\n  paperAbetaR:\n    description: |\n      first line\n\n      - second line\n")
    cfg = merged_config(ROOT, ROOT / ".test" / "config.yaml", overlay)
    cfg = check_config(cfg, SCHEMA, [ROOT / "config.yaml", ROOT / ".test" / "config.yaml", overlay])
    assert cfg["sweeps"]["paperAbetaR"]["description"] == "first line - second line"
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    sm = NS(config=cfg, wildcards=NS(sweep="paperAbetaR", figure="gain"), params=NS())
    for caption in ("sweep_table.rst", "sweep_figure.rst"):
        text = env.from_string((ROOT / "workflow" / "report" / caption).read_text()).render(
            snakemake=sm, categories={}, files=[])
        assert "first line - second line" in text
        body = publish_parts(text, writer_name="html", settings_overrides={"warning_stream": io.StringIO()})["body"]
        assert "system-message" not in body


# every optional key of a sweep entry, dropped by an overlay: the schema takes null for each (it refused h,
# subspace_dims, beta, mechanisms, metric, ... so an overlay could not turn top-h off or change a sweep's kind)
DROP_ALL = {
    "paperBkR": {"h": None, "subspace_dims": None, "description": None, "methods": None, "delta": None,
                 "conventions": None, "max_subspaces": None, "mechanisms": None},
    "paperAbetaR": {"metric": None, "n_absent": None, "batches": None},
}


def test_an_overlay_drops_every_optional_sweep_key_with_null(tmp_path):
    over = {k: v for k, v in DROP_ALL.items() if v is not None}
    overlay = tmp_path / "drop.yaml"
    overlay.write_text(yaml.safe_dump({"sweeps": over}))
    cfg = merged_config(ROOT, ROOT / ".test" / "config.yaml", overlay)
    checked = check_config(cfg, SCHEMA, [ROOT / "config.yaml", ROOT / ".test" / "config.yaml", overlay])
    a, b = checked["sweeps"]["paperAbetaR"], checked["sweeps"]["paperBkR"]
    assert not set(over["paperBkR"]) & set(b) and not set(over["paperAbetaR"]) & set(a)
    sb, sa = spec.parse("paperBkR", b), spec.parse("paperAbetaR", a)
    assert (sb.h, sb.subspace_dims, sb.methods, sb.conventions, sb.delta, sb.mechanisms) == ((), (), ("fast",),
                                                                                             ("printed",), (0.01,), ())
    assert (sa.metric, sa.n_absent, sa.batches) == ("euclidean", 0, ())


def test_an_overlay_changes_a_sweeps_kind_by_dropping_the_other_kinds_keys(tmp_path):
    overlay = tmp_path / "kind.yaml"
    overlay.write_text(yaml.safe_dump({
        "paper_a": {"claims": {"sweep": None}},  # the claims read a paper-A sweep: not this one any more
        "sweeps": {"paperAbetaR": {"kind": "paper_b", "beta": None, "mechanisms": None, "n_absent": None,
                                   "batches": None}}}))
    cfg = merged_config(ROOT, ROOT / ".test" / "config.yaml", overlay)
    checked = check_config(cfg, SCHEMA, [ROOT / "config.yaml", ROOT / ".test" / "config.yaml", overlay])
    sw = spec.parse("paperAbetaR", checked["sweeps"]["paperAbetaR"])
    assert sw.kind == "paper_b" and sw.beta == () and sw.batches == () and sw.mechanisms == ()
