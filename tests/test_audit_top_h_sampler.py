"""The top-h auditor fits Algorithm 3's sampler to its exact set law at every audit eps, not only the first:
at eps = 0.5 every acceptance exp(-gamma) of the exact sampler has gamma < 1, so the whole part of
``ExpBernoulliTable`` (exp(-1)^floor(gamma)) is never drawn there; at eps = 7.5 it is."""

from __future__ import annotations

import numpy as np
import pytest

from privanomaly import audit
from privanomaly import mechanisms as M
from privanomaly.audit import paper_b as audit_b
from privanomaly.outliers import exact_random


@pytest.fixture(scope="module")
def fast():
    return audit.LEVELS["fast"]


@pytest.mark.slow
def test_the_registered_top_h_samplers_fit_their_law_at_every_audit_eps(fast):
    for name in ("exp_top_h", "exp_top_h_printed"):
        row = audit_b.audit_top_h(M.get(name), fast)
        assert row.statistical_pass and row.exhaustive_pass, row.cp_detail
        assert "at eps = 0.5, 7.5" in row.cp_detail


def test_the_sampled_edge_reaches_gamma_above_one_at_the_last_audit_eps():
    """The edge the auditor samples (largest exact loss at eps = 0.5, h = 2): utilities (0, 0, 0) and (1, 0, 1),
    so a first draw proposing the 0 against the reference 1 has gamma = (eps / h) (1 - 0) / 2."""
    m = M.get("exp_top_h")
    util, u, v, _ = m.audit_world()
    law = np.array([m.set_law(x, 2, 0.5) for x in util])
    e = int(np.argmax(np.abs(np.log(law[u]) - np.log(law[v])).max(axis=1)))
    assert util[u[e]].tolist() == [0, 0, 0] and util[v[e]].tolist() == [1, 0, 1]
    gamma = lambda eps, h=2: eps / h * 1.0 / 2  # noqa: E731 - rate/h (u_ref - u) / (2 du), du = 1
    assert gamma(0.5) < 1 < gamma(7.5)


@pytest.mark.slow
def test_a_sampler_wrong_only_where_gamma_passes_one_is_caught(monkeypatch, fast):
    """exp(-1) drawn twice per whole unit of gamma (a sharper law than claimed, so a larger loss): invisible at
    eps = 0.5, where no gamma reaches 1."""
    real = exact_random.exp_minus_whole
    monkeypatch.setattr(exact_random, "exp_minus_whole", lambda rng, whole: real(rng, 2 * np.asarray(whole)))
    row = audit_b.audit_top_h(M.get("exp_top_h"), fast)
    assert row.exhaustive_pass and row.statistical_pass is False, row.cp_detail


@pytest.mark.slow
def test_a_sampler_at_a_tenth_more_than_its_rate_is_caught(monkeypatch, fast):
    """Algorithm 3 drawing at 1.1 times the rate its law and claim state: the set laws at eps = 0.5 differ too
    little for 200,000 draws; at eps = 7.5 they do not (it passed the audit when only eps = 0.5 was sampled)."""
    from privanomaly.outliers import exponential

    real = exponential.top_h_draws
    monkeypatch.setattr(exponential, "top_h_draws",
                        lambda u, h, eps, rng, n, sensitivity=1.0: real(u, h, 1.1 * eps, rng, n, sensitivity))
    row = audit_b.audit_top_h(M.get("exp_top_h"), fast)
    assert row.exhaustive_pass and row.statistical_pass is False, row.cp_detail


@pytest.mark.slow
@pytest.mark.parametrize("name", ["exp_top_h", "exp_top_h_printed"])
def test_set_laws_is_set_law_row_by_row(name):
    """:meth:`TopH.set_laws` computes the law once per distinct utility row: the same floats as row by row."""
    m = M.get(name)
    util, _, _, _ = m.audit_world()
    assert len(np.unique(util, axis=0)) < len(util) / 4  # the databases share few utility vectors
    for h, eps in ((1, 0.5), (2, 7.5)):
        got = m.set_laws(util, h, eps)
        want = np.array([m.set_law(x, h, eps) for x in util])
        assert got.tobytes() == want.tobytes()
    assert not util.flags.writeable and m.audit_world() is m.audit_world()  # one world per process, read-only
