"""The config schema: the shipped configs validate; each bad-config case fails naming the key.

Cases : a wrong key, a negative epsilon or r, beta < 1, k < 1, an unknown dataset name. Checked
with ``snakemake.utils.validate`` (the call the Snakefile makes) on dicts, plus real ``snakemake -n`` runs.
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config, validate

from privanomaly.datasets import DataError, check_dataset_name, check_dataset_names

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


BASE = load(ROOT / "config.yaml")
TEST_OVERLAY = load(ROOT / ".test" / "config.yaml")


def merged_test_config() -> dict:
    cfg = copy.deepcopy(BASE)
    update_config(cfg, copy.deepcopy(TEST_OVERLAY))
    return cfg


def validation_error(cfg: dict) -> str:
    """The message of the schema error for ``cfg`` ('' if it validates)."""
    try:
        validate(copy.deepcopy(cfg), SCHEMA)
    except Exception as exc:  # snakemake raises WorkflowError wrapping the jsonschema error
        return str(exc)
    return ""


def instance_path(message: str) -> str:
    m = re.search(r"On instance(\[.*?\]):", message)
    return m.group(1) if m else ""


def key_path(*keys) -> str:
    return "".join(f"[{k!r}]" for k in keys)


def get(cfg, path):
    for k in path:
        cfg = cfg[k]
    return cfg


def put(cfg, path, value):
    get(cfg, path[:-1])[path[-1]] = value


# ---------------------------------------------------------------- the shipped configs


def test_config_yaml_validates():
    assert validation_error(BASE) == ""


def test_test_config_merged_over_config_validates():
    assert validation_error(merged_test_config()) == ""


def _leaves(d, prefix=()):
    for k, v in d.items():
        if isinstance(v, dict) and v:
            yield from _leaves(v, (*prefix, k))
        else:
            yield (*prefix, k), v


def test_test_config_keeps_every_dataset_and_only_sets_differing_keys():
    merged = merged_test_config()
    assert list(merged["datasets"]) == list(BASE["datasets"])
    for path, value in _leaves(TEST_OVERLAY.get("datasets", {}), ("datasets",)):
        try:
            base_value = get(BASE, path)
        except KeyError:
            if "subsample" in path:  # adding a subsample to an entry that has none
                continue
            raise AssertionError(f".test/config.yaml sets {path}, which config.yaml does not have") from None
        assert base_value != value, f".test/config.yaml repeats {path} = {value!r} from config.yaml"


# ---------------------------------------------------------------- wrong keys and bad values


@pytest.mark.parametrize(
    "mutate, path, words",
    [
        (lambda c: c.update(datasetz={}), "", "'datasetz' was unexpected"),
        (
            lambda c: c["datasets"]["thyroid"].update(lable={}),
            key_path("datasets", "thyroid"),
            "'lable' was unexpected",
        ),
        (
            lambda c: c["datasets"]["thyroid"]["preprocess"].update(standardise=True),
            key_path("datasets", "thyroid", "preprocess"),
            "'standardise' was unexpected",
        ),
        (lambda c: c.update(seed=-1), key_path("seed"), "less than the minimum of 0"),
        (
            lambda c: c["datasets"]["creditcard"]["preprocess"].update(pca=0),
            key_path("datasets", "creditcard", "preprocess", "pca"),
            "less than the minimum of 1",
        ),
        (
            lambda c: c["datasets"]["adult_b1"]["preprocess"]["subsample"].update(n_anomaly=-5),
            key_path("datasets", "adult_b1", "preprocess", "subsample", "n_anomaly"),
            "less than the minimum of 0",
        ),
        (
            lambda c: c["datasets"]["thyroid"]["files"][0].update(sha256="deadbeef"),
            key_path("datasets", "thyroid", "files", 0, "sha256"),
            "does not match",
        ),
        (
            lambda c: c["datasets"]["thyroid"].update(format="xlsx"),
            key_path("datasets", "thyroid", "format"),
            "'xlsx' is not one of",
        ),
        (
            lambda c: c["datasets"]["synthetic_b1"]["generator"].update(n_normal=0),
            key_path("datasets", "synthetic_b1", "generator", "n_normal"),
            "less than the minimum of 1",
        ),
        (
            lambda c: c["datasets"]["synthetic_b1"]["generator"]["anomaly"].update(var=[-100, 100]),
            key_path("datasets", "synthetic_b1", "generator", "anomaly", "var", 0),
            "less than the minimum of 0",
        ),
        (
            lambda c: c["datasets"]["synthetic_a"]["generator"].update(colour="red"),
            key_path("datasets", "synthetic_a", "generator"),
            "'colour' was unexpected",
        ),
        (
            lambda c: c["datasets"]["thyroid"].pop("label"),
            key_path("datasets", "thyroid"),
            "'label' is a required property",
        ),
        (
            lambda c: c["datasets"].update({"my-data": c["datasets"]["thyroid"]}),
            key_path("datasets"),
            "'my-data' does not match",
        ),
        (lambda c: c.update(data_mirror=5), key_path("data_mirror"), "is not of type"),
    ],
)
def test_bad_data_config_fails_naming_the_key(mutate, path, words):
    cfg = copy.deepcopy(BASE)
    mutate(cfg)
    msg = validation_error(cfg)
    assert words in msg, msg
    assert instance_path(msg) == path, msg


# Paper parameters: find every epsilon / r / beta / k key in the paper sections and break it.
BAD = {"eps": -0.5, "r": -1.0, "beta": 0, "k": 0}


def _kind(key: str) -> str | None:
    if key.startswith("eps") or key.startswith("epsilon"):
        return "eps"
    if key in ("r", "radius") or key.startswith("r_values"):
        return "r"
    if key in ("beta", "betas") or key.startswith("beta_"):
        return "beta"
    if key == "k" or key.startswith("k_"):
        return "k"
    return None


def _parameter_paths():
    out = []
    for section in ("paper_a", "paper_b"):
        for path, value in _leaves(BASE.get(section) or {}, (section,)):
            kind = _kind(str(path[-1]))
            if kind is None:
                continue
            if isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
                out.append((kind, (*path, 0)))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                out.append((kind, path))
    return out


PARAMETER_PATHS = _parameter_paths()


def test_every_kind_of_paper_parameter_is_present():
    kinds = {kind for kind, _ in PARAMETER_PATHS}
    assert kinds == {"eps", "r", "beta", "k"}, f"paper sections lack some of eps/r/beta/k: {PARAMETER_PATHS}"


@pytest.mark.parametrize("kind, path", PARAMETER_PATHS, ids=[".".join(map(str, p)) for _, p in PARAMETER_PATHS])
def test_bad_paper_parameter_fails_naming_the_key(kind, path):
    cfg = copy.deepcopy(BASE)
    if isinstance(path[-1], int):
        lst = list(get(cfg, path[:-1]))
        lst[path[-1]] = BAD[kind]
        put(cfg, path[:-1], lst)
    else:
        put(cfg, path, BAD[kind])
    msg = validation_error(cfg)
    assert msg, f"{'.'.join(map(str, path))} = {BAD[kind]} was accepted"
    assert instance_path(msg) == key_path(*path), msg


# ---------------------------------------------------------------- unknown dataset names


KNOWN = list(BASE["datasets"])


def test_check_dataset_names_accepts_known_names():
    assert check_dataset_names(["thyroid", "adult"], KNOWN, "paper_a.datasets") == ["thyroid", "adult"]


def test_unknown_dataset_name_names_key_index_and_known_names():
    with pytest.raises(DataError) as err:
        check_dataset_names(["thyroid", "adult", "foo"], KNOWN, "paper_a.datasets")
    msg = str(err.value)
    assert msg.startswith("paper_a.datasets[2]: unknown dataset 'foo'; known: ")
    assert msg.endswith(", ".join(sorted(KNOWN)))


def test_check_dataset_name_for_a_single_key():
    assert check_dataset_name("thyroid", KNOWN, "paper_a.fig2.dataset") == "thyroid"
    with pytest.raises(DataError) as err:
        check_dataset_name("foo", KNOWN, "paper_a.fig2.dataset")
    assert str(err.value) == f"paper_a.fig2.dataset: unknown dataset 'foo'; known: {', '.join(sorted(KNOWN))}"


def test_check_dataset_names_rejects_a_bare_string():
    with pytest.raises(DataError, match="paper_a.datasets: expected a list"):
        check_dataset_names("thyroid", KNOWN, "paper_a.datasets")


# ---------------------------------------------------------------- real snakemake runs


def dry_run(tmp_path: Path, *config_args: str, overlay: dict | None = None) -> subprocess.CompletedProcess:
    cmd = [SNAKEMAKE, "-n", "--cores", "1"]
    if overlay is not None:
        extra = tmp_path / "overlay.yaml"
        extra.write_text(yaml.safe_dump(overlay))
        cmd += ["--configfile", str(extra)]
    if MIRROR.is_dir():
        config_args = (f"data_mirror={MIRROR}", *config_args)
    if config_args:
        cmd += ["--config", *config_args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_snakemake_rejects_bad_config_before_any_job(tmp_path):
    proc = dry_run(tmp_path, "seed=-1")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    # the key first (and where it was set: here --config), then what was expected - no schema dump
    assert "config key seed (--config): -1 is less than the minimum of 0" in out, out[-3000:]
    assert "Failed validating" not in out
    assert "Job stats" not in out  # failed at parse time, no job planned


@pytest.mark.slow
def test_snakemake_rejects_unknown_key(tmp_path):
    proc = dry_run(tmp_path, overlay={"datasets": {"thyroid": {"preprocess": {"pcaa": 3}}}})
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert re.search(r"config key datasets\.thyroid\.preprocess\.pcaa \(.*overlay\.yaml:\d+\): unknown key 'pcaa'", out), out[
        -3000:
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "overlay, expected",
    [
        (
            {"paper_a": {"datasets": [*BASE["paper_a"].get("datasets", []), "nosuchdata"]}},
            rf"paper_a\.datasets\[{len(BASE['paper_a'].get('datasets', []))}\]: unknown dataset 'nosuchdata'; known: ",
        ),
        (
            {"paper_b": {"datasets": {"nosuchdata": "Mystery"}}},
            r"paper_b\.datasets\[\d+\]: unknown dataset 'nosuchdata'; known: ",
        ),
    ],
    ids=["paper_a.datasets", "paper_b.datasets"],
)
def test_snakemake_rejects_unknown_dataset_name(tmp_path, overlay, expected):
    # the paper rule files check their dataset lists with check_dataset_names (common.smk) at parse time
    proc = dry_run(tmp_path, overlay=overlay)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert re.search(expected, out), out[-3000:]
    assert "Job stats" not in out


@pytest.mark.slow
def test_snakemake_with_missing_mirror_fails_clearly(tmp_path):
    proc = subprocess.run(
        [SNAKEMAKE, "-n", "--cores", "1", "--config", f"data_mirror={tmp_path / 'absent'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert f"data_mirror: directory '{tmp_path / 'absent'}' does not exist" in out, out[-3000:]
