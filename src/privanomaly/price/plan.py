"""What rule privacy_price reads from the configuration: its datasets and the settings of each paper.

Kept apart from :mod:`privanomaly.price.tuning` (which computes the price and imports the selection and
outlier code) so that planning the workflow imports no numerical code."""

from __future__ import annotations

from collections.abc import Mapping

from privanomaly.paper_a.plan import PaperASets
from privanomaly.paper_b.plan import PaperBSets

TUNINGS = ("paper", "public_split", "private_selection")
"""The tunings a row of the price table is computed for (:mod:`privanomaly.price.tuning`), in table order; here,
light, for the figure (:mod:`privanomaly.price.plots`) too."""


def paper_settings(paper: str, config: Mapping) -> dict:
    """The keys of the paper's config section that :func:`privanomaly.price.tuning.price_table` reads (the
    rule's params: it reruns when one of them changes, and only then)."""
    if paper == "A":
        pa = config["paper_a"]
        sel = pa["selection"]
        # seed: the protocol's subsample of query rows is rule paper_a_select's (its ``paper`` row is Table 1's tuning)
        return {"selection": {k: sel.get(k) for k in ("betas", "fractions", "max_query_rows")},
                "k_main": pa["k_main"], "metric": pa["metric"], "seed": config["seed"]}
    pb = config["paper_b"]
    return {"k": pb["k"], "delta": pb["delta"],
            "tuning": {"r_grid": pb["tuning"]["r_grid"], "tie_break": pb["tuning"].get("tie_break", "smallest")}}


def datasets_of(paper: str, pa_sets: PaperASets, pb_sets: PaperBSets) -> list[str]:
    """The datasets of the price table: paper A's table datasets, paper B's Tables 1-2 datasets (this run)."""
    return list(pa_sets.tables if paper == "A" else pb_sets.table_sets)
