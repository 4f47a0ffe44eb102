"""``make reproduce CONFIG="my file.yaml"``: a path with spaces reaches the config check and Snakemake as one
argument (the Makefile used to split it into ``my`` and ``file.yaml``); the same for the data mirror and
the report path. Checked on the recipes ``make -n`` prints, split as the shell splits them."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess  # make -n

ROOT = Path(__file__).resolve().parents[1]


def recipe(*args: str) -> list[list[str]]:
    out = subprocess.run(["make", "-n", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout
    return [shlex.split(line) for line in out.splitlines() if "snakemake" in line or "privanomaly.preflight" in line]


def after(words: list[str], flag: str) -> str:
    return words[words.index(flag) + 1]


def test_config_path_with_spaces_is_one_argument(tmp_path):
    cfg = str(tmp_path / "my file.yaml")
    lines = recipe("reproduce", f"CONFIG={cfg}", "DATA_MIRROR=/data/my mirror", "REPORT=out dir/report.html")
    runs = [w for w in lines if "--configfile" in w]
    assert len(runs) == 3  # the config check, the run, the report
    assert all(after(w, "--configfile") == cfg for w in runs)
    snakemake = [w for w in lines if any(x.endswith("snakemake") for x in w)]
    assert all(after(w, "--config") == "data_mirror=/data/my mirror" for w in snakemake)
    assert after(snakemake[-1], "--report") == "out dir/report.html"


def test_relative_mirror_with_spaces_is_made_absolute():
    lines = recipe("report", "DATA_MIRROR=my mirror")
    assert after(lines[0], "--config") == f"data_mirror={ROOT}/my mirror"


def test_default_paths_unchanged():
    lines = recipe("reproduce", "DATA_MIRROR=../shared/datasets")
    assert after(lines[1], "--config") == f"data_mirror={(ROOT.parent / 'shared' / 'datasets').resolve()}"
    assert "--configfile" not in lines[1]


def test_make_test_uses_the_mirror_it_is_given():
    # was: pytest and the .test DAG always looked in ../shared/datasets, whatever DATA_MIRROR said
    out = subprocess.run(["make", "-n", "-C", str(ROOT), "test", "DATA_MIRROR=/data/my mirror"], capture_output=True,
                         text=True, check=True).stdout
    words = [shlex.split(line.rstrip("\\")) for line in out.replace("\\\n", " ").splitlines()]
    pytest_lines = [w for w in words if "pytest" in w]
    assert len(pytest_lines) == 2 and all(w[0] == "PRIVANOMALY_MIRROR=/data/my mirror" for w in pytest_lines)
    # pytest may keep its rewritten test modules (tests/__pycache__) wherever PYTHONDONTWRITEBYTECODE is set
    assert all(w[1] == "PYTHONDONTWRITEBYTECODE=" for w in pytest_lines)
    dry = next(w for w in words if any(x.endswith("snakemake") for x in w) and "--dry-run" in w)
    assert after(dry, "--config") == "data_mirror=/data/my mirror"
    # the .test DAG runs inside the slow tests (tests/test_dag_run.py), on the mirror pytest was given
    import workflow_copy as wf

    dag = wf.snakemake_cmd(2, copy=ROOT, goals=["all"])
    assert dag[:2] == [wf.SNAKEMAKE, "all"] and after(dag, "--config") == f"data_mirror={wf.MIRROR}"


def test_make_test_runs_the_fast_stage_first():
    """`make test` is `make check` (no process-starting test, lint, snakefmt, a dry run), then the tests that start
    processes or run the workflow - among them the whole .test DAG, once (tests/test_dag_run.py) - each once."""
    def steps(target: str) -> list[str]:
        out = subprocess.run(["make", "-n", "-o", "install", "-C", str(ROOT), target], capture_output=True, text=True,
                             check=True).stdout.replace("\\\n", " ")
        kinds = {"-m not slow and not subprocess": "fast tests", "-m slow or subprocess": "slow tests",
                 "--lint": "lint", "snakefmt --check": "snakefmt", "--dry-run": "dry run",
                 "--rerun-incomplete": ".test DAG"}
        found = []
        for line in out.splitlines():
            flat = " ".join(shlex.split(line)) if "pytest" in line else line
            found += [kind for key, kind in kinds.items() if key in flat]
        return found

    check = ["fast tests", "lint", "snakefmt", "dry run"]
    assert steps("check") == check
    assert steps("test") == [*check, "slow tests"]
    dag_test = (ROOT / "tests" / "test_dag_run.py").read_text(encoding="utf-8")
    assert "pytestmark = [pytest.mark.slow, pytest.mark.mirror]" in dag_test  # in the slow stage


def test_make_test_cluster_uses_the_mirror_it_is_given():
    # was: DATA_MIRROR=$(abspath ../shared/datasets) in the recipe, whatever DATA_MIRROR said
    out = subprocess.run(["make", "-n", "-o", "install", "-C", str(ROOT), "test-cluster", "DATA_MIRROR=/data/my mirror"],
                         capture_output=True, text=True, check=True).stdout
    line = next(shlex.split(x) for x in out.splitlines() if "test_cluster.sh" in x)
    assert "DATA_MIRROR=/data/my mirror" in line and line[-1] == "tools/test_cluster.sh"
    default = subprocess.run(["make", "-n", "-o", "install", "-C", str(ROOT), "test-cluster",
                              "DATA_MIRROR=../shared/datasets"], capture_output=True, text=True, check=True).stdout
    assert f"DATA_MIRROR={(ROOT.parent / 'shared' / 'datasets').resolve()}" in shlex.split(
        next(x for x in default.splitlines() if "test_cluster.sh" in x))


def test_make_refuses_to_rebuild_a_linked_venv(tmp_path):
    # was: `python3 -m venv --clear .venv` ran through the link and wiped the environment it pointed to
    work = tmp_path / "clone"
    work.mkdir()
    for name in ("Makefile", "requirements.lock", "requirements-bootstrap.lock"):
        (work / name).write_text((ROOT / name).read_text())
    env = tmp_path / "shared-env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "keep").write_text("the linked environment")
    (work / ".venv").symlink_to(env)
    proc = subprocess.run(["make", "-C", str(work), ".venv/bin/.installed", "PYTHON=false"], capture_output=True,
                          text=True)
    assert proc.returncode != 0
    assert f"make: .venv is a link (to {env}) and needs rebuilding for requirements.lock: refusing to run 'venv " \
           "--clear' through it" in proc.stderr, proc.stderr
    assert "venv --clear .venv" not in proc.stdout  # the recipe stopped before it
    assert (env / "bin" / "keep").read_text() == "the linked environment"
    (env / "bin" / ".installed").write_text("")  # a current linked environment is used as it is
    proc = subprocess.run(["make", "-C", str(work), ".venv/bin/.installed", "PYTHON=false"], capture_output=True,
                          text=True)
    assert proc.returncode == 0 and "is a link" not in proc.stderr, proc.stderr
