"""The CPU-time outlook of paper B's jobs (privanomaly.paper_b.cost): a function of public quantities only, growing
with every one of them, and within its stated factor of the measurements it was calibrated on (the numbers of
the module's docstring; timing them again here would make the test depend on the machine's load)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml

from privanomaly.datasets.plan import DataPlan
from privanomaly.paper_b import cost
from privanomaly.paper_b import plan as pb_plan
from privanomaly.sweeps.plan import SweepPlan, b_estimates

# (N, d, microseconds per record) measured for cost.knn_seconds (k = 3 + 1) and cost.count_seconds (cap 3)
KNN = [(20_000, 1, 0.80), (20_000, 3, 1.65), (20_000, 6, 8.72), (20_000, 9, 49.45), (20_000, 14, 241.4),
       (20_000, 21, 784.8), (80_000, 6, 11.51), (80_000, 9, 118.4), (284_807, 6, 15.4)]
COUNT = [(20_000, 1, 1.00), (20_000, 3, 1.79), (20_000, 6, 3.22), (20_000, 9, 7.86), (20_000, 14, 32.67),
         (20_000, 21, 81.03), (80_000, 6, 3.52), (80_000, 9, 8.76)]
TOP_H = [(6, 0.0079), (34, 0.015), (100, 2.95), (6, 0.036), (29, 0.238), (100, 3.66), (34, 0.033)]  # s per cell


@pytest.mark.parametrize("N, d, us", KNN)
def test_knn_model_within_a_factor_3_of_its_measurements(N, d, us):
    assert 1 / 3 <= cost.knn_seconds(N, d, 4) / (N * us * 1e-6) <= 3


@pytest.mark.parametrize("N, d, us", COUNT)
def test_count_model_within_a_factor_3_of_its_measurements(N, d, us):
    assert 1 / 3 <= cost.count_seconds(N, d, 3) / (N * us * 1e-6) <= 3


@pytest.mark.parametrize("m, seconds", TOP_H)
def test_top_h_model_within_a_factor_10_of_its_measurements(m, seconds):
    assert 1 / 10 <= cost.top_h_cell_seconds(m, 1000) / seconds <= 10


def test_the_estimates_grow_with_every_public_quantity():
    assert cost.tune_r_seconds(10_000, 6, 3, 466) < cost.tune_r_seconds(20_000, 6, 3, 466) < \
        cost.tune_r_seconds(20_000, 9, 3, 466) < cost.tune_r_seconds(20_000, 9, 3, 5000)
    assert cost.scenario2_seconds(500, 10, 3, 1, 64, 1000) < cost.scenario2_seconds(500, 10, 3, 1, 64, 2000) < \
        cost.scenario2_seconds(500, 10, 3, 1, 128, 2000) < cost.scenario2_seconds(500, 10, 3, 2, 128, 2000)
    assert cost.scenario2_seconds(500, 3, 3, 1, 64, 1000) < cost.scenario2_seconds(500, 10, 3, 1, 64, 1000)
    s = {"delta": 0.01, "methods": ["fast"], "mechanisms": [], "h": [1], "subspace_dims": [1], "eps": [0.5],
         "max_work": None, "max_subspaces": 100}
    one = cost.sweep_point_seconds(50_000, 6, 3, s, [0.02], True)
    assert one < cost.sweep_point_seconds(50_000, 6, 3, s, [0.01], True)  # a longer horizon
    assert cost.sweep_point_seconds(50_000, 6, 3, s, [0.02], False) < one  # r given: no k-NN radius
    assert one < cost.sweep_point_seconds(50_000, 6, 3, {**s, "delta": [0.01, 0.001]}, [0.02], True)
    assert one < cost.sweep_point_seconds(50_000, 6, 3, {**s, "h": [1, 2]}, [0.02], True)
    guarded = cost.sweep_point_seconds(50_000, 6, 3, {**s, "methods": ["fast", "paper"], "max_work": 700}, [0.02],
                                       True)
    assert guarded == pytest.approx(one + 1.0)  # 700 units at 700 per second, one beta
    assert cost.sweep_point_seconds(50, 2, 3, {**s, "methods": ["paper"]}, [0.02], True) is None  # no guard
    assert cost.say(None, "x").startswith("unbounded") and cost.say(0.2, "x") == "under 1 s CPU (x)"
    assert cost.say(12.4, "x") == "about 12 s CPU or less (x)"


def _config(tmp_path, shape=(5000, 6)):
    cfg = yaml.safe_load(open("config.yaml"))
    cfg["results_dir"] = str(tmp_path)
    rng = np.random.default_rng(0)
    data = pd.DataFrame(rng.normal(size=shape), columns=[f"x{i}" for i in range(shape[1])])
    data["label"] = np.zeros(shape[0], dtype=np.int8)
    (tmp_path / "data").mkdir(exist_ok=True)
    for name in ("synthetic_b2", "adult_b1"):
        data.to_parquet(tmp_path / "data" / f"{name}.parquet")
    cfg["sweeps"] = {"tryB": {"kind": "paper_b", "datasets": ["synthetic_b2", "adult_b2"], "k": [3, 4],
                              "r": {"fraction": [0.01, 0.05]}, "eps": [0.1, 0.5], "methods": ["fast"]}}
    return cfg, data


def test_the_outlook_names_every_paper_b_job_kind_from_its_shape_only(tmp_path):
    cfg, data = _config(tmp_path)
    plan = DataPlan(cfg)
    pb = cfg["paper_b"]
    sets = pb_plan.sets(pb, list(pb["datasets"]))
    lines = pb_plan.job_estimates(pb, sets, plan.parquet)
    assert f"tune_r synthetic_b2: {cost.say(cost.tune_r_seconds(5000, 6, 3, 466), 'k-NN radii, N = 5,000, d = 6')}" \
        in lines
    assert any(x.startswith("scenario2 synthetic_b2: ") and "64 cells, N = 5,000, d = 6" in x for x in lines)
    assert "scenario2 adult_b2, ionosphere_b: estimated once the table is prepared" in lines
    sweeps = SweepPlan(cfg["sweeps"], lambda names, key: names, list, None, None)
    swept = b_estimates(sweeps, pb, plan.parquet)
    assert swept[0].startswith("sweep tryB synthetic_b2: about ") and "4 (k, r) points" in swept[0]
    assert swept[1] == "sweep tryB adult_b2: estimated once its table is prepared"
    # the data's values never enter: the same lines from other values of the same shape
    data.iloc[:, :6] = 0.0
    data.to_parquet(tmp_path / "data" / "synthetic_b2.parquet")
    assert pb_plan.job_estimates(pb, sets, plan.parquet) == lines
    assert b_estimates(sweeps, pb, plan.parquet) == swept
