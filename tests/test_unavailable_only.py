"""A run whose paper-A datasets are all unavailable (``paper_a.datasets: [creditcard, aps]`` offline) writes its
tables with the noted rows, its figures with a "no data" note and claims.md with N/A verdicts, instead of
failing in the generic rule (``KeyError: 'dataset'``) or on an empty growth table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml

from privanomaly.paper_a import claims, tables
from privanomaly.report import figures

ROOT = Path(__file__).resolve().parents[1]
MISSING = {"creditcard": "not in mirror", "aps": "not in mirror"}


@pytest.mark.slow
def test_figures_of_no_dataset_are_drawn_with_a_note(tmp_path):
    for name, inputs, params in [
        ("paper_a.error_vs_eps", {"summaries": [], "trials": []}, {"k_grid": [1, 5]}),
        ("paper_a.normal_and_ranked", {"summaries": [], "ranked": []}, {"k_main": 1, "eps_ref": 1.0}),
    ]:
        out = [str(tmp_path / f"{name}.png"), str(tmp_path / f"{name}.pdf")]
        figures.render(name, inputs, params, None, out)
        assert all(Path(p).stat().st_size > 1000 for p in out)


def test_growth_table_of_unavailable_datasets_has_noted_rows_and_columns(tmp_path):
    df = tables._growth_table({"curves": []}, {"configured": ["creditcard"], "missing": MISSING})
    assert list(df["dataset"]) == ["creditcard"]
    assert df["n_records"].isna().all() and "not available" in df["note"].iloc[0]
    assert "mean_error_sp" in df.columns
    # the table as the rule writes it is readable, and its plot draws the "no data" figure
    path = tmp_path / "growth.csv"
    df.to_csv(path, index=False)
    out = [str(tmp_path / "g.png"), str(tmp_path / "g.pdf")]
    figures.render("paper_a.growth", {"table": str(path)}, {}, None, out)
    assert Path(out[0]).stat().st_size > 1000


def test_growth_table_keeps_curves_and_notes_only_configured_missing():
    curve = pd.DataFrame([dict(dataset="thyroid", size_fraction=0.5, n_records=100, beta=5, r=1.0, n_anomalies=3,
                               eps=1.0, k=1, mean_error_sp=0.1, median_error_sp=0.0, mean_error_dp=0.3)])
    df = tables.growth_table(curve, ["creditcard"])
    assert list(df["dataset"]) == ["thyroid", "creditcard"]
    assert df["note"].iloc[0] == "" and df["n_records"].iloc[0] == 100
    assert list(tables._growth_table({"curves": []}, {"configured": [], "missing": MISSING})["dataset"]) == []


def test_claims_on_no_rows_are_not_applicable():
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text())["paper_a"]
    empty = {name: pd.DataFrame() for name in claims.TABLES}
    empty["growth"] = tables.growth_table(pd.DataFrame(), ["creditcard"])  # noted row only
    paper, yours, _ = claims.evaluate_by_scope(empty, cfg, [], list(cfg["datasets"]))
    assert len(paper) == len(claims.CLAIMS) and not yours
    assert {r.verdict for r in paper} <= {"N/A", "PASS"}
    assert next(r for r in paper if r.id == "A4").verdict == "N/A"
