"""Acceptance: a mechanism defined here, in the test file, appears in Tables 2-3 and passes — or,
when broken, fails — the audit harness, with no change anywhere else than this one constructor + its name.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from privanomaly import audit
from privanomaly import mechanisms as M
from privanomaly.mechanisms.exact import ExactDist, QRat
from privanomaly.paper_a import detection, errors, tables
from privanomaly.sp import dlap, is_anomaly


class ToyRandomisedResponse(M.AIQMechanism):
    """Randomised response on g(i, x): errs with e^(-a) / (1 + e^(-a)) = P(Z >= 1), Z ~ DLap(a); a-DP on G
    (labels of G-neighbours may differ, the answer law moves by a factor e^a at most)."""

    label = "Toy RR"
    paper = "test"
    reference = "randomised response (toy)"
    neighbours = "add_remove"
    spend = 1  # the noise rate is spend * eps; a toy with spend = 2 claims eps but spends 2 eps

    def claim(self, *, eps, beta=None, k=None, cap=None):
        a = dlap.rational_rate(eps)
        return M.Claim(float(a), 0.0, "add_remove", a, note="randomised response")

    def probs(self, x_i, B, *, beta, k=None, eps, cap=None):
        p = np.exp(-float(self.spend * dlap.rational_rate(eps)))
        err = p / (1 + p)
        g = np.asarray(is_anomaly(x_i, np.minimum(B, cap) if cap else B, beta)).astype(bool)
        return np.where(g, err, 1 - err), np.where(g, 1 - err, err)

    def exact_distribution(self, x_i, B, *, beta, k=None, eps, cap=None):
        err = QRat.make({1: 1}, {0: 1, 1: 1})
        g = int(is_anomaly(x_i, B, beta))
        probs = (err, 1 - err) if g else (1 - err, err)
        return ExactDist(self.spend * dlap.rational_rate(eps), probs)

    def sample(self, x_i, B, *, beta, k=None, eps, rng, n_trials, cap=None):
        x_i, B = np.atleast_1d(x_i), np.atleast_1d(B)
        g = np.asarray(is_anomaly(x_i, B, beta)).astype(bool)
        z = dlap.sample_dlap(self.spend * dlap.rational_rate(eps), (int(n_trials), x_i.size), rng)
        return (g[None, :] ^ (z >= 1)).astype(np.int8)


class ToyBroken(ToyRandomisedResponse):
    label = "Toy RR broken"
    spend = 2


class ToyProbsLie(ToyRandomisedResponse):
    """Its output is the toy's (private as claimed); its ``probs`` - what Tables 2-3 report - runs at 2 eps."""

    label = "Toy RR, optimistic tables"

    def probs(self, x_i, B, *, beta, k=None, eps, cap=None):
        return super().probs(x_i, B, beta=beta, k=k, eps=2 * eps, cap=cap)


TINY = audit.Level("tiny", ("line4", "grid2x2"), ("manhattan", "chebyshev"), (1.0,), (2, 3), (1,), (None, 1),
                   (0.01, 1.0, 20.0), 100_000)


@pytest.fixture
def toys():
    M.register("toy_rr")(ToyRandomisedResponse)
    M.register("toy_rr_broken")(ToyBroken)
    yield ["toy_rr", "toy_rr_broken"]
    M.unregister("toy_rr")
    M.unregister("toy_rr_broken")


def _rec() -> pd.DataFrame:
    return pd.DataFrame({"record": np.arange(6), "label": np.array([1, 0, 1, 0, 0, 0], np.int8),
                         "x_i": [1, 2, 1, 1, 3, 1], "B": [1, 2, 5, 6, 7, 9],
                         "anomaly": [True, True, True, False, False, False], "cap": -1})


def test_toy_appears_in_tables_2_and_3(toys):
    rec, beta = _rec(), 5
    names = ["sp", "optimal_dp", "toy_rr"]  # what `paper_a.mechanisms.errors` in config would say
    errs = errors.exact_errors(rec, beta, [1.0], [1], names)
    summ = errors.summarise(rec, errs).assign(dataset="toy")
    t2 = tables.table2(summ, 1.0, 1, [], tuple(M.get(n).label for n in names))
    err_toy = np.exp(-1.0) / (1 + np.exp(-1.0))
    assert t2.loc[0, "random_record_toy_rr"] == pytest.approx(err_toy)
    assert t2.loc[0, "random_anomaly_toy_rr"] == pytest.approx(err_toy)
    assert list(t2.columns[:5]) == ["dataset", "eps", "k", "random_record_sp", "random_record_dp"]
    rows = detection.private_rows(rec, beta, 1, 1.0, ["sp", "optimal_dp", "laplace_count", "toy_rr"])
    t3 = tables.table3(rows.assign(dataset="toy"), [])
    toy = t3[t3["method"] == "Toy RR"].iloc[0]
    assert toy["private"] and toy["recall_br"] == pytest.approx(1 - err_toy)
    assert "1-DP on add_remove" in toy["note"]
    # sampled errors go through the toy's own sampler
    tr = errors.sampled_errors(rec, errs, np.random.default_rng(1), 20_000, beta, names)
    row = tr[tr["mechanism"] == "Toy RR"].iloc[0]
    assert row["ci_low"] <= err_toy <= row["ci_high"]


@pytest.mark.slow
def test_toy_passes_and_broken_toy_fails_the_audit(toys):
    t = audit.run(TINY, names=toys, controls=False).set_index("mechanism")
    assert t.loc["toy_rr", "result"] == "pass" and t.loc["toy_rr", "ok"]
    assert t.loc["toy_rr", "worst_ratio_over_e_eps"] == pytest.approx(1.0, abs=1e-9)
    assert t.loc["toy_rr_broken", "result"] == "FAIL"
    assert not t.loc["toy_rr_broken", "exhaustive_pass"] and not t.loc["toy_rr_broken", "statistical_pass"]
    assert t.loc["toy_rr_broken", "worst_ratio_over_e_eps"] > np.exp(0.009)


def test_a_family_without_auditor_is_reported_not_passed(toys):
    class Stranger(M.Mechanism):
        family = "unknown_family"
        label = "stranger"

        def claim(self, **params):
            return M.Claim(1.0, 0.0, "substitution")

    M.register("stranger_test")(Stranger)
    try:
        t = audit.run(TINY, names=["stranger_test"], controls=False).set_index("mechanism")
        assert t.loc["stranger_test", "result"] == "FAIL" and "no auditor" in t.loc["stranger_test", "note"]
    finally:
        M.unregister("stranger_test")


def test_rational_claim_is_what_the_toy_reports():
    assert ToyRandomisedResponse().claim(eps=0.1).epsilon_exact == Fraction(1, 10)


def _audit_with(name: str, cls, names: list[str] | None = None) -> pd.DataFrame:
    """The TINY audit of ``names`` (default: ``[name]``) with ``cls`` registered as ``name`` for its duration."""
    M.register(name)(cls)
    try:
        return audit.run(TINY, names=names or [name], controls=False).set_index("mechanism")
    finally:
        M.unregister(name)


@pytest.mark.slow
def test_a_toy_whose_tables_misreport_its_law_fails_the_audit():
    """A mechanism whose exact law and sampler are right but whose ``probs`` (the errors every table reports)
    is not its exact law must not pass: its claim is proven, its reported accuracy is not (was: pass)."""
    t = _audit_with("toy_rr_probs_lie", ToyProbsLie)
    row = t.loc["toy_rr_probs_lie"]
    assert row["exhaustive_pass"] and row["statistical_pass"] and row["law_pass"] is not None and not row["law_pass"]
    assert row["result"] == "FAIL" and "probs is not the exact law" in row["note"]


class ToyAbsentSampler(ToyRandomisedResponse):
    """Exact law and probs right; its sampler forgets that an absent point (x_i = 0) is never an anomaly."""

    label = "Toy RR, sampler wrong on absent points"

    def sample(self, x_i, B, *, beta, k=None, eps, rng, n_trials, cap=None):
        x_i, B = np.atleast_1d(x_i), np.atleast_1d(B)
        z = dlap.sample_dlap(dlap.rational_rate(eps), (int(n_trials), x_i.size), rng)
        return ((B <= beta)[None, :] ^ (z >= 1)).astype(np.int8)


@pytest.mark.slow
def test_a_toy_whose_sampler_strays_from_its_law_off_the_sampled_edge_fails_the_audit(toys):
    """The CP audit samples one edge, where this sampler happens to agree with its law; the sampler is
    checked against the exact law on every (x_i, B) of the CP world too (was: pass)."""
    t = _audit_with("toy_rr_absent", ToyAbsentSampler, ["toy_rr", "toy_rr_absent"])
    bad, good = t.loc["toy_rr_absent"], t.loc["toy_rr"]
    assert bad["exhaustive_pass"] and bad["law_pass"] and not bad["statistical_pass"] and bad["result"] == "FAIL"
    assert bad["cp_eps_hat"] <= bad["cp_claimed_eps"]  # the CP audit alone does not see it
    assert "binomial p = 0 at (x_i, B) = (0, " in bad["cp_detail"]
    assert good["result"] == "pass" and float(good["cp_detail"].split("binomial p = ")[1]) > 1e-6


class ToyWrongRelation(ToyRandomisedResponse):
    """Declares add/remove (DP: the audit table's neighbours column) but claims only on G_S(k)."""

    label = "Toy RR, relation mismatch"

    def claim(self, *, eps, beta=None, k=None, cap=None):
        a = dlap.rational_rate(eps)
        return M.Claim(float(a), 0.0, "sensitive_k", a, note="randomised response")


@pytest.mark.slow
def test_a_toy_whose_claim_is_on_another_relation_than_it_declares_fails_the_audit():
    """The audit checks the claim's relation but its table shows the class's: a mechanism declaring DP
    (add_remove) while claiming SP (sensitive_k) would read as DP-verified (was: pass, neighbours add_remove)."""
    t = _audit_with("toy_rr_relation", ToyWrongRelation)
    row = t.loc["toy_rr_relation"]
    assert row["neighbours"] == "add_remove" and "SP on sensitive_k" in row["claim"]
    assert not row["exhaustive_pass"] and row["result"] == "FAIL"
    assert "declares neighbours = 'add_remove' but its claim is on 'sensitive_k'" in row["note"]
