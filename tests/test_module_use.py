"""The workflow as a Snakemake module of another workflow, exactly as the README's recipe shows it.

The README's "Use it in your own workflow" section is parsed, not copied: the block after each
``<!-- module-recipe: ... -->`` marker is the user's Snakefile, their config and the commands they type. In a
temporary directory laid out as the recipe says (``privanomaly/`` - here a link to this checkout - next to
``my-project/``), the commands run in ``my-project/`` with this environment's Snakemake: the dry run of the
whole DAG, one small table (CSV and its LaTeX copy) and the rule taken again under another name. Then the same
Snakefile with ``use rule * from privanomaly as privanomaly_*`` dry-runs. Marked slow: four DAG builds and two
small jobs.
"""

from __future__ import annotations

import csv
import re
import shlex
import subprocess
from pathlib import Path

import pytest

import workflow_copy as wf
from test_latex_tables import read_tex

pytestmark = pytest.mark.slow

README = wf.ROOT / "README.md"


def recipe_blocks(text: str) -> dict[str, str]:
    """{marker text: the fenced block right after it} of the README's module recipe."""
    found = re.findall(r"<!-- module-recipe: (.*?) -->\n```\w*\n(.*?)^```", text, flags=re.S | re.M)
    return {name: block for name, block in found}


@pytest.fixture(scope="module")
def recipe() -> dict[str, str]:
    blocks = recipe_blocks(README.read_text(encoding="utf-8"))
    assert set(blocks) == {"my-project/Snakefile", "my-project/config/config.yaml", "commands, in my-project/"}
    return blocks


@pytest.fixture(scope="module")
def project(tmp_path_factory, recipe) -> Path:
    """A fresh directory with the recipe's layout: privanomaly/ (this checkout) next to my-project/."""
    base = tmp_path_factory.mktemp("module")
    (base / "privanomaly").symlink_to(wf.ROOT, target_is_directory=True)
    for name in ("my-project/Snakefile", "my-project/config/config.yaml"):
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(recipe[name], encoding="utf-8")
    return base / "my-project"


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, env=wf.env_for(wf.ROOT), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"$ {' '.join(cmd)} in {cwd}\n{(proc.stdout + proc.stderr)[-4000:]}"
    return proc


def as_run(line: str) -> list[str]:
    words = shlex.split(line)
    assert words[0] == "snakemake", line
    return [wf.SNAKEMAKE, *words[1:]]


@pytest.fixture(scope="module")
def ran(project, recipe) -> list[subprocess.CompletedProcess]:
    """The recipe's commands, in order, in my-project/."""
    lines = [ln for ln in recipe["commands, in my-project/"].splitlines() if ln.strip()]
    return [run(as_run(line), project) for line in lines]


def test_dry_run_plans_both_papers_in_the_users_directory(ran, project):
    out = ran[0].stdout + ran[0].stderr
    assert "This was a dry-run" in out
    for rule in ("paper_a_table1", "paper_b_tables", "privacy_audit", "sweep_collect", "table_tex", "all"):
        assert re.search(rf"^{rule}\s+\d+$", out, flags=re.M), f"{rule} not in the module's DAG"
    assert f"{project.parent / 'privanomaly' / 'workflow' / 'schemas'}" not in out  # no path error
    assert not (project / "workflow").exists()  # nothing resolved against the user's directory


def test_one_table_in_the_users_results_dir_with_defaults_under_the_users_config(ran, project):
    tables = project / "results" / "privanomaly" / "paper_b" / "tables"
    with open(tables / "fig1_gs_bounds.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["d"] for r in rows] == ["1", "2", "3", "4", "5", "6"]  # the user's paper_b.fig1.d_max: 6
    assert {r["k"] for r in rows} == {"3"}  # privanomaly's config.yaml: paper_b.k = 3
    assert rows[0]["gs_exact"] == "7" and rows[1]["gs_lower"] == "13" and rows[1]["gs_upper"] == "19"
    header, body = read_tex(tables / "fig1_gs_bounds.tex")
    assert header == list(rows[0]) and body == [list(r.values()) for r in rows]
    assert not (wf.ROOT / "results" / "privanomaly").exists()  # nothing written in the clone


def test_a_rule_taken_again_under_another_name_writes_the_users_path(ran, project):
    with open(project / "my_tables" / "gs_bounds.csv", newline="", encoding="utf-8") as fh:
        mine = list(csv.reader(fh))
    with open(project / "results" / "privanomaly" / "paper_b" / "tables" / "fig1_gs_bounds.csv", newline="",
              encoding="utf-8") as fh:
        assert mine == list(csv.reader(fh))
    assert (project / "my_tables" / "gs_bounds.md").read_text(encoding="utf-8").startswith("| d | k |")
    assert (project / "my_tables" / "logs" / "gs_bounds.tsv").is_file()  # its own log and benchmark


def test_every_rule_renamed_with_a_prefix(project, recipe):
    snakefile = recipe["my-project/Snakefile"]
    assert "use rule * from privanomaly\n" in snakefile
    (project / "Snakefile.prefixed").write_text(
        snakefile.replace("use rule * from privanomaly\n", "use rule * from privanomaly as privanomaly_*\n"),
        encoding="utf-8")
    proc = run([wf.SNAKEMAKE, "-s", "Snakefile.prefixed", "-n"], project)
    out = proc.stdout + proc.stderr
    assert re.search(r"^privanomaly_all\s+1$", out, flags=re.M)
    assert re.search(r"^privanomaly_paper_a_table1\s+1$", out, flags=re.M)
    assert not re.search(r"^paper_a_table1\s", out, flags=re.M)
