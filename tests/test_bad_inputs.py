"""Bad input → a clear error naming the key or file and what was expected, and no partial output.

One parametrised table per kind of input (the same table is in docs/troubleshooting.md):

* CONFIG_CASES: config.yaml with one key changed, validated exactly as the Snakefile does
  (``snakemake.utils.validate`` with workflow/schemas/config.schema.yaml). Nothing can be written: the
  workflow stops before building the DAG.
* DATA_CASES: a bad raw file or dataset entry, run through the real ``scripts/prepare.py`` (the rule's
  script, with a stand-in ``snakemake`` object): the error must name the file or key, and neither the
  parquet table nor its JSON provenance (nor a temporary file) may be left behind.
* SOURCE_CASES: the raw-file step (``scripts/download.py``): a missing mirror directory, a sha256 mismatch.
* DRY_RUN_CASES (slow): the same failures end to end with ``snakemake -n`` on the .test config.
"""

from __future__ import annotations

import copy
import re
import runpy
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import yaml
from snakemake.utils import validate

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
BASE = yaml.safe_load((ROOT / "config.yaml").read_text())
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
THYROID = MIRROR / "thyroid" / "38_thyroid.npz"


# ============================================================================ config (schema) cases
def _get(cfg, path):
    for k in path:
        cfg = cfg[k]
    return cfg


def _set(cfg, path, value):
    _get(cfg, path[:-1])[path[-1]] = value


POSITIVE = r"(less than or equal to the minimum of 0|less than the minimum of|is not greater than 0)"
UNIT_INTERVAL_HI = r"(greater than or equal to the maximum of 1|is not less than 1)"
NON_EMPTY = r"(should be non-empty|is too short|\[\] is too short)"
INTEGER = r"is not of type 'integer'"

# (case id, key path, bad value, regex the message must contain besides the key path)
CONFIG_CASES = [
    ("eps_zero_in_grid", ("paper_a", "eps_grid", 0), 0.0, POSITIVE),
    ("eps_negative_ref", ("paper_a", "eps_ref"), -1.0, POSITIVE),
    ("eps_zero_paper_b", ("paper_b", "scenario1", "eps", 0), 0.0, POSITIVE),
    ("eps_negative_paper_b_s2", ("paper_b", "scenario2", "eps", 0), -0.2, POSITIVE),
    ("delta_zero", ("paper_b", "delta"), 0.0, POSITIVE),
    ("delta_one", ("paper_b", "delta"), 1.0, UNIT_INTERVAL_HI),
    ("delta_above_one", ("paper_b", "delta"), 1.5, UNIT_INTERVAL_HI),
    ("beta_zero", ("paper_a", "selection", "betas", 0), 0, r"less than the minimum of 1"),
    ("beta_non_integer", ("paper_a", "selection", "betas", 0), 2.5, INTEGER),
    ("beta_fig4_zero", ("paper_a", "fig4", "beta"), 0, r"less than the minimum of 1"),
    ("k_zero_paper_a", ("paper_a", "k_main"), 0, r"less than the minimum of 1"),
    ("k_zero_in_grid", ("paper_a", "k_grid", 0), 0, r"less than the minimum of 1"),
    ("k_zero_paper_b", ("paper_b", "k"), 0, r"less than the minimum of 1"),
    ("k_non_integer", ("paper_b", "k"), 2.5, INTEGER),
    ("r_negative_fig4", ("paper_a", "fig4", "r"), -1.0, r"less than the minimum of 0"),
    ("r_grid_min_not_positive", ("paper_b", "tuning", "r_grid", "min"), -0.1, POSITIVE),
    ("empty_eps_grid", ("paper_a", "eps_grid"), [], NON_EMPTY),
    ("empty_k_grid", ("paper_a", "k_grid"), [], NON_EMPTY),
    ("empty_beta_grid", ("paper_a", "selection", "betas"), [], NON_EMPTY),
    ("empty_paper_b_eps", ("paper_b", "scenario1", "eps"), [], NON_EMPTY),
    ("empty_h_grid", ("paper_b", "scenario2", "h"), [], NON_EMPTY),
    ("negative_seed", ("seed",), -1, r"less than the minimum of 0"),
]


def _instance_path(message: str) -> str:
    m = re.search(r"On instance(\[.*?\]):", message)
    return m.group(1) if m else ""


@pytest.mark.parametrize("case, path, value, expected", CONFIG_CASES, ids=[c[0] for c in CONFIG_CASES])
def test_bad_config_value_is_rejected_naming_the_key(case, path, value, expected):
    cfg = copy.deepcopy(BASE)
    try:
        _get(cfg, path[:-1])
    except (KeyError, IndexError, TypeError):
        pytest.skip(f"config has no key {path[:-1]} (yet)")
    _set(cfg, path, value)
    with pytest.raises(Exception) as exc:
        validate(cfg, SCHEMA)
    msg = str(exc.value)
    where = _instance_path(msg)
    want = "".join(f"[{k!r}]" for k in path)
    # the message names the key (the whole path, or the list holding the bad item) ...
    assert where in (want, "".join(f"[{k!r}]" for k in path[:-1])), f"{case}: names {where!r}, expected {want}"
    # ... and what was expected
    assert re.search(expected, msg), f"{case}: message does not say what was expected:\n{msg}"


def test_shipped_config_is_valid():
    validate(copy.deepcopy(BASE), SCHEMA)


def test_unknown_dataset_name_lists_the_known_ones():
    from privanomaly.datasets import DataError, check_dataset_names

    with pytest.raises(DataError) as exc:
        check_dataset_names(["thyroid", "thyriod"], BASE["datasets"], "paper_a.datasets")
    msg = str(exc.value)
    assert msg.startswith("paper_a.datasets[1]: unknown dataset 'thyriod'; known: ")
    assert "thyroid" in msg and "mammography" in msg


# ============================================================================ data (file) cases
class _Files(list):
    """A list with attribute access, like snakemake's Namedlist."""

    def __init__(self, items=(), **named):
        super().__init__([*items, *named.values()])
        self.__dict__.update(named)

    def items(self):
        return list(self.__dict__.items())


def _run_script(script: str, *, input=(), output: dict, params: dict, wildcards: dict, log: Path, config=None):
    named_inputs = input if isinstance(input, dict) else {}
    sm = SimpleNamespace(
        input=_Files([] if named_inputs else input, **named_inputs),
        output=_Files(**output),
        params=SimpleNamespace(**params),
        wildcards=SimpleNamespace(**wildcards),
        log=_Files([str(log)]),
        config=config or {},
    )
    runpy.run_path(str(ROOT / "scripts" / script), init_globals={"snakemake": sm}, run_name="__main__")


def _csv_entry(path: Path, **over) -> dict:
    entry = {
        "files": [{"path": str(path)}],
        "format": "csv",
        "label": {"column": "label", "anomaly_values": [1], "normal_values": [0]},
        "preprocess": {"standardize": False},
    }
    entry.update(over)
    return entry


GOOD_CSV = "a,b,label\n0.1,1.0,0\n0.2,1.5,0\n5.0,9.0,1\n0.3,1.2,0\n"


def _write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text)
    return p


def _truncate(src: Path, dst: Path, keep: float = 0.5) -> Path:
    data = src.read_bytes()
    dst.write_bytes(data[: int(len(data) * keep)])
    return dst


def _zip_with_csv(tmp: Path) -> Path:
    p = tmp / "data.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("inner/data.csv", GOOD_CSV * 50)
    return p


# Each case: (id, build(tmp) -> dataset entry, regex that must be in the message, what the message must name)
DATA_CASES = [
    (
        "label_column_missing",
        lambda t: _csv_entry(_write(t, "d.csv", GOOD_CSV.replace("label", "cls"))),
        r"label\.column: no column 'label'",
        "datasets.bad.label.column",
    ),
    (
        "label_without_anomalies",
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n0.1,1,0\n0.2,2,0\n")),
        r"anomaly_values: \[1\] match no row",
        "datasets.bad.label",
    ),
    (
        "nan_in_features",
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n0.1,,0\n0.2,2,0\n5,9,1\n")),
        r"missing values \(columns \['b'\]\)",
        "datasets.bad.preprocess.missing",
    ),
    (
        "inf_in_features",
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n0.1,inf,0\n0.2,2,0\n5,9,1\n")),
        r"(non-finite|infinite).*'b'|'b'.*(non-finite|infinite)",
        "datasets.bad",
    ),
    (
        "duplicated_column_names",
        lambda t: _csv_entry(_write(t, "d.csv", "a,a,label\n0.1,1,0\n0.2,2,0\n5,9,1\n")),
        r"duplicate.*'a'",
        "d.csv",
    ),
    (
        "ragged_csv_row",
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n0.1,1,0\n0.2,2,0,7\n5,9,1\n")),
        r"(line|row) 3.*(3 fields|expected 3)|expected 3 fields.*(line|row) 3",
        "d.csv",
    ),
    (
        "truncated_npz",
        lambda t: {
            "files": [{"path": str(_truncate(THYROID, t / "38_thyroid.npz"))}],
            "format": "npz",
            "label": {"column": "y", "anomaly_values": [1], "normal_values": [0]},
        },
        r"(truncated|corrupt|not a (valid )?(zip|npz))",
        "38_thyroid.npz",
    ),
    (
        "truncated_zip",
        lambda t: _csv_entry(
            _truncate(_zip_with_csv(t), t / "trunc.zip", 0.6), format="zip_csv", read={"member": "data.csv"}
        ),
        r"(truncated|corrupt|not a (valid )?zip)",
        "trunc.zip",
    ),
    (
        "sha256_mismatch_local_file",
        lambda t: _csv_entry(_write(t, "d.csv", GOOD_CSV), files=[{"path": str(t / "d.csv"), "sha256": "0" * 64}]),
        r"sha256 mismatch — expected 0{64}, got [0-9a-f]{64}.*set datasets\.bad\.files\[0\]\.sha256",
        "d.csv",
    ),
    # ---- no column dropped or zeroed silently; empty results fail at prepare
    (
        "non_numeric_cell_in_numeric_column",
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n0.1,1.0,0\n0.2,1.5x,0\n5,9,1\n")),
        r"d\.csv: column 'b', data row 2 .*'1\.5x' is not a number.*drop_columns",
        "d.csv",
    ),
    (
        "text_column_not_listed_in_drop_columns",
        lambda t: _csv_entry(_write(t, "d.csv", "a,city,label\n0.1,Oslo,0\n0.2,Rome,0\n5,Kyiv,1\n")),
        r"column 'city', data row 1 .*'Oslo' is not a number.*datasets\.bad\.preprocess\.drop_columns: \[city\]",
        "d.csv",
    ),
    (
        "overflow_in_standardisation",
        lambda t: _csv_entry(
            _write(t, "d.csv", "a,b,label\n0.1,1e308,0\n0.2,-1e308,0\n5,1e308,1\n"), preprocess={"standardize": True}
        ),
        r"preprocess\.standardize: non-finite results in column\(s\) \['b'\]",
        "datasets.bad",
    ),
    (
        "missing_drop_with_all_nan_column_leaves_no_row",
        lambda t: _csv_entry(
            _write(t, "d.csv", "a,b,label\n0.1,,0\n0.2,,0\n5,,1\n"), preprocess={"missing": "drop", "standardize": False}
        ),
        r"preprocess\.missing: 'drop' leaves no row \(column\(s\) \['b'\] are missing in every row\)",
        "datasets.bad",
    ),
    (
        "impute_with_all_nan_column_not_dropped",
        lambda t: _csv_entry(
            _write(t, "d.csv", "a,b,label\n0.1,,0\n0.2,,0\n5,,1\n"), preprocess={"missing": "impute_median"}
        ),
        r"\['b'\] are missing in every row.*datasets\.bad\.preprocess\.drop_columns",
        "datasets.bad",
    ),
    (
        "missing_drop_removes_every_anomaly",
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n0.1,1,0\n0.2,2,0\n5,,1\n"), preprocess={"missing": "drop"}),
        r"preprocess\.missing: 'drop' leaves no anomaly",
        "datasets.bad",
    ),
    (
        "header_only_csv",  # said only that anomaly_values [1] match no row (values seen: [])
        lambda t: _csv_entry(_write(t, "d.csv", "a,b,label\n")),
        r"datasets\.bad\.files\[0\]: .*d\.csv has no data rows \(a header",
        "d.csv",
    ),
    # ---- unreadable files say where and what to do (a local file is not "fetched again")
    (
        "latin1_csv",
        lambda t: _csv_entry(_write_bytes(t, "d.csv", "a,b,label\n0.1,1,0\n0.2,2,0\n5,9,1\n# Zürich\n".encode("latin-1"))),
        r"not valid utf-8 text \(byte 0xfc at line 5, byte offset 35\).*datasets\.bad\.read\.encoding",
        "d.csv",
    ),
    (
        "zero_byte_csv",
        lambda t: _csv_entry(_write(t, "d.csv", "")),
        r"the file is empty \(0 bytes\).*replace .*d\.csv with a good copy",
        "d.csv",
    ),
    (
        "data_path_is_a_directory",
        lambda t: _csv_entry(_mkdir(t, "d.csv")),
        r"d\.csv is a directory, not a file",
        "datasets.bad.files[0]",
    ),
    (
        "data_path_is_a_symlink_loop",
        lambda t: _csv_entry(_symlink_loop(t, "d.csv")),
        r"d\.csv exists but cannot be read \(Too many levels of symbolic links\)",
        "datasets.bad.files[0]",
    ),
    (
        "npz_with_object_array",
        lambda t: _npz_entry(t, X=np.array([[1.0, "a"], [2.0, "b"], [3.0, "c"]], dtype=object), y=np.array([0, 0, 1])),
        r"array 'X' holds Python objects \(dtype=object\)",
        "d.npz",
    ),
    (
        "npz_without_label_array",
        lambda t: _npz_entry(t, X=np.ones((3, 2)), labels=np.array([0, 0, 1])),
        r"d\.npz: no array 'y' \(datasets\.bad\.label\.column\); the file has \['X', 'labels'\]",
        "datasets.bad.label.column",
    ),
    (
        "label_column_index_past_the_last_column",  # was an IndexError naming nothing
        lambda t: _csv_entry(_write(t, "d.csv", GOOD_CSV), label={"column": 7, "anomaly_values": [1]}),
        r"label\.column: index 7 is outside the 3 columns of the file \(0-based: 0\.\.2\)",
        "datasets.bad.label.column",
    ),
    (
        "label_value_in_both_lists",  # was labelled an anomaly silently
        lambda t: _csv_entry(_write(t, "d.csv", GOOD_CSV),
                             label={"column": "label", "anomaly_values": [1], "normal_values": [0, 1]}),
        r"label: values \['1'\] are in both anomaly_values and normal_values",
        "datasets.bad.label",
    ),
    (
        "label_column_in_drop_columns",  # said "no column(s) ['label']", listing the columns without it
        lambda t: _csv_entry(_write(t, "d.csv", GOOD_CSV), preprocess={"standardize": False, "drop_columns": ["label"]}),
        r"preprocess\.drop_columns: 'label' is the label column \(datasets\.bad\.label\.column\), never a feature",
        "datasets.bad.preprocess.drop_columns",
    ),
    (
        "npz_file_with_format_csv",  # said "is a zip archive; set read.member"
        lambda t: {**_npz_entry(t, X=np.ones((3, 2)), y=np.array([0, 0, 1])), "format": "csv"},
        r"d\.npz: is a NumPy \.npz archive \(arrays \['X', 'y'\]\), not text; set datasets\.bad\.format: npz",
        "datasets.bad.format",
    ),
    (
        "npz_without_feature_array",
        lambda t: _npz_entry(t, features=np.ones((3, 2)), y=np.array([0, 0, 1])),
        r"no array 'X' \(datasets\.bad\.read\.features_key\)",
        "d.npz",
    ),
]


def _write_bytes(tmp: Path, name: str, data: bytes) -> Path:
    p = tmp / name
    p.write_bytes(data)
    return p


def _mkdir(tmp: Path, name: str) -> Path:
    p = tmp / name
    p.mkdir()
    return p


def _symlink_loop(tmp: Path, name: str) -> Path:
    p = tmp / name
    p.symlink_to(tmp / f"{name}.other")
    (tmp / f"{name}.other").symlink_to(p)
    return p


def _npz_entry(tmp: Path, **arrays) -> dict:
    p = tmp / "d.npz"
    np.savez(p, **arrays)
    return {"files": [{"path": str(p)}], "format": "npz", "label": {"column": "y", "anomaly_values": [1]}}


PENDING_FIX: set[str] = set()  # cases waiting for a fix (xfail, strict)


def _data_params():
    for c in DATA_CASES:
        marks = [pytest.mark.xfail(strict=True, reason="data layer check pending")] if c[0] in PENDING_FIX else []
        yield pytest.param(*c, id=c[0], marks=marks)


@pytest.mark.parametrize("case, build, expected, names", list(_data_params()))
def test_bad_data_fails_in_prepare_with_clear_message_and_no_output(tmp_path, case, build, expected, names):
    if "npz" in case and not THYROID.is_file():
        pytest.skip("dataset mirror not available")
    raw = tmp_path / "raw"
    raw.mkdir()
    entry = build(raw)
    out = tmp_path / "results" / "data"
    with pytest.raises(Exception) as exc:
        _run_script(
            "prepare.py",
            input=[f["path"] for f in entry["files"]],
            output={"parquet": str(out / "bad.parquet"), "provenance": str(out / "bad.json")},
            params={"entry": entry, "seed": 1},
            wildcards={"dataset": "bad"},
            log=tmp_path / "results" / "logs" / "prepare" / "bad.log",
        )
    msg = str(exc.value)
    assert names in msg, f"{case}: the message does not name {names!r}: {msg}"
    assert re.search(expected, msg, flags=re.IGNORECASE | re.S), f"{case}: unexpected message: {msg}"
    # every case reads a local file: the fix is the file (or its sha256), never a re-download
    assert "fetched again" not in msg, f"{case}: re-download advice for a local file: {msg}"
    left = sorted(p.name for p in out.iterdir()) if out.exists() else []
    assert left == [], f"{case}: partial output left behind: {left}"
    # the log has the traceback, for the user who only sees "error in rule prepare"
    assert "job failed" in (tmp_path / "results" / "logs" / "prepare" / "bad.log").read_text()


def test_good_csv_passes_the_same_path(tmp_path):
    """Control: the same harness with a good file writes both outputs."""
    raw = tmp_path / "raw"
    raw.mkdir()
    entry = _csv_entry(_write(raw, "d.csv", GOOD_CSV))
    out = tmp_path / "results" / "data"
    _run_script(
        "prepare.py",
        input=[entry["files"][0]["path"]],
        output={"parquet": str(out / "ok.parquet"), "provenance": str(out / "ok.json")},
        params={"entry": entry, "seed": 1},
        wildcards={"dataset": "ok"},
        log=tmp_path / "log.txt",
    )
    assert sorted(p.name for p in out.iterdir()) == ["ok.json", "ok.parquet"]


# ============================================================================ raw-file (download) cases
def _download(tmp: Path, mirror: str | None, relpath: str, sha256: str | None):
    dest = tmp / "resources" / "raw" / relpath
    _run_script(
        "download.py",
        output={"out": str(dest)},
        params={"url": "https://example.invalid/never-used", "sha256": sha256},
        wildcards={"relpath": relpath},
        log=tmp / "logs" / "download.log",
        config={"data_mirror": mirror},
    )
    return dest


def test_missing_mirror_directory(tmp_path):
    from privanomaly.datasets import DataError

    with pytest.raises(DataError) as exc:
        _download(tmp_path, str(tmp_path / "no-such-mirror"), "thyroid/38_thyroid.npz", None)
    msg = str(exc.value)
    assert msg.startswith("data_mirror: directory ") and "no-such-mirror" in msg and "does not exist" in msg
    assert not (tmp_path / "resources" / "raw" / "thyroid").exists() or not any(
        (tmp_path / "resources" / "raw" / "thyroid").iterdir()
    )


def test_sha256_mismatch_on_copy_keeps_nothing(tmp_path):
    from privanomaly.datasets import ChecksumError

    mirror = tmp_path / "mirror"
    (mirror / "x").mkdir(parents=True)
    (mirror / "x" / "f.csv").write_text(GOOD_CSV)
    with pytest.raises(ChecksumError) as exc:
        _download(tmp_path, str(mirror), "x/f.csv", "ab" * 32)
    msg = str(exc.value)
    assert "x/f.csv" in msg and re.search(r"sha256 mismatch — expected (ab){32}, got [0-9a-f]{64}", msg)
    d = tmp_path / "resources" / "raw" / "x"
    assert sorted(p.name for p in d.iterdir()) == []  # neither the file nor a temporary copy


def test_file_missing_from_mirror(tmp_path):
    from privanomaly.datasets import DataError

    (tmp_path / "mirror").mkdir()
    with pytest.raises(DataError, match=r"x/f\.csv: not found in data_mirror"):
        _download(tmp_path, str(tmp_path / "mirror"), "x/f.csv", None)


# ============================================================================ end to end (slow)
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))

DRY_RUN_CASES = [
    (
        "unknown_dataset",
        {"paper_b": {"scenario1": {"datasets": ["synthetic_b1", "nosuch"]}}},
        None,
        r"paper_b\.scenario1\.datasets\[1\]: 'nosuch' (is not|unknown)",
    ),
    ("missing_mirror", {}, "/nonexistent/mirror", r"data_mirror: directory '/nonexistent/mirror' does not exist"),
    (
        "empty_eps_grid",
        {"paper_a": {"eps_grid": []}},
        None,
        r"config key paper_a\.eps_grid \(.*overlay\.yaml:\d+\): \[\] should be non-empty",
    ),
    # the Snakefile's own check re-reads the config files strictly
    ("duplicate_key", "seed: 1\nseed: 2\n", None, r"overlay\.yaml:2: duplicate key 'seed' \(first given at line 1\)"),
    # a mirror file replaced by a directory stops the run naming it (it used to drop Adult silently)
    ("mirror_file_is_a_directory", {}, "broken_adult", r"datasets\.adult\.files\[0\]: data_mirror: .*/adult/adult\.data is a directory"),
]


def _mirror_with_broken_adult(tmp: Path) -> Path:
    """A copy of the mirror (symlinks) whose adult/adult.data is a directory."""
    mirror = tmp / "mirror"
    mirror.mkdir()
    for d in MIRROR.iterdir():
        if d.name != "adult":
            (mirror / d.name).symlink_to(d)
    (mirror / "adult" / "adult.data").mkdir(parents=True)
    return mirror


@pytest.mark.mirror
@pytest.mark.slow
@pytest.mark.parametrize("case, overlay, mirror, expected", DRY_RUN_CASES, ids=[c[0] for c in DRY_RUN_CASES])
def test_dry_run_fails_before_any_job(tmp_path, case, overlay, mirror, expected):
    over = tmp_path / "overlay.yaml"
    over.write_text(overlay if isinstance(overlay, str) else yaml.safe_dump(overlay))
    if mirror == "broken_adult":
        mirror = str(_mirror_with_broken_adult(tmp_path))
    proc = subprocess.run(
        [
            SNAKEMAKE,
            "-n",
            "--nolock",
            "--configfile",
            ".test/config.yaml",
            str(over),
            "--config",
            f"data_mirror={mirror or MIRROR}",
            f"results_dir={tmp_path / 'results'}",
            f"resources_dir={tmp_path / 'resources'}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"{case}: the dry run did not fail"
    assert re.search(expected, out), f"{case}: expected {expected!r} in:\n{out[-3000:]}"
    assert not (tmp_path / "results").exists() and not (tmp_path / "resources").exists()


# ============================================================================ unreadable is never "absent"
def _broken(kind: str, p: Path) -> None:
    """Put something unreadable at ``p`` (the mirror's or the raw cache's file)."""
    p.parent.mkdir(parents=True, exist_ok=True)
    if kind == "directory":
        p.mkdir()
    elif kind == "symlink_loop":
        p.symlink_to(p.with_name(p.name + ".b"))
        p.with_name(p.name + ".b").symlink_to(p)
    elif kind == "dangling_symlink":
        p.symlink_to(p.with_name("nowhere"))
    elif kind == "path_through_a_file":  # <mirror>/adult is a file, so <mirror>/adult/adult.data cannot exist
        p.parent.rmdir()
        p.parent.write_text("not a directory")
    elif kind == "permission_denied":
        p.write_text("x")
        p.chmod(0)
    else:
        raise ValueError(kind)


UNREADABLE = [
    ("directory", r"is a directory, not a file"),
    ("symlink_loop", r"exists but cannot be read \(Too many levels of symbolic links\)"),
    ("dangling_symlink", r"is a symbolic link to .*nowhere.*which does not exist"),
    ("path_through_a_file", r"exists but cannot be read \(Not a directory\)"),
    ("permission_denied", r"exists but cannot be read \(Permission denied\)"),
]
ADULT_FILES = [{"path": "adult/adult.data", "url": "https://example.invalid/adult.data"}]


def _skip_if_root(kind: str) -> None:
    import os

    if kind == "permission_denied" and os.geteuid() == 0:
        pytest.skip("root reads any file: permission denied cannot be produced")


@pytest.mark.parametrize("where", ["mirror", "raw_cache"])
@pytest.mark.parametrize("kind, expected", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_unreadable_file_is_an_error_naming_it_never_unavailable(tmp_path, kind, expected, where):
    from privanomaly.datasets import DataError, availability

    _skip_if_root(kind)
    mirror, resources = tmp_path / "mirror", tmp_path / "resources"
    mirror.mkdir()
    bad = (mirror if where == "mirror" else resources / "raw") / "adult" / "adult.data"
    _broken(kind, bad)
    with pytest.raises(DataError) as exc:
        availability(ADULT_FILES, str(mirror), str(resources), where="datasets.adult.")
    msg = str(exc.value)
    assert msg.startswith("datasets.adult.files[0]: "), msg
    assert str(bad) in msg and re.search(expected, msg), msg
    assert not (resources / "raw" / "adult" / "adult.data").is_file()


def test_only_a_genuinely_absent_file_is_unavailable(tmp_path):
    from privanomaly.datasets import availability

    (tmp_path / "mirror").mkdir()
    ok, why = availability(ADULT_FILES, str(tmp_path / "mirror"), str(tmp_path / "resources"))
    assert not ok and "not in mirror" in why
    local = [{"path": str(tmp_path / "mine.csv")}]
    from privanomaly.datasets import DataError

    # a local file (no url) cannot be fetched: its absence is an error, not an unavailable dataset
    with pytest.raises(DataError, match=r"local data file .*mine\.csv does not exist .*no url"):
        availability(local, None, str(tmp_path / "resources"))
    _broken("directory", tmp_path / "mine.csv")

    with pytest.raises(DataError, match=r"local data file: .*mine\.csv is a directory"):
        availability(local, None, str(tmp_path / "resources"))


@pytest.mark.parametrize("kind, expected", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_download_rule_refuses_an_unreadable_mirror_file(tmp_path, kind, expected):
    from privanomaly.datasets import DataError

    _skip_if_root(kind)
    mirror = tmp_path / "mirror"
    _broken(kind, mirror / "x" / "f.csv")
    with pytest.raises(DataError) as exc:
        _download(tmp_path, str(mirror), "x/f.csv", None)
    assert re.search(expected, str(exc.value)) and "x/f.csv" in str(exc.value)
    d = tmp_path / "resources" / "raw" / "x"
    assert not d.exists() or sorted(p.name for p in d.iterdir()) == []


# ============================================================================ config says where
def _configcheck(tmp_path: Path, text: str | None, extra: dict | None = None) -> str:
    """Run the Snakefile's config check on config.yaml + one overlay file; return the error message."""
    from privanomaly.config.check import ConfigError, check_config, merged_config

    over = tmp_path / "overlay.yaml"
    if text is not None:
        over.write_text(text)
    files = [str(ROOT / "config.yaml"), str(over)]
    with pytest.raises(ConfigError) as exc:
        cfg = merged_config(files)
        for path, value in (extra or {}).items():  # like --config key=value (not in any file)
            _set(cfg, path, value)
        check_config(cfg, SCHEMA, files)
    return str(exc.value)


CONFIG_FILE_CASES = [
    ("yaml_syntax_error", "seed: 1\npaper_a:\n  k_grid: [1, 2\n", r"overlay\.yaml:4:1: YAML syntax error: .*expected ',' or ']'"),
    ("tab_indentation", "paper_a:\n\tk_main: 2\n", r"overlay\.yaml:2:1: YAML syntax error: .*a tab character: YAML indents with spaces only"),
    ("empty_overlay", "", r"overlay\.yaml:1: the config file is empty \(no keys\)"),
    ("comment_only_overlay", "# nothing here\n", r"overlay\.yaml:1: the config file is empty"),
    ("top_level_list", "- seed\n", r"overlay\.yaml:1: the top level must be `key: value` lines"),
    ("duplicate_key", "seed: 1\nresults_dir: r\nseed: 2\n", r"overlay\.yaml:3: duplicate key 'seed' \(first given at line 1\)"),
    (
        "duplicate_nested_key",
        "paper_a:\n  k_main: 2\n  n_trials: 5\n  k_main: 3\n",
        r"overlay\.yaml:4: duplicate key 'k_main' \(first given at line 2\)",
    ),
    (
        "misspelt_key",
        "datasets:\n  thyroid:\n    preprocess:\n      pcaa: 3\n",
        r"^invalid configuration:\n  config key datasets\.thyroid\.preprocess\.pcaa \(.*overlay\.yaml:4\): unknown key 'pcaa'",
    ),
    (
        "n_trials_too_large_in_file",
        "paper_a:\n  n_trials: 1000000000000\n",
        r"config key paper_a\.n_trials \(.*overlay\.yaml:2\): 1000000000000 is greater than the maximum of 100000",
    ),
    (
        "fig4_center_too_long",
        "paper_a:\n  fig4:\n    center: [5, 5, 5, 5, 5, 5, 5, 5]\n",
        r"config key paper_a\.fig4\.center: .*length 8 = \|X\|.*more than the 1,000,000 Figure 4 can enumerate",
    ),
]


@pytest.mark.parametrize("case, text, expected", CONFIG_FILE_CASES, ids=[c[0] for c in CONFIG_FILE_CASES])
def test_config_file_error_names_file_line_or_key(tmp_path, case, text, expected):
    msg = _configcheck(tmp_path, text)
    assert re.search(expected, msg, flags=re.S), f"{case}: {msg}"
    assert "Failed validating" not in msg and "On instance" not in msg  # no schema dump
    assert len(msg) < 800, f"{case}: message too long ({len(msg)} chars)"


@pytest.mark.parametrize(
    "path",
    [("paper_a", "n_trials"), ("paper_b", "scenario2", "n_trials")],
    ids=["paper_a.n_trials", "paper_b.scenario2.n_trials"],
)
def test_huge_trial_count_from_the_command_line_names_the_key(tmp_path, path):
    # `--config paper_a='{n_trials: 1e12}'` gives the float 1e12 (an "integer" for JSON schema)
    msg = _configcheck(tmp_path, "seed: 1\n", extra={path: 1e12})
    key = ".".join(path)
    assert f"config key {key} (--config): 1000000000000.0 is greater than the maximum of 100000" in msg, msg


@pytest.mark.subprocess
def test_config_check_command_line_names_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: [1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "privanomaly.config.check", "--configfile", str(bad)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"privanomaly: {bad}:2:1: YAML syntax error"), proc.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "privanomaly.config.check", "--configfile", str(ROOT / ".test" / "config.yaml")],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr


# ============================================================================ empty tables get a note
def test_paper_a_table2_with_only_unavailable_datasets_writes_noted_rows(tmp_path):
    out = tmp_path / "tables"
    _run_script(  # the generic table rule (workflow/rules/report.smk) running Table 2's registered function
        "render.py",
        input={"summaries": []},
        output={"csv": str(out / "table2.csv"), "md": str(out / "table2.md")},
        params={
            "kind": "table",
            "function": "paper_a.table2",
            "plot_params": {
                "eps_ref": 1.0,
                "k_main": 1,
                "missing": ["creditcard", "aps"],
                "mechanisms": BASE["paper_a"]["mechanisms"]["errors"],
            },
            "stand_in": {},
        },
        wildcards={},
        log=tmp_path / "log.txt",
    )
    import pandas as pd

    df = pd.read_csv(out / "table2.csv")
    assert df["dataset"].tolist() == ["creditcard", "aps"]
    assert (df["note"] == "not available offline (not mirrored); no numbers reported").all()
    assert len(df.columns) > 4 and df.drop(columns=["dataset", "note"]).isna().all().all()
    assert sorted(p.name for p in out.iterdir()) == ["table2.csv", "table2.md"]


def test_troubleshooting_lists_every_case_with_its_fix():
    """docs/troubleshooting.md has a row for each data and config-file case (its name in backquotes)."""
    doc = (ROOT / "docs" / "troubleshooting.md").read_text(encoding="utf-8")
    cases = [c[0] for c in DATA_CASES] + [c[0] for c in CONFIG_FILE_CASES]
    missing = [c for c in cases if f"`{c}`" not in doc]
    assert missing == [], f"docs/troubleshooting.md does not list: {missing}"
    for heading in ("## Two runs at once", "## The README gallery", "cannot be read is an error, never"):
        assert heading in doc
