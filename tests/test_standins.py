"""Stand-ins of credit card and APS: the real format, read by the real loader with the real config.

Files are written at a small size here (the real sizes take ~30 s and are exercised by `make scale`).
"""

from __future__ import annotations

import copy
import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from privanomaly.datasets import build, loaders, sha256_file, standins
from privanomaly.datasets.validation import ChecksumError

ROOT = Path(__file__).resolve().parents[1]
SEED = 20191111


def real_entry(name: str, path: Path) -> dict:
    """config.yaml's entry for ``name``, with only the sha256 pointed at ``path`` (as .scale/config.yaml does)."""
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    entry = copy.deepcopy(cfg["datasets"][name])
    entry["files"][0]["sha256"] = sha256_file(path)
    return entry


def test_creditcard_format(tmp_path):
    path = tmp_path / "creditcard.csv"
    standins.write_creditcard(path, SEED, n=3000, n_fraud=7)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == ",".join(f'"{c}"' for c in ["Time", *[f"V{i}" for i in range(1, 29)], "Amount", "Class"])
    assert lines[-1] == "" and len(lines) == 3002  # header + rows + final newline
    fields = [line.split(",") for line in lines[1:-1]]
    assert all(len(f) == 31 for f in fields)
    assert sum(f[-1] == '"1"' for f in fields) == 7 and all(f[-1] in ('"0"', '"1"') for f in fields)
    times = [int(f[0]) for f in fields]  # integer seconds, sorted, ending at the last second of two days
    assert times == sorted(times) and times[-1] == standins.CREDITCARD_SECONDS
    amounts = np.array([float(f[-2]) for f in fields])
    assert (amounts >= 0).all() and np.allclose(amounts, np.round(amounts, 2)) and amounts.max() > 200


@pytest.mark.slow
def test_creditcard_real_loader_and_preprocessing(tmp_path):
    path = tmp_path / "creditcard.csv"
    standins.write_creditcard(path, SEED, n=3000, n_fraud=7)
    table, prov = build("creditcard", real_entry("creditcard", path), [str(path)], SEED)
    assert table.shape == (3000, 7)  # PCA 6 + label, as config.yaml asks
    assert int(table["label"].sum()) == 7
    assert prov["raw_columns"] == 30


def test_standins_are_reproducible_and_seeded(tmp_path):
    a, b, c = tmp_path / "a.zip", tmp_path / "b.zip", tmp_path / "c.zip"
    standins.write_aps_zip(a, SEED, n=400, n_pos=10)
    standins.write_aps_zip(b, SEED, n=400, n_pos=10)
    standins.write_aps_zip(c, SEED + 1, n=400, n_pos=10)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


@pytest.mark.slow
def test_aps_format(tmp_path):
    path = tmp_path / "aps.zip"
    standins.write_aps_zip(path, SEED, n=2000, n_pos=40)
    with zipfile.ZipFile(path) as zf:
        assert set(zf.namelist()) == {standins.APS_MEMBER, standins.APS_TEST_MEMBER}
        text = zf.read(standins.APS_MEMBER).decode("utf-8")
    lines = text.split("\n")
    assert "STAND-IN" in lines[0]
    header = lines[standins.APS_PREAMBLE_LINES]
    assert header.startswith("class,aa_000,") and len(header.split(",")) == 171
    assert not any(line.startswith("class,") for line in lines[: standins.APS_PREAMBLE_LINES])
    df = pd.read_csv(io.StringIO("\n".join(lines[standins.APS_PREAMBLE_LINES:])), dtype=str, keep_default_na=False)
    assert df.shape == (2000, 171) and (df["class"] == "pos").sum() == 40
    assert set(df["class"]) == {"pos", "neg"}
    na_share = (df == "na").mean()
    assert na_share["aa_000"] == 0
    assert all(na_share[c] > 0.5 for c in standins.APS_MOSTLY_NA)  # several attributes mostly `na`
    assert (na_share > 0).sum() > 150  # `na` cells scattered everywhere else
    values = df.drop(columns="class").replace("na", np.nan).astype(float)
    assert (values.fillna(0) >= 0).all().all() and (values.fillna(0) % 1 == 0).all().all()
    assert values[standins.APS_CONSTANT].nunique() == 1


# The header of the real aps_failure_{training,test}_set.csv (UCI 421), as public loaders of the data list it:
# single counters are xx_000 except the irregular `am_0` and `ec_00`; seven 10-bin histograms.
APS_REAL_HEADER = (
    "class,aa_000,ab_000,ac_000,ad_000,ae_000,af_000,"
    + ",".join(f"ag_{i:03d}" for i in range(10))
    + ",ah_000,ai_000,aj_000,ak_000,al_000,am_0,an_000,ao_000,ap_000,aq_000,ar_000,as_000,at_000,au_000,av_000,"
    "ax_000," + ",".join(f"{h}_{i:03d}" for h in ("ay", "az", "ba") for i in range(10))
    + ",bb_000,bc_000,bd_000,be_000,bf_000,bg_000,bh_000,bi_000,bj_000,bk_000,bl_000,bm_000,bn_000,bo_000,bp_000,"
    "bq_000,br_000,bs_000,bt_000,bu_000,bv_000,bx_000,by_000,bz_000,ca_000,cb_000,cc_000,cd_000,ce_000,cf_000,"
    "cg_000,ch_000,ci_000,cj_000,ck_000,cl_000,cm_000," + ",".join(f"cn_{i:03d}" for i in range(10))
    + ",co_000,cp_000,cq_000,cr_000," + ",".join(f"cs_{i:03d}" for i in range(10))
    + ",ct_000,cu_000,cv_000,cx_000,cy_000,cz_000,da_000,db_000,dc_000,dd_000,de_000,df_000,dg_000,dh_000,di_000,"
    "dj_000,dk_000,dl_000,dm_000,dn_000,do_000,dp_000,dq_000,dr_000,ds_000,dt_000,du_000,dv_000,dx_000,dy_000,"
    "dz_000,ea_000,eb_000,ec_00,ed_000," + ",".join(f"ee_{i:03d}" for i in range(10)) + ",ef_000,eg_000"
)


def test_aps_header_is_the_real_one(tmp_path):
    """Same columns as the real file, in its order and spelling (``am_0``, ``ec_00``), in both members."""
    assert len(APS_REAL_HEADER.split(",")) == 171
    path = tmp_path / "aps.zip"
    standins.write_aps_zip(path, SEED, n=50, n_pos=2)
    with zipfile.ZipFile(path) as zf:
        for member in (standins.APS_MEMBER, standins.APS_TEST_MEMBER):
            lines = zf.read(member).decode("utf-8").split("\n")
            assert lines[standins.APS_PREAMBLE_LINES] == APS_REAL_HEADER, member
    assert ",".join(["class", *standins.aps_attribute_names()]) == APS_REAL_HEADER


@pytest.mark.slow
def test_aps_real_loader_and_preprocessing(tmp_path):
    path = tmp_path / "aps+failure+at+scania+trucks.zip"
    standins.write_aps_zip(path, SEED, n=2000, n_pos=40)
    entry = real_entry("aps", path)
    raw = loaders.load_table(path, entry["format"], entry["read"], entry["label"]["column"])
    assert raw.shape == (2000, 171) and raw.attrs["preamble_lines"] == standins.APS_PREAMBLE_LINES
    table, prov = build("aps", entry, [str(path)], SEED)
    assert table.shape == (2000, 7) and int(table["label"].sum()) == 40
    steps = {s["step"]: s for s in prov["steps"]}
    assert steps["missing"]["missing_cells"] > 0
    assert standins.APS_CONSTANT in steps["standardize"]["constant_columns_set_to_0"]


def test_real_sha256_refuses_a_standin(tmp_path):
    """A stand-in can never pass as the real file: config.yaml's sha256 rejects it."""
    path = tmp_path / "creditcard.csv"
    standins.write_creditcard(path, SEED, n=500, n_fraud=3)
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    with pytest.raises(ChecksumError, match="sha256 mismatch"):
        build("creditcard", cfg["datasets"]["creditcard"], [str(path)], SEED)


def test_scale_overlay_changes_only_the_sha256():
    """.scale/config.yaml keeps the real path and URL of each stand-in file; only its sha256 differs."""
    cfg = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    scale = yaml.safe_load((ROOT / ".scale" / "config.yaml").read_text(encoding="utf-8"))
    for name, entry in scale["datasets"].items():
        assert set(entry) == {"files", "stand_in"}
        real, stand = cfg["datasets"][name]["files"][0], entry["files"][0]
        assert stand["path"] == real["path"] and stand["url"] == real["url"] and stand["sha256"] != real["sha256"]
        assert "stand-in data" in entry["stand_in"]["note"]
    assert not scale["results_dir"].startswith("results") and not scale["resources_dir"].startswith("resources")


def test_isolation_refuses_normal_dirs():
    notes = {"creditcard": "stand-in data: x"}
    with pytest.raises(ValueError, match="results_dir"):
        standins.check_isolation(notes, "results", ".scale/resources")
    with pytest.raises(ValueError, match="resources_dir"):
        standins.check_isolation(notes, ".scale/results", "./resources")
    standins.check_isolation(notes, ".scale/results", ".scale/resources")
    standins.check_isolation({}, "results", "resources")


def test_annotate_and_figure_note():
    df = pd.DataFrame({"dataset": ["creditcard", "thyroid", "aps"], "note": ["PCA", "", None]})
    notes = {"creditcard": "stand-in data: cc", "aps": "stand-in data: aps"}
    out = standins.annotate(df, notes)
    assert out["note"].tolist() == ["PCA; stand-in data: cc", "", "stand-in data: aps"]
    assert standins.annotate(df, {}) is df
    assert "note" in standins.annotate(df.drop(columns="note"), notes).columns
    assert standins.figure_note(notes, ["thyroid"]) is None
    assert standins.figure_note(notes, ["thyroid", "aps"]).startswith("stand-in data: aps")


def test_unknown_generator(tmp_path):
    with pytest.raises(ValueError, match="unknown stand-in generator"):
        standins.write_standin("kdd", tmp_path / "x", SEED)


def test_isolation_refuses_normal_dirs_written_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    notes = {"aps": "stand-in data: x"}
    with pytest.raises(ValueError, match="results_dir"):
        standins.check_isolation(notes, str(tmp_path / "results"), ".scale/resources")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "res_link").symlink_to(tmp_path / "resources", target_is_directory=True)
    with pytest.raises(ValueError, match="resources_dir"):
        standins.check_isolation(notes, ".scale/results", "res_link")
    standins.check_isolation(notes, str(tmp_path / "elsewhere"), ".scale/resources")
