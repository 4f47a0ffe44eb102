"""``python -m privanomaly.audit``: the whole registry with its negative controls, or ``--only`` some mechanisms."""

from __future__ import annotations

import pandas as pd
import pytest

from privanomaly.audit.__main__ import main


@pytest.mark.slow
def test_only_audits_the_named_mechanisms(tmp_path, capsys):
    # was: no way to audit one mechanism from the command line but the whole registry and every control
    assert main(["--level", "fast", "--out", str(tmp_path), "--only", "optimal_dp", "laplace_count"]) == 0
    t = pd.read_csv(tmp_path / "privacy_audit.csv")
    assert t["mechanism"].tolist() == ["optimal_dp", "laplace_count"] and (t["kind"] == "mechanism").all()
    assert t["result"].tolist() == ["pass", "pass"] and t["law_pass"].tolist() == [True, True]
    assert "privacy audit (fast)" in capsys.readouterr().out


def test_only_names_an_unknown_mechanism(tmp_path, capsys):
    with pytest.raises(SystemExit) as err:
        main(["--level", "fast", "--out", str(tmp_path), "--only", "nope"])
    assert err.value.code == 2
    msg = capsys.readouterr().err
    assert "--only: not registered: nope" in msg and "optimal_dp" in msg
    assert not (tmp_path / "privacy_audit.csv").exists()


def test_help_names_the_command_and_its_defaults(capsys):
    # was: "usage: __main__.py", the description cut mid-sentence ("print and write") and no default shown
    with pytest.raises(SystemExit) as err:
        main(["--help"])
    assert err.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("usage: python -m privanomaly.audit ")
    assert "print and write the table" in out and "Exit status 1 if a mechanism fails" in out
    assert "(default: full)" in out and "(default: results/audit)" in out
