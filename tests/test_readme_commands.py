"""Every command of the README's ``bash`` blocks runs as written, checked as a dry run.

The README is parsed, not copied: each line of a fenced ``bash`` block is a command (its ``# comment``
dropped). In a temporary copy of the workflow, laid out like this machine (``../shared/datasets`` is the
mirror, as in the README), with the README's own ``my.yaml`` overlay written next to it:

- ``snakemake ...`` / ``.venv/bin/snakemake ...`` runs with ``-n`` (dry run: the DAG is built, nothing runs).
  ``--report <file>`` needs a finished run, so it is dropped and the rest of the line dry-runs (the DAG the
  report is built from);
- ``make <target> [VAR=value]`` runs as ``make -n`` (the recipe expands; nothing is installed).

Marked slow: about ten DAG builds of the full configuration.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import workflow_copy as wf

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

README = wf.ROOT / "README.md"


def fenced_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def readme_commands(text: str) -> list[str]:
    """The command lines of the README's bash blocks, without their trailing comments."""
    out = []
    for block in fenced_blocks(text, "bash"):
        for line in block.splitlines():
            cmd = re.sub(r"\s+#.*$", "", line).strip()
            if cmd and not cmd.startswith("#"):
                out.append(cmd)
    return out


def overlay_example(text: str) -> str:
    """The README's parameter overlay: the first yaml block that starts with ``# my.yaml``."""
    return next(b for b in fenced_blocks(text, "yaml") if b.startswith("# my.yaml"))


def as_dry_run(cmd: str) -> list[str]:
    words = shlex.split(cmd)
    if words[0] == "make":
        return ["make", "-n", *words[1:]]
    if Path(words[0]).name == "python" and words[1] == "-m" and words[2] in ("privanomaly", "privanomaly.audit"):
        return [sys.executable, *words[1:]]  # the library's own CLI: run for real (it needs no workflow)
    assert Path(words[0]).name == "snakemake", f"README command neither snakemake nor make: {cmd}"
    words[0] = wf.SNAKEMAKE
    if "--report" in words:
        i = words.index("--report")
        del words[i : i + 2]
    return [*words, "-n"]


def test_readme_lists_the_commands_this_test_runs():
    cmds = readme_commands(README.read_text(encoding="utf-8"))
    assert cmds[:2] == ["make reproduce", "make test"]
    # the trap : a target, an overlay and the mirror together, in the order that works
    combined = [c for c in cmds if "paper_a_all" in c and "--configfile" in c and "data_mirror" in c]
    assert combined, "no README example combines a target, --configfile and the mirror"
    for c in combined:
        w = shlex.split(c)
        assert w.index("paper_a_all") < w.index("--configfile") < w.index("--config")


def test_every_readme_command_dry_runs(tmp_path):
    text = README.read_text(encoding="utf-8")
    copy = wf.copy_workflow(tmp_path / "work")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "datasets").symlink_to(wf.MIRROR, target_is_directory=True)
    (copy / "my.yaml").write_text(overlay_example(text), encoding="utf-8")
    (copy / "data").mkdir(exist_ok=True)  # the front page's own dataset (Recipe 1): a small CSV of that layout
    (copy / "data" / "mydata.csv").write_text("a,b,status\n" + "".join(
        f"{i % 7},{(3 * i) % 11},{'faulty' if i % 25 == 0 else 'ok'}\n" for i in range(200)), encoding="utf-8")
    (copy / ".venv" / "bin").mkdir(parents=True)  # the README says .venv/bin/snakemake: this one
    (copy / ".venv" / "bin" / "snakemake").symlink_to(wf.SNAKEMAKE)
    (copy / ".venv" / "bin" / ".installed").touch()  # make -n: the environment is there
    failures = []
    for cmd in readme_commands(text):
        argv = as_dry_run(cmd)
        proc = subprocess.run(argv, cwd=copy, env=wf.env_for(copy), capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            failures.append(f"$ {cmd}\n  ran as: {' '.join(argv)}\n{(proc.stdout + proc.stderr)[-1500:]}")
        elif argv[0] not in ("make", sys.executable):
            assert "This was a dry-run" in proc.stdout + proc.stderr or "Nothing to be done" in proc.stdout + proc.stderr
    assert not failures, "README commands that do not run as written:\n\n" + "\n\n".join(failures)

