"""A mechanism added to the registry (README "Recipe 2") reaches the privacy audit of an existing run.

The audit's only input is the code of the registered mechanisms, so rule ``privacy_audit`` takes
:func:`privanomaly.mechanisms.fingerprint` as a parameter: in a temporary copy of the workflow that has
already run the audit (a clone of the whole ``.test`` DAG's run, tests/test_dag_run.py), adding a mechanism module (named in ``mechanisms._load_builtins``) or editing one
schedules the audit again; with nothing changed, nothing reruns.

Unit checks of the fingerprint run fast; the workflow check is marked slow (one fast-level audit, ~20 s, after the shared run's).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import workflow_copy as wc

from privanomaly import mechanisms as M

MODULE = '''"""A randomised-response mechanism added by a test (a copy of paper A's optimal DP under another name)."""
from .paper_a import OptimalDP
from .registry import register


@register("rr_added")
class AddedRR(OptimalDP):
    label = "RR added"
'''


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_fingerprint_names_every_registered_mechanism_and_follows_its_source(tmp_path):
    before = M.fingerprint()
    assert set(before) == set(M.names()) and {"sp", "optimal_dp", "exp_top_h"} <= set(before)
    assert all(len(v) == 16 for v in before.values())
    src = tmp_path / "added_mech.py"
    body = ("from privanomaly.mechanisms.paper_a import OptimalDP\n\n\nclass Added(OptimalDP):\n"
            "    label = 'added'\n")
    src.write_text(body)
    try:
        M.register("fp_added")(_load(src, "added_mech").Added)
        first = M.fingerprint()
        assert set(first) - set(before) == {"fp_added"}
        assert {n: first[n] for n in before} == before  # the others unchanged
        src.write_text(body + "    reference = 'edited'\n")
        M.unregister("fp_added")
        M.register("fp_added")(_load(src, "added_mech").Added)
        assert M.fingerprint()["fp_added"] != first["fp_added"]
    finally:
        M.unregister("fp_added")
        sys.modules.pop("added_mech", None)
    assert M.fingerprint() == before


def _snakemake(copy: Path, *extra: str) -> subprocess.CompletedProcess:
    cmd = [wc.SNAKEMAKE, f"{wc.RESULTS}/audit/privacy_audit.csv", "--cores", "2", *extra,
           "--configfile", ".test/config.yaml", "--config", f"data_mirror={wc.MIRROR}"]
    return subprocess.run(cmd, cwd=copy, env=wc.env_for(copy), capture_output=True, text=True, timeout=600)


@pytest.mark.mirror
@pytest.mark.slow
def test_added_or_edited_mechanism_reruns_the_audit(tmp_path, dag_run):
    copy = wc.clone(dag_run.copy, tmp_path / "wf")  # a copy of the workflow that has run the audit (the whole DAG)
    idle = _snakemake(copy, "-n")
    assert idle.returncode == 0 and "Nothing to be done" in idle.stdout + idle.stderr
    pkg = copy / "src" / "privanomaly" / "mechanisms"
    (pkg / "rr_added.py").write_text(MODULE)
    init = pkg / "__init__.py"
    text = init.read_text()
    old = "from . import paper_a, paper_b, paper_b_printed  # noqa: F401"
    assert old in text
    init.write_text(text.replace(old, "from . import paper_a, paper_b, paper_b_printed, rr_added  # noqa: F401"))
    added = _snakemake(copy, "-n")
    assert added.returncode == 0, added.stderr[-3000:]
    assert "rule privacy_audit:" in added.stdout + added.stderr
    assert "Params have changed" in added.stdout + added.stderr
    # run it: the new mechanism is in the table; then an edit of its module reruns the audit again
    ran = _snakemake(copy)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    table = (copy / wc.RESULTS / "audit" / "privacy_audit.csv").read_text()
    assert "\nmechanism,rr_added," in table
    (pkg / "rr_added.py").write_text(MODULE + '    reference = "edited"\n')
    edited = _snakemake(copy, "-n")
    assert "rule privacy_audit:" in edited.stdout + edited.stderr


def test_a_module_never_imported_is_named_with_what_to_do(tmp_path, monkeypatch, capsys):
    """README Recipe 2 read literally: a new file in src/privanomaly/mechanisms/ that _load_builtins does not
    import registers nothing; every "not registered" error and `python -m privanomaly mechanisms` say so."""
    from privanomaly import __main__ as cli
    from privanomaly.paper_a import plan as workflow_checks
    from privanomaly.sweeps import spec

    assert M.unloaded_modules() == [] and M.not_loaded_hint() == ""
    (tmp_path / "my_rr.py").write_text(MODULE)
    monkeypatch.setattr(M, "__path__", [*M.__path__, str(tmp_path)])
    assert M.unloaded_modules() == [tmp_path / "my_rr.py"]
    want = f"not imported, so nothing in it is registered: {tmp_path / 'my_rr.py'}"
    with pytest.raises(KeyError, match="_load_builtins") as err:
        M.get("rr_added")
    assert want in str(err.value)
    with pytest.raises(ValueError, match="paper_a.mechanisms.errors\\[2\\]") as err:
        workflow_checks.check_mechanisms({"errors": ["sp", "optimal_dp", "rr_added"], "detection": ["sp"]})
    assert want in str(err.value) and "_load_builtins" in str(err.value)
    sw = {"kind": "paper_a", "datasets": ["thyroid"], "mechanisms": ["sp", "rr_added"], "eps": [1.0], "k": [1],
          "beta": [5], "r": {"fraction": [0.02]}}
    with pytest.raises(ValueError, match="mechanisms: unknown \\['rr_added'\\]") as err:
        spec.parse("myRR", sw)
    assert want in str(err.value)
    assert cli.main(["mechanisms"]) == 0
    out = capsys.readouterr()
    assert "sp " in out.out and out.err.startswith("warning: not imported") and "my_rr.py" in out.err
