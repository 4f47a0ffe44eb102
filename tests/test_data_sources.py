"""Raw files: mirror copy and download are sha256-checked and atomic; clear errors; availability rules."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml

from privanomaly.datasets import ChecksumError, DataError, sources

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())

PAYLOAD = b"1,2,3\n4,5,6\n"
PAYLOAD_SHA = hashlib.sha256(PAYLOAD).hexdigest()


@pytest.fixture
def mirror(tmp_path):
    root = tmp_path / "mirror"
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "a.csv").write_bytes(PAYLOAD)
    return root


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


def test_copy_from_mirror_verifies_and_writes(mirror, tmp_path):
    dest = tmp_path / "raw" / "demo" / "a.csv"
    info = sources.fetch("demo/a.csv", dest, url="https://example.invalid/a.csv", sha256=PAYLOAD_SHA, mirror=mirror)
    assert dest.read_bytes() == PAYLOAD
    assert info["sha256"] == PAYLOAD_SHA and info["bytes"] == len(PAYLOAD)
    assert info["origin"] == str(mirror / "demo" / "a.csv")
    assert leftovers(dest.parent) == ["a.csv"]  # no temp file


def test_checksum_mismatch_from_mirror_raises_and_leaves_nothing(mirror, tmp_path):
    dest = tmp_path / "raw" / "demo" / "a.csv"
    wrong = "0" * 64
    with pytest.raises(ChecksumError) as err:
        sources.fetch("demo/a.csv", dest, url=None, sha256=wrong, mirror=mirror)
    msg = str(err.value)
    assert f"expected {wrong}" in msg and f"got {PAYLOAD_SHA}" in msg and "demo/a.csv" in msg
    assert msg.endswith("the file was not kept")
    assert not dest.exists()
    assert leftovers(dest.parent) == []  # not even a temp file


def test_download_url_verifies_and_is_atomic(tmp_path):
    src = tmp_path / "served.csv"
    src.write_bytes(PAYLOAD)
    dest = tmp_path / "raw" / "served.csv"
    info = sources.fetch("served.csv", dest, url=src.as_uri(), sha256=PAYLOAD_SHA, mirror=None)
    assert dest.read_bytes() == PAYLOAD and info["origin"] == src.as_uri()


def test_download_checksum_mismatch_raises_and_leaves_nothing(tmp_path):
    src = tmp_path / "served.csv"
    src.write_bytes(PAYLOAD + b"tampered\n")
    dest = tmp_path / "raw" / "served.csv"
    with pytest.raises(ChecksumError, match=f"expected {PAYLOAD_SHA}, got [0-9a-f]{{64}}"):
        sources.download_url(src.as_uri(), dest, PAYLOAD_SHA)
    assert not dest.exists() and leftovers(dest.parent) == []


def test_download_failure_is_a_clear_error(tmp_path):
    dest = tmp_path / "raw" / "x.csv"
    with pytest.raises(DataError, match="download failed"):
        sources.download_url((tmp_path / "absent.csv").as_uri(), dest, PAYLOAD_SHA)
    assert not dest.exists()


def test_missing_mirror_directory_is_a_clear_error(tmp_path):
    absent = tmp_path / "no-such-mirror"
    with pytest.raises(DataError, match=r"data_mirror: directory .*no-such-mirror.* does not exist"):
        sources.fetch("demo/a.csv", tmp_path / "out.csv", url=None, sha256=PAYLOAD_SHA, mirror=absent)
    assert not (tmp_path / "out.csv").exists()


def test_file_missing_in_mirror_is_a_clear_error(mirror, tmp_path):
    with pytest.raises(DataError, match="demo/b.csv: not found in data_mirror"):
        sources.fetch("demo/b.csv", tmp_path / "out.csv", url=None, sha256=None, mirror=mirror)


def test_no_url_and_no_mirror_is_a_clear_error(tmp_path):
    with pytest.raises(DataError, match="no url configured and data_mirror is null"):
        sources.fetch("demo/a.csv", tmp_path / "out.csv", url=None, sha256=None, mirror=None)


def test_availability_rules(mirror, tmp_path):
    res = str(tmp_path / "resources")
    in_mirror = [{"path": "demo/a.csv", "url": "https://example.invalid/a.csv"}]
    not_mirrored = [{"path": "demo/big.csv", "url": "https://example.invalid/big.csv"}]
    assert sources.availability(in_mirror, str(mirror), res) == (True, "")
    ok, why = sources.availability(not_mirrored, str(mirror), res)
    assert not ok
    assert why == (
        f"not in mirror {mirror} and not cached; skipped — run with internet (data_mirror: null) to include it"
    )
    assert sources.availability(not_mirrored, None, res) == (True, "")  # no mirror: attempt the download
    cached = Path(res) / "raw" / "demo" / "big.csv"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(PAYLOAD)
    assert sources.availability(not_mirrored, str(mirror), res) == (True, "")  # already in the raw cache
    with pytest.raises(sources.DataError, match=r"local data file .*nope\.csv does not exist"):
        sources.availability([{"path": str(tmp_path / "nope.csv")}], None, res)


def test_raw_path_layout():
    assert sources.raw_path({"path": "thyroid/38_thyroid.npz", "url": "https://x"}, "resources") == (
        "resources/raw/thyroid/38_thyroid.npz"
    )
    assert sources.raw_path({"path": "/data/mine.csv"}, "resources") == "/data/mine.csv"


@pytest.mark.mirror
def test_every_mirrored_config_file_has_the_configured_sha256():
    """The sha256 pinned in config.yaml is the one of the mirrored file (MANIFEST.md) for every mirrored entry."""
    checked = set()
    for name, entry in CONFIG["datasets"].items():
        for spec in entry.get("files", []):
            f = MIRROR / spec["path"]
            if f.is_file():
                assert sources.sha256_file(f) == spec["sha256"], name
                checked.add(spec["path"])
    assert checked == {
        "thyroid/38_thyroid.npz",
        "mammography/23_mammography.npz",
        "ionosphere/ionosphere.data",
        "adult/adult.data",
    }


def test_unmirrored_entries_pin_the_manifest_hashes():
    files = {n: e["files"][0] for n, e in CONFIG["datasets"].items() if "files" in e}
    assert files["creditcard"]["sha256"] == "76274b691b16a6c49d3f159c883398e03ccd6d1ee12d9d8ee38f4b4b98551a89"
    assert files["aps"]["sha256"] == "5504d0402f54faaf97ac0ca085a621645763f5cfea2eb29c592b057d43d4db89"
    assert files["creditcard"]["url"].startswith("https://storage.googleapis.com/download.tensorflow.org/")
    assert files["aps"]["url"] == "https://archive.ics.uci.edu/static/public/421/aps+failure+at+scania+trucks.zip"


def _serve_once(body: bytes, announced: int) -> str:
    """A one-request HTTP server on localhost that announces ``announced`` bytes, sends ``body`` and hangs up."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        conn, _ = srv.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % announced + body)
        conn.close()
        srv.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{srv.getsockname()[1]}/served.csv"


def test_download_cut_short_is_refused_even_without_a_sha256(tmp_path):
    """A connection closed early ends the body without an error: a file without a pinned sha256 would be kept."""
    dest = tmp_path / "raw" / "served.csv"
    url = _serve_once(PAYLOAD[:10], announced=len(PAYLOAD))
    with pytest.raises(DataError, match=re.escape(f"{url}: download incomplete (10 of {len(PAYLOAD)} bytes")):
        sources.download_url(url, dest, None, timeout=10)
    assert not dest.exists() and leftovers(dest.parent) == []


def test_download_of_the_announced_length_is_kept(tmp_path):
    dest = tmp_path / "raw" / "served.csv"
    sources.download_url(_serve_once(PAYLOAD, announced=len(PAYLOAD)), dest, None, timeout=10)
    assert dest.read_bytes() == PAYLOAD
