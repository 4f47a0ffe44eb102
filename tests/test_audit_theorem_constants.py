"""The audit checks paper B's Gaussians against its own reading of Theorems 1-2 and on a 3-D world where
Theorem 4's bound k K_3 + 1 is attained, so a wrong constant in the library cannot pass by moving the check
with it: K_3 = 11, Theorem 2's alpha with 4 or 2.5 for its 5, beta doubled (the release and the mechanism's own
checks both take them from privanomaly.outliers)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privanomaly import audit
from privanomaly import mechanisms as M
from privanomaly.audit import controls
from privanomaly.audit import paper_b as audit_b
from privanomaly.mechanisms.paper_b import DEFAULT_DELTA
from privanomaly.outliers import audit_worlds, gaussian, global_sensitivity, q_count

EPS = (0.5, 7.5)  # the fast level's paper-B eps


@pytest.fixture(autouse=True)
def _fresh_theorem2_cache():
    """theorem2_worst_delta is memoised on (eps, delta): a mutated constant must not leave its value behind."""
    gaussian.theorem2_worst_delta.cache_clear()
    yield
    gaussian.theorem2_worst_delta.cache_clear()


def _rows(m, eps):
    return m.audit_rows(fast=True, eps=eps, delta=DEFAULT_DELTA, **audit_b._oracle(m, eps, DEFAULT_DELTA))


def _failing(m, eps_list=EPS):
    return [r["world"] for eps in eps_list for r in _rows(m, eps) if not r["passed"]]


# ------------------------------------------------------------------------------------------- the worlds
def test_the_icosahedron_pair_attains_theorem_4s_bound_in_3d():
    X, Xp, k, r = audit_worlds.icosahedron_pair()
    assert X.shape == Xp.shape == (13, 3) and (k, r) == (1, 1.0)
    ring = X[1:] / math.sqrt(3.0)  # dist_S coordinates
    d = np.linalg.norm(ring[:, None] - ring[None], axis=2)[np.triu_indices(12, 1)]
    assert np.allclose(np.linalg.norm(ring, axis=1), 0.999) and d.min() == pytest.approx(0.999 * 1.0515, abs=1e-3)
    assert q_count(X, k, r) == 0 and q_count(Xp, k, r) == 13
    assert global_sensitivity.gs_upper(13, 3, 1) == 13 == k * 12 + 1


def test_top_h_utility_of_the_3d_subspace_moves_by_exactly_theorem_7s_bound():
    u = M.get("exp_top_h").icosahedron_utilities()
    assert u.shape == (2, 7) and np.abs(u[0] - u[1]).max() == pytest.approx(1.0) and u[1, -1] == pytest.approx(1.0)


def test_the_audits_theorem_constants_are_the_printed_ones_and_the_librarys_lie_on_the_safe_side():
    for eps in (0.1, 0.5, 0.9, 7.5):
        a, b = audit_b.theorem2_constants(eps, 0.01)
        assert a == pytest.approx(eps / (5 * math.sqrt(2 * math.log(200))), rel=1e-15)
        assert b == pytest.approx(eps / (4 * (1 + math.log(200))), rel=1e-15)
        la, lb = gaussian.smooth_parameters(eps, 0.01)
        assert a * (1 - 2**-46) <= la <= a and b * (1 - 2**-46) <= lb <= b
    assert audit_b.theorem1_factor(0.01) == pytest.approx(3.2552, abs=1e-4)


# ------------------------------------------------------------------------------ registered mechanisms
@pytest.mark.parametrize("name", ["gaussian_gs_upper", "gaussian_smooth_paper", "gaussian_smooth_fast", "exp_top_h",
                                  "exp_top_h_printed"])
@pytest.mark.slow
def test_the_registered_mechanisms_pass_the_new_checks(name):
    m = M.get(name)
    if name.startswith("exp_"):
        rows = [r for eps in EPS for r in m.audit_rows(fast=True, eps=eps)]
        assert any(r["world"].startswith("3d_icosahedron_pair") for r in rows)
        assert all(r["utility_jump"] <= 1 + 1e-12 for r in rows)
    else:
        rows = [r for eps in EPS for r in _rows(m, eps)]
    assert all(r["passed"] for r in rows), [r["world"] for r in rows if not r["passed"]]


# ------------------------------------------------------------------------------------ mutant constants
@pytest.mark.slow
def test_kissing_number_k3_too_small_fails_the_count_and_top_h_audits(monkeypatch):
    monkeypatch.setitem(global_sensitivity.KISSING_NUMBERS, 3, 11)
    assert _failing(M.get("gaussian_gs_upper")) == ["3d_icosahedron_pair"] * 2
    top = M.get("exp_top_h")
    bad = [r for eps in EPS for r in top.audit_rows(fast=True, eps=eps) if not r["passed"]]
    assert bad and all(r["world"].startswith("3d_icosahedron_pair") and r["utility_jump"] > 1.08 for r in bad)


@pytest.mark.slow
@pytest.mark.parametrize("factor", [4.0, 4.5, 2.5])
def test_theorem_2_alpha_misread_fails_the_smooth_audit(monkeypatch, factor):
    real = gaussian.theorem2_alpha
    monkeypatch.setattr(gaussian, "theorem2_alpha", lambda eps, delta, f=5.0: real(eps, delta, factor))
    for name in ("gaussian_smooth_paper", "gaussian_smooth_fast"):
        assert _failing(M.get(name)), name


@pytest.mark.slow
def test_theorem_2_beta_doubled_fails_the_smooth_audit(monkeypatch):
    real = gaussian.theorem2_beta
    monkeypatch.setattr(gaussian, "theorem2_beta", lambda eps, delta, p=1: 2 * real(eps, delta, p))
    for name in ("gaussian_smooth_paper", "gaussian_smooth_fast"):
        assert _failing(M.get(name)), name


def test_theorem_1_factor_misread_fails_the_global_audit(monkeypatch):
    """At eps = 0.5, where Theorem 1's exact delta is far below delta: only the check of the released sigma
    against the audit's own sqrt(2 ln(2/delta)) sees a factor 0.9 (at 7.5 the library refuses the condition)."""
    real = gaussian.theorem1_factor
    monkeypatch.setattr(gaussian, "theorem1_factor", lambda delta, log=math.log: 0.9 * real(delta, log))
    assert _failing(M.get("gaussian_gs_upper"), (0.5,))


# ----------------------------------------------------------------------------------- negative controls
@pytest.mark.parametrize("name", ["gaussian_gs_upper_k3_11", "gaussian_smooth_alpha_misread",
                                  "gaussian_smooth_beta_misread"])
@pytest.mark.slow
def test_constant_controls_are_caught_by_the_exhaustive_checks(name):
    m = controls.paper_b_controls()[name]
    row = audit_b.audit_count_gaussian(m, audit.LEVELS["fast"])
    assert row.exhaustive_pass is False, row.note
    row.expected = "fail"
    assert row.result == "caught"


@pytest.mark.slow
def test_the_controls_misread_constants_pass_their_own_checks():
    """Without the audit's own constants (each mechanism checking at its own reading) the misread controls pass
    their exhaustive checks: only the audit's reading of Theorem 2 sees them."""
    for name in ("gaussian_smooth_alpha_misread", "gaussian_smooth_beta_misread"):
        m = controls.paper_b_controls()[name]
        assert all(r["passed"] for eps in EPS for r in m.audit_rows(fast=True, eps=eps, delta=DEFAULT_DELTA)), name


# ----------------------------------------------------------------------------- Scenario 1's readings
def test_scenario_1s_proven_reading_is_checked_against_the_audits_constants(monkeypatch):
    """Scenario 1 computes its sigmas through the readings of outliers.conventions, not through the mechanisms:
    a printed reading with 4 for Theorem 2's 5, or a reading without the 5 flagged proven, must fail."""
    import dataclasses

    from privanomaly.outliers import conventions

    smooth, glob = M.get("gaussian_smooth_paper"), M.get("gaussian_gs_upper")
    for m in (smooth, glob):
        row = audit_b.readings_row(m, EPS, DEFAULT_DELTA)
        assert row["passed"] and row["datasets"] == 1 and row["worst_ratio"] <= 1.0, row
    table = dict(conventions.CONVENTIONS)
    monkeypatch.setitem(conventions.CONVENTIONS, "printed", dataclasses.replace(table["printed"], alpha_factor=4.0))
    row = audit_b.readings_row(smooth, EPS, DEFAULT_DELTA)
    assert not row["passed"] and "printed at eps = 0.5" in row["world"] and row["worst_ratio"] == pytest.approx(1.25)
    monkeypatch.setitem(conventions.CONVENTIONS, "printed", table["printed"])
    monkeypatch.setitem(conventions.CONVENTIONS, "alpha_without_5",
                        dataclasses.replace(table["alpha_without_5"], privacy_proven=True))
    assert not audit_b.readings_row(smooth, EPS, DEFAULT_DELTA)["passed"]
    # a proven reading's sigma_Global is Theorem 1's whatever its log (noise_scales checks the condition)
    assert audit_b.readings_row(glob, EPS, DEFAULT_DELTA)["passed"]
