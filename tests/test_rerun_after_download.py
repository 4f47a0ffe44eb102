"""A run whose raw file is fetched again (the download rule's params or code changed) still builds every output
it was asked for. Snakemake (9.27) drops a job whose ``ancient`` input's producer reruns, even when the job's own
output is missing (snakemake/snakemake#4166); rule prepare marked its raw files ancient, so such a run fetched the
file, skipped prepare and ended with exit 0 and "100% done" without the prepared table - after an update of the
code with results/ deleted, ``make reproduce`` ran the downloads and nothing else. Marked slow (runs Snakemake).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from workflow_copy import MIRROR, RESULTS, SNAKEMAKE, clone, env_for

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

TABLE = f"{RESULTS}/data/thyroid.parquet"
# the same file under another canonical URL: rule download's param url changes, the bytes (sha256) do not
MOVED = ("datasets:\n  thyroid:\n    files:\n      - path: thyroid/38_thyroid.npz\n"
         "        url: https://example.org/moved/38_thyroid.npz\n"
         "        sha256: 8de161b3f235b7647bb0b39a836d983ff61d67bf234edac461da2d71e889cb87\n")


def _snakemake(copy: Path, *args: str, overlay: Path | None = None) -> str:
    cmd = [SNAKEMAKE, *args, "--cores", "1", "--configfile", ".test/config.yaml",
           *([str(overlay)] if overlay else []), "--config", f"data_mirror={MIRROR}"]
    proc = subprocess.run(cmd, cwd=copy, env=env_for(copy), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout + proc.stderr


def test_a_missing_table_is_built_in_the_run_that_fetches_its_raw_file_again(tmp_path, dag_run):
    copy = clone(dag_run.copy, tmp_path / "wf")  # a finished run (the whole .test DAG's, thyroid's table built)
    assert "Nothing to be done" in _snakemake(copy, TABLE, "-n")
    for ext in ("parquet", "json"):
        (copy / RESULTS / "data" / f"thyroid.{ext}").unlink()
    overlay = tmp_path / "moved.yaml"
    overlay.write_text(MOVED)
    log = _snakemake(copy, TABLE, overlay=overlay)
    assert "rule download" in log  # the file was fetched again (params changed) ...
    assert (copy / TABLE).is_file() and (copy / RESULTS / "data" / "thyroid.json").is_file(), log[-3000:]  # ... and prepared
    # with the table there, the raw file is ancient again: the same bytes with a new mtime rerun nothing
    raw = copy / "resources" / "raw" / "thyroid" / "38_thyroid.npz"
    st = raw.stat()
    os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns + 10**12))
    assert "Nothing to be done" in _snakemake(copy, TABLE, "-n", overlay=overlay)
