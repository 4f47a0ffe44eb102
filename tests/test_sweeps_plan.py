"""privanomaly.sweeps.plan.SweepPlan: which sweeps run, their targets, the claims sweep (workflow/rules/common.smk)."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly.sweeps.plan import SweepPlan

CFG = {
    "a": {"kind": "paper_a", "datasets": ["thyroid", "gone"], "mechanisms": ["sp"], "eps": [0.5, 1.0], "k": [1], "beta": [5], "r": {"fraction": [0.05]}},
    "b": {"datasets": ["syn"], "kind": "paper_b", "k": [3], "r": {"fraction": [0.1]}, "eps": [0.5], "h": [1],
          "subspace_dims": [1], "methods": ["fast"], "conventions": ["printed"]},
    "off": {"kind": "paper_a", "datasets": ["gone"], "mechanisms": ["sp"], "eps": [1.0], "k": [1], "beta": [5], "r": {"fraction": [0.05]}},
}


def _plan(cfg=CFG):
    def check(names, key):
        bad = [n for n in names if n not in {"thyroid", "syn", "gone"}]
        if bad:
            raise ValueError(f"{key}: unknown dataset {bad[0]!r}")
        return names

    return SweepPlan(cfg, check, lambda names: [n for n in names if n != "gone"])


def test_sweeps_run_on_their_available_datasets_and_list_their_files():
    plan = _plan()
    assert (plan.a, plan.b, plan.skipped) == (["a"], ["b"], ["off"])
    assert plan.datasets["a"] == ["thyroid"]
    assert plan.targets("S") == [
        # sweep a has SP alone: no other mechanism to show SP's gain over, so no `gain` figure
        "S/a/sweep.parquet", "S/a/sweep.csv", "S/a/figures/error_vs_eps.png", "S/a/figures/error_vs_eps.pdf",
        "S/b/sweep.parquet", "S/b/sweep.csv", "S/b/figures/sigma_ratio.png", "S/b/figures/sigma_ratio.pdf",
        "S/b/figures/top_h.png", "S/b/figures/top_h.pdf",
    ]
    assert [e["name"] for e in plan.index_entries()] == ["a", "b"]
    assert plan.cap("a") > 0
    # one target rule per sweep that runs (not "off"), each building that sweep's files alone
    assert plan.target_rules() == {"sweep_a": "a", "sweep_b": "b"}
    assert plan.targets("S", ["b"]) == [f for f in plan.targets("S") if f.startswith("S/b/")]
    assert plan.or_scenario1("b", "max_work", {"max_work": 123}) == 123


def test_claims_sweep_is_a_paper_a_sweep_that_runs():
    plan = _plan()
    assert plan.claims_sweep("a") == "a" and plan.claims_sweep(None) == "" and plan.claims_sweep("off") == ""
    with pytest.raises(ValueError, match="paper_a.claims.sweep: 'nope' is not a sweep"):
        plan.claims_sweep("nope")
    with pytest.raises(ValueError, match="'b' is a paper_b sweep"):
        plan.claims_sweep("b")
    with pytest.raises(ValueError, match="sweeps.x.datasets: unknown dataset 'mine'"):
        _plan({"x": dict(CFG["a"], datasets=["mine"])})


@pytest.mark.parametrize("drop, named", [("subspace_dims", "sweeps.b.subspace_dims"), ("h", "sweeps.b.h")])
def test_top_h_needs_both_h_and_subspace_dims(drop, named):
    """h without subspace_dims (or the reverse) would give no top-h rows and an empty figure: an error
    naming the missing key."""
    cfg = {**CFG, "b": {k: v for k, v in CFG["b"].items() if k != drop}}
    with pytest.raises(ValueError, match=named.replace(".", r"\.") + ": sweeps.b." + ("h" if drop != "h" else "subspace_dims")):
        _plan(cfg)
    assert _plan({"b": {k: v for k, v in CFG["b"].items() if k not in ("h", "subspace_dims")}}).b == ["b"]


def test_a_sweep_past_the_point_limit_stops_before_its_grid_is_built():
    big = {**CFG["a"], "datasets": ["thyroid"], "eps": [round(0.001 * i, 3) for i in range(1, 1001)],
           "k": list(range(1, 31)), "beta": list(range(1, 101))}  # 1 x 100 x 1 x 30 x 1000 = 3,000,000 points
    with pytest.raises(ValueError, match=r"sweeps\.a: its grid has 3,000,000 points, more than sweep_max_points = 50,000"):
        SweepPlan({"a": big}, lambda n, k: n, lambda n: list(n), max_points=50_000)
    assert SweepPlan({"a": CFG["a"]}, lambda n, k: n, lambda n: list(n), max_points=4).a == ["a"]  # 2x1x1x1x2
    with pytest.raises(ValueError, match="its grid has 4 points"):
        SweepPlan({"a": CFG["a"]}, lambda n, k: n, lambda n: list(n), max_points=3)


def test_figures_are_every_registered_sweep_figure(monkeypatch):
    """Rule sweep_plot's `figure` wildcard ranges over these: a name added to index.FIGURES joins it."""
    from privanomaly.sweeps import index

    assert SweepPlan.figures() == ["error_vs_eps", "gain", "sigma_ratio", "noise_vs_eps", "top_h"]
    monkeypatch.setitem(index.FIGURES, "paper_a", (*index.FIGURES["paper_a"], "spread"))
    assert "spread" in SweepPlan.figures() and "S/a/figures/spread.png" in _plan().targets("S")


def test_claims_sweep_gone_with_the_sweeps_says_how_to_go_on():
    # `sweeps: null` in an overlay removes every sweep; the message must say to set the claim sweep to null
    plan = SweepPlan(None, lambda names, key: names, lambda names: list(names))
    with pytest.raises(ValueError, match=r"'paperAbetaR' is not a sweep \(known: none\); .*set "
                                         r"paper_a\.claims\.sweep: null"):
        plan.claims_sweep("paperAbetaR")


def test_a_paper_b_sweep_without_top_h_has_no_top_h_figure():
    """Neither h nor subspace_dims: the sweep computes σ rows only, so it has no top-h figure (was: a figure
    reading "no top-h cell in this sweep (see the table's `skipped`)" though nothing was skipped)."""
    plan = _plan({"b": {k: v for k, v in CFG["b"].items() if k not in ("h", "subspace_dims")}})
    assert plan.targets("S") == ["S/b/sweep.parquet", "S/b/sweep.csv", "S/b/figures/sigma_ratio.png",
                                 "S/b/figures/sigma_ratio.pdf"]
    (entry,) = plan.index_entries()
    assert entry["files"] == ["sweeps/b/sweep.parquet", "sweeps/b/sweep.csv", "sweeps/b/figures/sigma_ratio.png"]
    assert "no top-h (no h, subspace_dims)" in entry["grid"] and "h ∈ {}" not in entry["grid"]
    assert "S/b/figures/top_h.png" in _plan().targets("S")  # with h and subspace_dims: both figures


def test_cap_follows_the_smallest_noise_share_of_the_sweeps_mechanisms():
    """A mechanism whose noise runs at ε/4 (noise_share 0.25) in a sweep: the counts are capped where its errors
    are still exact to 2^-60 (was: the cap of ε/2 whatever the mechanisms, so its reported errors on far records
    were those of the capped distance, off by up to 2^-30)."""
    from privanomaly import mechanisms as M
    from privanomaly import sp
    from privanomaly.mechanisms.paper_a import OptimalDP

    class Quarter(OptimalDP):
        noise_share = 0.25

        def rate(self, eps):
            return sp.rational_rate(eps / 4)

    M.register("quarter_test")(Quarter)
    try:
        base = dict(CFG["a"], datasets=["thyroid"], mechanisms=["sp", "optimal_dp", "compiler"])
        default = SweepPlan({"a": base}, lambda n, k: n, list).cap("a")
        assert default == sp.recommended_cap(5, 0.5 / 4)  # the compiler's share: 1/4
        cap = SweepPlan({"a": dict(base, mechanisms=["sp", "quarter_test"])}, lambda n, k: n, list).cap("a")
        half = SweepPlan({"a": dict(base, mechanisms=["sp"])}, lambda n, k: n, list).cap("a")  # the ε/2 default
        assert cap == sp.recommended_cap(5, 0.5 / 4) > half
        m, far = M.get("quarter_test"), np.array([10_000])
        exact = m.error(np.array([1]), far, beta=5, k=1, eps=0.5)[0]
        assert abs(m.error(np.array([1]), far, beta=5, k=1, eps=0.5, cap=cap)[0] - exact) <= 2.0**-60
        assert abs(m.error(np.array([1]), far, beta=5, k=1, eps=0.5, cap=half)[0] - exact) > 2.0**-40
    finally:
        M.unregister("quarter_test")


def test_index_links_every_figure_file_of_a_sweep():
    """results/index.md links each sweep figure's PNG and the PDF written beside it (was: the PNG only, so the
    index did not list outputs the run wrote)."""
    import re

    from privanomaly.sweeps import index

    plan = _plan()
    text = index.render(plan.index_entries())
    for name in ("a", "b"):
        figs = [t for t in plan.targets("S") if t.startswith(f"S/{name}/figures/")]
        linked = {f"S/{m[len('sweeps/'):]}" for m in re.findall(r"\]\((sweeps/[^)]+)\)", text)}
        assert figs and set(figs) <= linked, (figs, linked)


def test_no_sweep_name_makes_the_target_rule_of_a_workflow_rule():
    """A sweep's target rule is sweep_<name>: the schema refuses exactly the names of the workflow's sweep_* rules."""
    import re
    from pathlib import Path

    from privanomaly.config.check import schema_errors

    root = Path(__file__).resolve().parents[1]
    schema = root / "workflow" / "schemas" / "config.schema.yaml"
    rules = re.findall(r"^rule sweep_([A-Za-z][A-Za-z0-9]*):", (root / "workflow/rules/sweeps.smk").read_text(), re.M)
    assert sorted(rules) == ["chunk", "collect", "counts", "plot"]
    for name in rules:
        errs = [e for e in schema_errors({"sweeps": {name: CFG["a"]}}, schema) if e.startswith(f"config key sweeps.{name}")]
        assert errs and "key name" in errs[0], name
    assert not [e for e in schema_errors({"sweeps": {"plots": CFG["a"]}}, schema) if e.startswith("config key sweeps")]
