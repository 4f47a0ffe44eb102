"""Every σ's proven flag stands beside its σ: in every table with a σ column, the column ``<σ>_proven``
follows ``<σ>`` immediately, and no ``*_proven`` flag of a σ stands anywhere else.

A Scenario-1 table once put ``sigma_global`` (the unproven GS-lower σ) next to ``proven_global_upper = True``,
the flag of another σ, and a script read it as that σ's. The tables checked are derived from the source: every
module whose dict literals name a σ column (a ``sigma_*`` key that is a noise scale) must have a builder below,
so a new table with a σ column fails here until it is checked."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import price_inputs
import privanomaly
from privanomaly.paper_b import comparison, scenario1
from privanomaly.privacy import scope
from privanomaly.sweeps import sigma as sweep_sigma

SRC = Path(privanomaly.__file__).parent
# sigma_* names that are not noise scales: a ratio of two σ, verdicts, a lazy-import map of function names
NOT_A_SIGMA = {"sigma_ratio", "sigma_claim_holds", "sigma_at_least_theorem1"}
NOT_TABLES = {"privanomaly.outliers"}  # __init__: {function name: module} for lazy imports, not a table


def is_sigma(col: str) -> bool:
    return col.startswith("sigma_") and not col.endswith("_proven") and col not in NOT_A_SIGMA


def sigma_emitters() -> set[str]:
    """Modules with a dict literal whose key is a σ column (a table row)."""
    out = set()
    for path in SRC.rglob("*.py"):
        mod = ".".join(("privanomaly", *path.relative_to(SRC).with_suffix("").parts)).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                  and is_sigma(k.value) for k in node.keys):
                out.add(mod)
    return out - NOT_TABLES


def _fake_smooth(beta):
    return {"value": 2.0, "ls0": 1.0, "t_max": 0, "t_stop": 1, "method_used": "fast", "work_paper": 0}


def _scenario1() -> pd.DataFrame:
    X = np.random.default_rng(0).normal(size=(30, 2))
    df = scenario1.scenario1_table(X, 3, 1.0, [0.5, 1.0, 8.0], 0.01, ["printed", "local_theorem1"], _fake_smooth)
    df.insert(0, "method", "fast")
    df.insert(0, "dataset", "x")
    return scope.paper_b_scenario1({"r": 1.0}, {"steps": []}).add_to(df, scope.scenario1_proven(df))  # as the rule


def _comparison() -> pd.DataFrame:
    return comparison.convention_summary(_scenario1(), {"sigma_smooth_eps_from": 0.7})


def _sweep() -> pd.DataFrame:
    X = np.random.default_rng(1).normal(size=(25, 2))
    return sweep_sigma.sigma_rows(X, 2, 1.0, [0.5, 2.0], 0.01, ["printed"], ["fast"], lambda m: _fake_smooth)


def _price_b() -> pd.DataFrame:
    from privanomaly.price import tuning as honest_tuning

    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(55, 2)), rng.normal(6.0, 2.0, size=(5, 2))])
    y = np.r_[np.zeros(55, int), np.ones(5, int)]
    return honest_tuning.paper_b_price(X, y, {"steps": []}, k=3, delta=0.01, eps_grid=[0.5, 2.0],
                                       radii=np.geomspace(0.1, 3, 8), **price_inputs.split_args(X, y, 0.2, 1),
                                       selection_share=0.1)


# one builder per table kind, keyed by the module that names its σ columns (the sweep's σ rows are Scenario 1's)
BUILDERS = {"privanomaly.paper_b.scenario1": [_scenario1, _sweep], "privanomaly.paper_b.comparison": [_comparison],
            "privanomaly.price.tuning": [_price_b]}


def assert_flags_beside(df: pd.DataFrame) -> int:
    """Each σ column is followed by its own ``<σ>_proven``; every flag of a σ follows its σ. Returns #σ."""
    cols = list(df.columns)
    sigmas = [c for c in cols if is_sigma(c)]
    for c in sigmas:
        i = cols.index(c)
        assert i + 1 < len(cols) and cols[i + 1] == f"{c}_proven", (c, cols[i: i + 3])
        flag = df[cols[i + 1]].dropna()
        assert flag.map(lambda v: isinstance(v, (bool, np.bool_))).all(), (c, flag.tolist())
    for c in cols:
        if c.endswith("_proven") and c.startswith("sigma_"):
            assert cols[cols.index(c) - 1] == c.removesuffix("_proven"), c
    return len(sigmas)


@pytest.mark.slow
def test_every_module_naming_a_sigma_column_has_its_table_checked():
    emitters = sigma_emitters()
    assert {"privanomaly.paper_b.scenario1", "privanomaly.price.tuning"} <= emitters  # the derivation finds them
    assert emitters <= set(BUILDERS), f"a table names σ columns without a check here: {emitters - set(BUILDERS)}"


@pytest.mark.parametrize("build", [b for bs in BUILDERS.values() for b in bs], ids=lambda b: b.__name__)
def test_each_sigma_is_followed_by_its_own_flag(build):
    assert assert_flags_beside(build()) >= 1


def test_scenario1_flags_say_which_sigma_they_belong_to():
    df = _scenario1()
    pr, loc = df[df["convention"] == "printed"], df[df["convention"] == "local_theorem1"]
    assert list(df.columns[2:2 + len(scenario1.ANSWER_COLUMNS)]) == scenario1.ANSWER_COLUMNS  # after dataset, method
    assert not df["sigma_global_proven"].any()  # the GS lower bound proves nothing, whatever the next σ says
    assert pr["sigma_global_upper_proven"].tolist() == [True, True, False]  # Theorem 1's condition fails at ε = 8
    assert pr["sigma_smooth_proven"].all() and not loc["sigma_smooth_proven"].any()


def test_price_b_flag_is_the_release_claims_own():
    from privanomaly import mechanisms

    t = _price_b()
    gauss = mechanisms.get("gaussian_gs_upper")
    want = [gauss.claim(eps=e, delta=0.01).proven for e in t["eps_release"]]
    assert t["sigma_global_upper_proven"].tolist() == want and all(want)  # past Theorem 1 the row is not made


def test_the_check_catches_a_flag_beside_the_wrong_sigma():
    bad = pd.DataFrame({"sigma_global": [1.0], "sigma_global_upper": [2.0], "sigma_global_upper_proven": [True]})
    with pytest.raises(AssertionError):
        assert_flags_beside(bad)
    with pytest.raises(AssertionError):
        assert_flags_beside(pd.DataFrame({"sigma_smooth_proven": [True], "sigma_smooth": [1.0]}))
