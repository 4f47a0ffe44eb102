"""What report.smk plans from a run's targets: the claims files the index reads, the gallery thumbnails."""

from __future__ import annotations

import pytest

from privanomaly.report import catalogue, gallery


def test_claims_files_are_those_of_the_papers_in_the_run():
    built = ["paper_a/claims.md", "paper_a/tables/table1.csv"]
    assert catalogue.claims_files(built, "R") == {"A": "R/paper_a/claims.md"}
    assert catalogue.claims_files([*built, "paper_b/comparison.md"], "R") == {
        "A": "R/paper_a/claims.md", "B": "R/paper_b/comparison.md"}
    assert catalogue.claims_files([], "R") == {}


def test_gallery_sources_are_the_configured_figures_this_run_builds():
    built = ["paper_a/figures/fig2_accuracy_privacy.png", "paper_b/figures/fig1_gs_bounds.png"]
    wanted = ["paper_b/figures/fig1_gs_bounds.png", "paper_a/figures/fig2_accuracy_privacy.png",
              "paper_a/figures/not_built.png"]
    assert gallery.sources(wanted, built, "R") == {
        "R/gallery/paper_b_fig1_gs_bounds.png": "R/paper_b/figures/fig1_gs_bounds.png",
        "R/gallery/paper_a_fig2_accuracy_privacy.png": "R/paper_a/figures/fig2_accuracy_privacy.png",
    }
    with pytest.raises(ValueError, match="not a .png"):
        gallery.sources(["paper_a/tables/table1.csv"], ["paper_a/tables/table1.csv"], "R")
