"""The released path of the end-to-end rows (privanomaly.price.released_path), checked on raw records:

* membership is per record: adding, removing or moving one record never changes another's; duplicates share it;
* public by construction: adding, removing or substituting one private record leaves every public quantity -
  public features, candidate grid, public choice - identical bit for bit, on random and adversarial datasets
  (integer-valued, duplicates, points at r(1 ± ulps), constant columns, far clusters, PCA and imputation on the
  public part), while moving a public record does move them (the check is not vacuous);
* the scope is read off what ran: a label-stratified subsample, PCA / imputation / z-scores fitted on all
  records, a choice read from the labels - each is listed, one test per kind;
* every row kind that can say proven_end_to_end has an audit row, which passes; each negative control is caught.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import price_inputs
from privanomaly.price import tuning as price
from privanomaly.price import released_path as rp
from privanomaly.audit import harness
from privanomaly.audit import released_path as audit_rp
from privanomaly.privacy import membership, public_fit, scope, selection_methods

SEED, FRAC = audit_rp.SEED, audit_rp.FRACTION  # the key and fraction run_path uses


# ---------------------------------------------------------------------------------------------- membership
def test_membership_of_a_record_never_depends_on_the_others():
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(300, 3)), 2)
    y = (rng.random(300) < 0.2).astype(int)
    pub = membership.public_mask(X, y, SEED, FRAC)
    for _ in range(20):
        i = int(rng.integers(300))
        keep = np.delete(np.arange(300), i)
        assert np.array_equal(membership.public_mask(X[keep], y[keep], SEED, FRAC), pub[keep])  # removed
        perm = rng.permutation(300)
        assert np.array_equal(membership.public_mask(X[perm], y[perm], SEED, FRAC), pub[perm])  # reordered
        X2 = X.copy()
        X2[i] += 1.5  # one record moved: only its own membership may change
        assert np.array_equal(np.delete(membership.public_mask(X2, y, SEED, FRAC), i), np.delete(pub, i))
    assert 0.3 < pub.mean() < 0.5


def test_duplicates_share_membership_and_equal_values_hash_alike():
    X = np.array([[1.0, 2.0], [1.0, 2.0], [0.0, np.nan], [-0.0, np.nan], [1.0, 2.0]])
    y = np.array([0, 0, 1, 1, 1])
    h = membership.record_hash(X, y, SEED)
    assert h[0] == h[1] and h[2] == h[3] and h[0] != h[4]  # the label is part of the record
    assert membership.record_hash(X, y, SEED + 1)[0] != h[0]


def test_the_public_part_is_in_a_canonical_order():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(80, 2)), np.zeros(80, int)
    s = membership.split(X, y, SEED, FRAC)
    perm = rng.permutation(80)
    t = membership.split(X[perm], y[perm], SEED, FRAC)
    assert X[s.public].tobytes() == X[perm][t.public].tobytes()


# ------------------------------------------------------------------------------- public by construction
def _random_world(seed: int) -> tuple[np.ndarray, np.ndarray, public_fit.Spec]:
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(16, 40)), int(rng.integers(1, 4))
    shape = seed % 4
    if shape == 0:  # integer-valued with duplicates
        X = rng.integers(0, 6, size=(n, d)).astype(float)
    elif shape == 1:  # far clusters
        X = rng.normal(size=(n, d)) + np.where(rng.random((n, 1)) < 0.5, 0.0, 1e6)
    elif shape == 2:  # a constant column
        X = rng.normal(size=(n, d))
        X[:, 0] = 0.3
    else:  # points at r(1 ± a few ulps) of record 0
        X = np.repeat(rng.normal(size=(1, d)), n, axis=0)
        ulps = np.array([np.nextafter(1.0, 1.0 + s) for s in rng.choice([-1, 0, 1], n - 1)])
        X[1:, 0] += ulps * rng.choice([0.25, 0.5, 1.0, 2.0, -1.0, 3.0], n - 1)
    y = (rng.random(n) < 0.25).astype(int)
    spec = public_fit.Spec(impute_median=seed % 3 == 0, standardize=True, pca=1 if d > 1 and seed % 5 == 0 else None)
    if spec.impute_median:
        X[rng.integers(n), rng.integers(d)] = np.nan
    return X, y, spec


def _private_record(X, y, rng, public=False):
    """A record near the data (or far), with a label, that hashes private (or public)."""
    for _ in range(1000):
        row = X[rng.integers(len(X))] + rng.choice([0.0, 1.0, 1e6, 0.5]) * rng.integers(-2, 3, size=X.shape[1])
        row = np.where(np.isnan(row), 0.0, row)
        lab = np.array([int(rng.integers(2))])
        if bool(membership.public_mask(row[None, :], lab, SEED, FRAC)[0]) == public:
            return row, lab
    raise AssertionError("no record of the wanted membership")


def _neighbours(X, y, rng, public=False):
    """Add, remove and substitute one record of the wanted membership."""
    split = membership.split(X, y, SEED, FRAC, min_public=0, min_private=0)
    part = split.public if public else split.private
    if len(part) == 0:
        return []
    i = int(part[rng.integers(len(part))])
    z, lz = _private_record(X, y, rng, public)
    keep = np.delete(np.arange(len(X)), i)
    Xs, ys = X.copy(), y.copy()
    Xs[i], ys[i] = z, lz[0]
    return [(np.vstack([X, z]), np.r_[y, lz]), (X[keep], y[keep]), (Xs, ys)]


WORLDS = [_random_world(s) for s in range(18)] + [(w.X, w.y, w.spec) for w in audit_rp.worlds(fast=False)]


@pytest.mark.parametrize("kind", [k for k in rp.KINDS if not k.endswith("plain")])  # plain: config only
def test_one_private_record_moves_no_public_quantity_bit_for_bit(kind):
    rng = np.random.default_rng(hash(kind) % 2**32)
    checked = 0
    for X, y, spec in WORLDS:
        try:
            base = audit_rp.run_path(kind, X, y, spec, audit_rp.Stages())
        except ValueError:  # too few public records for the grid of this world
            continue
        for Xn, yn in _neighbours(X, y, rng):
            other = audit_rp.run_path(kind, Xn, yn, spec, audit_rp.Stages())
            assert audit_rp._same_public(base, other), (kind, len(X), spec)
            for key in ("features", "labels"):
                assert base.public[key].tobytes() == other.public[key].tobytes()
            checked += 1
    assert checked >= 3 * 20


def test_a_public_record_does_move_them():
    moved = 0
    rng = np.random.default_rng(3)
    for X, y, spec in WORLDS[:10]:
        try:
            base = audit_rp.run_path("B/public_split", X, y, spec, audit_rp.Stages())
        except ValueError:  # no private record in this world
            continue
        for Xn, yn in _neighbours(X, y, rng, public=True):
            try:
                moved += not audit_rp._same_public(base, audit_rp.run_path("B/public_split", Xn, yn, spec,
                                                                           audit_rp.Stages()))
            except ValueError:  # a removal left too few public records
                moved += 1
    assert moved >= 20


def test_a_table_fitted_on_all_records_never_reaches_the_released_path():
    prov = {"steps": [{"step": "standardize", "fitted_on": scope.FITTED_ON_DATA}]}
    with pytest.raises(ValueError, match="fitted on all records; it needs the raw-scale table of rule prepare_raw"):
        rp.RawRecords.from_table(np.zeros((4, 1)), np.zeros(4), prov)


# ------------------------------------------------------------------------------------------------- scope
def _rows(raw_steps, prep_steps=(), paper="B", selectors=(rp.EXPONENTIAL,)):
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(size=(150, 3)), rng.normal(4.0, 1.0, size=(10, 3))])
    y = np.r_[np.zeros(150, int), np.ones(10, int)]
    s = price_inputs.split_args(X, y, 0.3, 7, {"steps": list(raw_steps)})
    prov = {"steps": list(prep_steps)}
    if paper == "B":
        t = price.paper_b_price(X, y, prov, k=2, delta=0.01, eps_grid=[1.0], radii=np.geomspace(0.1, 3, 12), **s,
                                selection_share=0.2, selectors=selectors)
    else:
        t = price.paper_a_price(X, y, prov, betas=[1, 2], fractions=[0.05, 0.1], eps_grid=[1.0], k=1, **s,
                                selection_share=0.2, rng=np.random.default_rng(1), selectors=selectors)
    return t.set_index("tuning")


SUBSAMPLE = {"step": "subsample", "n_normal": 150, "n_anomaly": 10}


@pytest.mark.parametrize("paper", ["A", "B"])
def test_a_label_stratified_subsample_is_data_dependent(paper):
    t = _rows([SUBSAMPLE], [SUBSAMPLE], paper)
    for tuning in ("public_split", "private_selection"):
        assert "label-stratified subsample (150 normal, 10 anomalous records" in t.loc[tuning, "data_dependent"]
        assert not t.loc[tuning, "proven_end_to_end"]
    assert "label-stratified subsample" in t.loc["paper", "data_dependent"]
    assert _rows([], [], paper).loc["public_split", "proven_end_to_end"]  # the subsample alone made it unproven


def test_pca_and_imputation_fitted_on_the_data_vs_on_the_public_part():
    fitted = [{"step": "missing", "mode": "impute_median", "cells_imputed": 3, "fitted_on": scope.FITTED_ON_DATA},
              {"step": "standardize", "fitted_on": scope.FITTED_ON_DATA},
              {"step": "pca", "n_components": 2, "fitted_on": scope.FITTED_ON_DATA}]
    deferred = [{"step": "missing", "mode": "impute_median", "missing_cells": 0, "deferred": True},
                {"step": "standardize", "deferred": True}, {"step": "pca", "n_components": 2, "deferred": True}]
    t = _rows(deferred, fitted)
    for what in ("median imputation", "standardisation", "PCA (2 components)"):
        assert f"{what} fitted on the data" in t.loc["paper", "data_dependent"]
        assert f"{what} fitted on the public part" in t.loc["private_selection", "public_inputs"]
    assert t.loc["private_selection", "proven_end_to_end"] and t.loc["private_selection", "d"] == 2


def test_a_choice_read_from_the_labels_is_data_dependent():
    t = _rows([{"step": "standardize", "deferred": True}], paper="A")
    assert "by max F1 against the labels" in t.loc["paper", "data_dependent"] and not t.loc["paper", "proven_end_to_end"]
    assert "by max F1 on the public part" in t.loc["public_split", "public_inputs"]
    assert t.loc["public_split", "data_dependent"] == ""


def test_the_split_and_its_relation_are_named_and_the_private_size_hidden_under_add_remove():
    t = _rows([{"step": "standardize", "deferred": True}], paper="A")
    assert membership.RELATION_TEXT in t.loc["private_selection", "public_inputs"]
    assert np.isnan(t.loc["public_split", "n_private"]) and not np.isnan(t.loc["paper", "n_private"])
    b = _rows([{"step": "standardize", "deferred": True}], paper="B")
    assert (b["n_private"] + b["n_public"] == 160).all()  # substitution: N is public (bounded DP)


# ------------------------------------------------------------------------------------------------- audit
def test_every_row_kind_that_can_say_proven_has_an_audit_row():
    """Each (row kind, selection method) a table can mark proven - one private_selection row per method of
    privacy.selection_methods - has a released-path audit row running that kind with that method's selector."""
    audited = {(m.kind, m.method) for m in (f() for f in harness.RELEASED_PATHS.values())}
    assert {kind for kind, _ in audited} == set(rp.KINDS)
    every = tuple(rp.selector(name) for name in selection_methods.METHODS)
    proven = set()
    for paper in ("A", "B"):
        t = _rows([{"step": "standardize", "deferred": True}], paper=paper, selectors=every)
        proven |= {(f"{paper}/{tuning}", method) for tuning, method, ok
                   in zip(t.index, t["selection_method"], t["proven_end_to_end"]) if ok}
    # the sweeps: a config r on a table with nothing fitted is a plain release, proven
    for paper, kind, row in (("A", "paper_a", {"claim_proven": True}), ("B", "paper_b", {"claim_proven": True})):
        df = scope.add_sweep_columns(pd.DataFrame([row]), kind, "value", 0.5, {"steps": []})
        if df["proven_end_to_end"].all():
            proven.add((f"{paper}/plain", ""))
    assert {kind for kind, _ in proven} == set(rp.KINDS)
    assert {("A/private_selection", "permute_and_flip"), ("B/private_selection", "permute_and_flip")} <= proven
    assert proven == audited
    labels = [label for label, _ in harness._tasks(harness.LEVELS["fast"], None, False)]
    assert all(any(name in label for label in labels) for name in harness.RELEASED_PATHS)


@pytest.mark.parametrize("name", sorted(harness.RELEASED_PATHS))
@pytest.mark.slow
def test_released_path_audit_row_passes(name):
    row = harness._audited(name, harness.RELEASED_PATHS[name], harness.LEVELS["fast"], "released path")
    assert row.ok and row.expected == "pass" and row.worlds >= 2 and row.edges >= 40, row
    assert row.worst_ratio_over_e_eps <= 1.0


@pytest.mark.parametrize("name", sorted(audit_rp.CONTROLS))
def test_released_path_negative_controls_are_caught(name):
    factory, what = harness.NEGATIVE_CONTROLS[name]
    row = harness._audit_control(name, factory, what, harness.LEVELS["fast"], harness.LEVELS["fast"])
    assert row.ok and row.result != "pass" and not row.exhaustive_pass and not row.error, row


@pytest.mark.parametrize("stages", [audit_rp.Stages(fitter=audit_rp.refit_all_records),
                                    audit_rp.Stages(splitter=audit_rp.permutation_split)],
                         ids=["refit_of_all_records_zscores", "permutation_split"])
def test_the_former_path_moves_public_quantities(stages):
    """The same property on the path before the fix (z-scores of all records refitted; a permutation of n) fails."""
    rng = np.random.default_rng(4)
    moved = total = 0
    for X, y, spec in WORLDS[:12]:
        try:
            base = audit_rp.run_path("B/public_split", X, y, spec, stages)
        except ValueError:
            continue
        for Xn, yn in _neighbours(X, y, rng):
            total += 1
            moved += not audit_rp._same_public(base, audit_rp.run_path("B/public_split", Xn, yn, spec, stages))
    assert moved >= total // 2 > 0


def test_a_selection_method_plugs_into_the_released_path_as_a_parameter():
    """Another private selection method is one more :class:`Selector`: the rows and the audit take it as is."""
    last = rp.Selector("always the last candidate (a test double)", rp.EXPONENTIAL.claim,
                       lambda u, eps, du: np.eye(len(u))[-1], rp.EXPONENTIAL.exact_law)
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(size=(150, 2)), rng.normal(4.0, 1.0, size=(10, 2))])
    y = np.r_[np.zeros(150, int), np.ones(10, int)]
    radii = np.geomspace(0.1, 3, 12)
    t = price.paper_b_price(X, y, {"steps": []}, k=2, delta=0.01, eps_grid=[1.0], radii=radii,
                            **price_inputs.split_args(X, y, 0.3, 7), selection_share=0.2, selectors=(last,))
    assert t.set_index("tuning").loc["private_selection", "r"] == radii[-1]
    row = audit_rp.ReleasedPathAudit("B/private_selection", audit_rp.Stages(selector=last))
    assert row.stages.selector is last and row.kind in rp.KINDS


def test_the_raw_scale_table_has_the_fitted_tables_rows_and_defers_every_fitted_step():
    """Rule prepare_raw's table (build(fit=False)): the same rows in the same order as rule prepare's (the
    subsample reads labels only), raw values, NaN where the median is imputed later, the fitted steps deferred."""
    from privanomaly.datasets.prepare import preprocess

    rng = np.random.default_rng(6)
    feats = pd.DataFrame(rng.normal(3.0, 2.0, size=(60, 3)), columns=["a", "b", "c"])
    feats.iloc[4, 1] = np.nan
    y = (np.arange(60) % 6 == 0).astype(np.int8)
    pre = {"missing": "impute_median", "pca": 2, "subsample": {"n_normal": 30, "n_anomaly": 5}}
    fitted, steps = preprocess(feats, y, pre, 3, "toy")
    raw, raw_steps = preprocess(feats, y, pre, 3, "toy", fit=False)
    kept = next(s for s in steps if s["step"] == "subsample")["source_rows"]
    assert kept == next(s for s in raw_steps if s["step"] == "subsample")["source_rows"]
    assert np.array_equal(raw["label"], fitted["label"]) and raw.shape[1] == 4 and fitted.shape[1] == 3
    np.testing.assert_array_equal(raw[["a", "b", "c"]].to_numpy(), feats.to_numpy()[kept])  # NaN kept
    spec = public_fit.spec_of({"steps": raw_steps})
    assert spec == public_fit.Spec(impute_median=True, standardize=True, pca=2)
    assert "subsample" in scope.preprocessing({"steps": raw_steps}).data_dependent[0]


def test_a_plain_release_names_a_step_fitted_on_all_records():
    X = np.arange(12.0)[:, None]
    v = rp.plain_view(rp.RawRecords(X, np.zeros(12, int), public_fit.Spec(standardize=True)))
    assert v.scope.data_dependent == ("standardisation fitted on the data",) and len(v.Xpub) == 0
    assert rp.plain_view(rp.RawRecords(X, np.zeros(12, int), public_fit.Spec())).scope == scope.Scope((), ())


@pytest.mark.slow
def test_the_audit_keeps_a_paths_laws_per_selector():
    """The audit memoises a path's exact laws in its private part (a world's own path is one end of every edge);
    a copy of the path with another selector (``with_selector``) shares that dict but not the laws: each law is
    the one computed afresh."""
    w = audit_rp.worlds(True)[0]
    P = audit_rp.run_path("A/private_selection", w.X, w.y, w.spec, audit_rp.Stages())
    sp, eps_sel, eps_rel = harness.mech_registry.get("sp"), 0.25, 0.75

    def fresh(p, i):
        laws = audit_rp._sp_laws(p, audit_rp._counts(p), i, eps_rel)
        return audit_rp.compose(p.exact_law(eps_sel), laws)

    other = rp.with_selector(P, rp.selector("permute_and_flip"))
    assert other.private is P.private and type(sp) is type(harness.mech_registry.get("sp"))
    for p in (P, other, P):
        for i in range(len(p.view.Xpriv)):
            got = audit_rp._law_a(p, i, eps_sel, eps_rel)
            assert got == fresh(p, i) and got is audit_rp._law_a(p, i, eps_sel, eps_rel)
    assert audit_rp._law_a(P, 0, eps_sel, eps_rel) != audit_rp._law_a(other, 0, eps_sel, eps_rel)
