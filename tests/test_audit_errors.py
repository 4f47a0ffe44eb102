"""A mechanism whose audit raises fails its own row (ERROR, naming the exception) - never a pass, never a catch
for a negative control - and the rest of the audit still runs and is written (it used to stop the whole audit
with a traceback and no table: e.g. a Theorem 1 constant read too small makes sigma_global refuse eps = 7.5)."""

from __future__ import annotations

import dataclasses

import pytest

from privanomaly import audit
from privanomaly import mechanisms as M
from privanomaly.audit import harness
from privanomaly.mechanisms.paper_a import LaplaceCount


class Raising(LaplaceCount):
    label = "raises in its claim (test)"

    def claim(self, *, eps, beta=None, k=None, cap=None):
        raise ValueError(f"no claim at eps = {eps}")


@pytest.fixture
def tiny():
    return dataclasses.replace(audit.LEVELS["fast"], domains=("line4",), metrics=("manhattan",), radii=(1.0,),
                               betas=(3,), ks=(1,), cap_offsets=(None,), eps=(1.0,), cp_n=2_000, gof_n=500)


def test_a_raising_mechanism_is_an_error_row_and_the_others_are_audited(monkeypatch, tiny):
    monkeypatch.setattr(harness, "NEGATIVE_CONTROLS", {"raising_control": (Raising, "raises: must not count as caught"),
                                                      "sp_L_plus_1": harness.NEGATIVE_CONTROLS["sp_L_plus_1"]})
    monkeypatch.setattr(harness.builtin_controls, "paper_b_controls", lambda: {})
    t = audit.run(tiny, names=["laplace_count"], controls=True).set_index("mechanism")
    assert list(t.index) == ["laplace_count", "raising_control", "sp_L_plus_1"]
    ctrl = t.loc["raising_control"]
    assert ctrl["result"] == "ERROR" and not ctrl["ok"]
    assert "the audit raised ValueError: no claim at eps = 1.0" in ctrl["note"]
    assert t.loc["laplace_count", "result"] == "pass" and t.loc["sp_L_plus_1", "result"] == "caught"


def test_a_raising_registered_mechanism_fails(monkeypatch, tiny):
    m = Raising()
    monkeypatch.setattr(M, "get", lambda name: m if name == "raising" else M.registry.get(name))
    monkeypatch.setattr(harness.mech_registry, "get", M.get)
    t = audit.run(tiny, names=["raising", "laplace_count"], controls=False).set_index("mechanism")
    assert t.loc["raising", "result"] == "ERROR" and not t.loc["raising", "ok"]
    assert t.loc["laplace_count", "ok"]


def test_an_error_row_is_never_ok_whatever_is_expected():
    for expected in ("pass", "fail", "unproven"):
        row = audit.AuditRow("mechanism", "x", "A", "", "", "add_remove", exhaustive_pass=False, expected=expected,
                             error="RuntimeError: boom")
        assert not row.ok and row.result == "ERROR"
