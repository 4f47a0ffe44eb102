"""A misspelt ``script:`` path stops the run at once naming its rule and file; Snakemake (9) met it only when it
built the DAG, with an 81-line FileNotFoundError traceback that named neither. A misspelt name given to
``library_code`` (the rule's param ``library``) names the script it looked for."""

from __future__ import annotations

import subprocess

import pytest

import workflow_copy as wc


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    return wc.copy_workflow(tmp_path_factory.mktemp("scripts") / "wf")


def _dry_run(copy):
    return subprocess.run([wc.SNAKEMAKE, "-n", "--configfile", ".test/config.yaml", "--config",
                           f"data_mirror={wc.MIRROR}"], cwd=copy, env=wc.env_for(copy), capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("good, bad, expected", [
    ('"../../scripts/paper_a_select.py"', '"../../scripts/paper_a_selct.py"',
     "the script ../../scripts/paper_a_selct.py of rule paper_a_select ({smk}) does not exist "
     "({copy}/scripts/paper_a_selct.py); correct the path (relative to the directory of paper_a.smk)"),
    ('library_code("paper_a_select")', 'library_code("paper_a_selct")',
     "library_code('paper_a_selct'): no script {copy}/scripts/paper_a_selct.py - the name of the rule's script, "
     "misspelt?"),
], ids=["script", "library_code"])
@pytest.mark.subprocess
def test_a_misspelt_script_names_its_rule(copy, good, bad, expected):
    smk = copy / "workflow" / "rules" / "paper_a.smk"
    text = smk.read_text()
    assert text.count(good) == 1
    smk.write_text(text.replace(good, bad))
    try:
        proc = _dry_run(copy)
    finally:
        smk.write_text(text)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert expected.format(smk=smk, copy=copy) in out, out[-3000:]
    assert "Traceback" not in out and len(out.splitlines()) < 30, out[-3000:]
