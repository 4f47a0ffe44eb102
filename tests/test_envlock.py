"""The environment lock: requirements.lock covers pyproject.toml, carries hashes, is what
`make install` installs, and envs/privanomaly.yaml carries the same pins (privanomaly.run.envlock)."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from privanomaly.run import envlock

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def _pins() -> dict[tuple[str, str | None], str]:
    return {(p.name, p.marker): p.version for p in envlock.parse_lock(LOCK.read_text(encoding="utf-8"))}


def test_every_direct_pin_of_pyproject_is_in_the_lock_at_its_version():
    proj = _pyproject()
    direct = [*proj["project"]["dependencies"], *proj["project"]["optional-dependencies"]["test"]]
    locked = {name: v for (name, marker), v in _pins().items() if marker is None}
    for req in direct:
        name, version = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", req).groups()
        assert locked.get(envlock.normalize(name)) == version, f"{req}: lock has {locked.get(envlock.normalize(name))} - run make lock"
    # the build backend of the editable install (pip --no-build-isolation) is locked too
    for req in proj["build-system"]["requires"]:
        assert envlock.normalize(re.split(r"[<>=]", req)[0]) in locked, req


def test_every_locked_package_has_sha256_hashes():
    blocks = re.split(r"\n(?=[a-z0-9])", LOCK.read_text(encoding="utf-8"))
    entries = [b for b in blocks if re.match(r"^[a-z0-9][a-z0-9._-]*==", b)]
    assert len(entries) == len(_pins()) > 50
    for b in entries:
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", b), b.splitlines()[0]


def test_conda_env_is_generated_from_the_lock():
    env = yaml.safe_load((ROOT / "envs" / "privanomaly.yaml").read_text(encoding="utf-8"))
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    conda_pins = envlock.parse_lock("\n".join(pip))
    assert conda_pins and all(_pins().get((p.name, p.marker)) == p.version for p in conda_pins)
    names = {p.name for p in conda_pins}
    for req in envlock.runtime_requirements(ROOT / "pyproject.toml"):
        assert envlock.normalize(req.split("==")[0]) in names, req
    assert not names & envlock.HOST_ONLY
    # the generator reproduces the committed file from its own pins
    text = (ROOT / "envs" / "privanomaly.yaml").read_text(encoding="utf-8")
    assert envlock.conda_env(conda_pins) == text


def test_parse_lock_rejects_lines_it_does_not_understand():
    assert envlock.parse_lock("a-b==1.0 \\\n    --hash=sha256:00\n# c\nx==2 ; sys_platform == 'win32'\n") == [
        envlock.Pin("a-b", "1.0"), envlock.Pin("x", "2", "sys_platform == 'win32'")]
    with pytest.raises(ValueError, match="not of the form"):
        envlock.parse_lock("numpy>=2\n")


@pytest.mark.subprocess
def test_make_install_installs_the_lock_from_pypi_with_hashes(tmp_path):
    out = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), "install"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert any("-m venv --clear .venv" in x for x in lines)  # a fresh environment: nothing but the lock
    boot = next(x for x in lines if "-r requirements-bootstrap.lock" in x)  # uv, through pip, hashed
    assert "--require-hashes" in boot and "--isolated" in boot and "--index-url https://pypi.org/simple" in boot
    main = next(x for x in lines if "-r requirements.lock" in x)
    assert main.startswith(".venv/bin/uv pip install") and "--no-config" in main
    assert "--require-hashes" in main and "--no-deps" in main and "--index-url https://pypi.org/simple" in main
    assert "--compile-bytecode" in main  # as pip: jobs must not recompile every import (PYTHONDONTWRITEBYTECODE)
    editable = next(x for x in lines if " -e ." in x)
    assert "--no-deps" in editable and "--no-index" in editable


def test_bootstrap_lock_pins_the_uv_of_make_lock_with_hashes():
    text = (ROOT / "requirements-bootstrap.lock").read_text(encoding="utf-8")
    uv_version = re.search(r"^UV_VERSION := (\S+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)
    assert envlock.parse_lock(text) == [envlock.Pin("uv", uv_version)]
    assert len(re.findall(r"--hash=sha256:[0-9a-f]{64}", text)) >= 5  # one per platform wheel, and the sdist
