"""After one config value changes, ``snakemake`` reruns every job whose output depends on it and no other.

A Snakemake user trusts the params trigger: a rule's ``params:`` hold exactly what its script reads, so a
changed key reruns the jobs that read it (complete) and leaves the others alone (minimal). A param holding a
whole config section, or a global value standing in for a per-job one, reruns jobs that cannot depend on the
change - at full size hours of Algorithm 2 or of paper A's tables for a Figure-1 setting.

The tests read a clone of the whole ``.test`` DAG's run (tests/test_dag_run.py, made once per pytest command):
every job ran for real and Snakemake recorded its params (``--rerun-triggers`` compares against those records).
Each test dry-runs one overlay and compares the jobs Snakemake would run with the jobs that read the key.
Marked slow (reads a workflow run).
"""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from scope_checker import merged_config
from workflow_copy import MIRROR, RESULTS, SNAKEMAKE, clone, env_for

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

TRIGGERS = ["--rerun-triggers", "mtime", "params", "input", "code", "software-env"]
# every config change reruns these by design: they record the configuration itself
RECORDS = {"effective_config", "provenance"}


def _snakemake(copy: Path, *args: str, overlay: Path | None = None) -> str:
    cmd = [SNAKEMAKE, *args, "--configfile", ".test/config.yaml", *([str(overlay)] if overlay else []),
           "--config", f"data_mirror={MIRROR}"]
    proc = subprocess.run(cmd, cwd=copy, env=env_for(copy), capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory, dag_run) -> Path:
    """A clone of the whole .test DAG's run (tests/test_dag_run.py): every job run for real, its params recorded.
    Rule report_index reads the catalogue by its absolute path (the workflow's own file, also as a module), so in
    the clone's place its set of inputs differs: ``--touch`` records it there (no job runs)."""
    copy = clone(dag_run.copy, tmp_path_factory.mktemp("reruns") / "wf")
    touched = _snakemake(copy, "all", "--touch", "--cores", "1")
    assert set(re.findall(r"^(?:local)?rule (\w+):$", touched, re.M)) == {"report_index", "all"}, touched[-3000:]
    return copy


def jobs(copy: Path, change: dict | None, name: str = "overlay") -> dict[str, set[str]]:
    """{rule: {wildcards of each job}} that ``snakemake -n`` would run after ``change`` (an overlay)."""
    overlay = None
    if change is not None:
        overlay = copy / f"{name}.yaml"
        overlay.write_text(yaml.safe_dump(change), encoding="utf-8")
    log = _snakemake(copy, "all", "-n", *TRIGGERS, overlay=overlay)
    out: dict[str, set[str]] = defaultdict(set)
    rule = None
    for line in log.splitlines():
        m = re.match(r"(?:local)?rule (\w+):$", line.strip())
        if m:
            rule = m.group(1)
            out[rule].add("")
        elif rule and line.strip().startswith("wildcards:"):
            out[rule].discard("")
            out[rule].add(line.strip()[len("wildcards:"):].strip())
    out.pop("all", None)
    return dict(out)


def test_nothing_to_do_without_a_change(built):
    assert jobs(built, None) == {}


def test_a_figure_4_setting_reruns_figure_4_only_not_the_claims(built):
    """paper_a.fig4.* is read by Figure 4's data and plot; the claims never read it."""
    got = jobs(built, {"paper_a": {"fig4": {"beta": 2}}}, "fig4")
    assert set(got) - RECORDS == {"paper_a_fig4_data", "paper_a_fig4", "report_index"}


def test_the_selection_betas_do_not_rerun_figure_2s_selection(built):
    """Figures 2-3's dataset is selected over paper_a.fig2.betas, never paper_a.selection.betas."""
    got = jobs(built, {"paper_a": {"selection": {"betas": [2, 5, 10]}}}, "betas")
    assert got["paper_a_select"] == {"pa_dataset=synthetic_a", "pa_dataset=thyroid"}
    assert "paper_a_fig23_data" not in got and "paper_a_fig2" not in got
    # the fractions are read for every dataset, Figure 2's too
    got = jobs(built, {"paper_a": {"selection": {"fractions": [0.01, 0.05]}}}, "fractions")
    assert got["paper_a_select"] == {"pa_dataset=synthetic_a", "pa_dataset=thyroid", "pa_dataset=synthetic_a_2d"}


def test_figure_2s_eps_recomputes_figure_2s_records_only(built):
    """The record tables' count cap follows the smallest ε the table is used at: Figure 2's ε (below every
    other) caps Figure 2's records, never the tables' - Tables 1-3, the errors and the claims stay."""
    got = jobs(built, {"paper_a": {"fig2": {"eps": 0.1}}}, "fig2eps")
    assert got["paper_a_records"] == {"pa_dataset=synthetic_a_2d"}
    assert not {"paper_a_errors", "paper_a_detection", "paper_a_table2", "paper_a_table3"} & set(got)


def test_a_setting_of_one_smooth_bound_reruns_that_bounds_tables_only(built):
    """Scenario 1's tables: Algorithm 2 (method paper) reads its work guard - the dataset's own if set - the
    fast bound reads paper_b.fast_exact_max; the safety timeout fails a job but never changes a table."""
    got = jobs(built, {"paper_b": {"fast_exact_max": 4}}, "exactmax")
    assert got["paper_b_scenario1"] and all(w.endswith("pb_method=fast") for w in got["paper_b_scenario1"])
    got = jobs(built, {"paper_b": {"scenario1": {"max_work_by_dataset": {"adult_b1": 100}}}}, "guard")
    assert got["paper_b_scenario1"] == {"pb_reading=, pb_dataset=adult_b1, pb_method=paper"}
    got = jobs(built, {"paper_b": {"scenario1": {"timeout_seconds": 200}}}, "timeout")
    assert set(got) == RECORDS


def test_the_papers_printed_r_reruns_the_papers_r_reading_not_our_tuned_tables(built):
    """paper_b.paper_reported.r is the input of the paper's-r reading and a note of the comparison (our accuracy
    at it); our tuned r, and Algorithm 2, Scenario 2 and the timing at it, never read it."""
    got = jobs(built, {"paper_b": {"paper_reported": {"r": {"synthetic_b1": 1.0}}}}, "printedr")
    assert got["paper_b_paper_r"] == {"pb_dataset=synthetic_b1"} and "paper_b_comparison" in got
    assert not {"paper_b_tune_r", "paper_b_timing", "paper_b_timing_table", "privacy_price"} & set(got)
    assert got["paper_b_scenario1"] == {"pb_reading=paper_r/, pb_dataset=synthetic_b1, pb_method=fast"}


def test_a_datasets_description_reruns_nothing(built):
    """A dataset's description and homepage document it: its table, and every job after it, never read them."""
    got = jobs(built, {"datasets": {"thyroid": {"description": "the ODDS thyroid set", "homepage": "https://x.org"}}},
               "describe")
    assert set(got) == RECORDS
    # what makes the table does rerun it, and what reads it
    got = jobs(built, {"datasets": {"thyroid": {"preprocess": {"standardize": False}}}}, "standardize")
    assert got["prepare"] == {"dataset=thyroid"} and "paper_a_select" in got


def test_a_new_seed_reruns_the_tables_that_draw_from_it_not_the_deterministic_ones(built):
    """Preparing a dataset draws random numbers only for a generator or a subsample: the other tables (thyroid,
    the Ionosphere sets are read and standardised) are the same at every seed, and nothing after them reruns."""
    got = jobs(built, {"seed": 12345}, "seed")
    cfg = merged_config(built, built / ".test" / "config.yaml")
    drawing = {f"dataset={n}" for n, e in cfg["datasets"].items()
               if "generator" in e or (e.get("preprocess") or {}).get("subsample")}
    assert got["prepare"] == drawing & {f"dataset={n}" for n in _prepared(built)}
    assert "dataset=thyroid" not in got["prepare"] and "dataset=synthetic_a" in got["prepare"]


def test_an_edited_library_module_reruns_the_jobs_whose_scripts_import_it(built):
    """Rule param ``library`` (privanomaly.run.code_digest): Snakemake's code trigger sees a rule's script only, so a
    fix in the library left every table built before it in place. Paper A's growth module is imported by rule
    paper_a_growth's script alone; the Python API by no script."""

    def edited(rel: str) -> dict[str, set[str]]:
        path = built / "src" / "privanomaly" / rel
        text = path.read_text(encoding="utf-8")
        try:
            path.write_text(text + "\n# an edit\n", encoding="utf-8")
            return jobs(built, None)
        finally:
            path.write_text(text, encoding="utf-8")

    got = edited("paper_a/growth.py")
    assert got["paper_a_growth"] and "paper_a_growth_table" in got
    assert not {"prepare", "paper_a_select", "paper_a_records", "paper_a_errors", "paper_b_tune_r",
                "sweep_counts", "privacy_audit"} & set(got)
    assert edited("api.py") == {}
    assert jobs(built, None) == {}  # restored: nothing to do


def _prepared(copy: Path) -> set[str]:
    return {p.stem for p in (copy / RESULTS / "data").glob("*.parquet")}


# last: it changes a raw file (and restores it)
def test_a_raw_file_reruns_prepare_on_new_bytes_not_on_a_new_mtime(built):
    """Raw files (here Adult's, 3.9 MB: beyond the size Snakemake compares by checksum) are pinned by sha256:
    the same bytes with a new mtime (a copy, a restore) rerun nothing; new bytes rerun the datasets read from
    the file (and their prepare then stops on the sha256 mismatch)."""
    import os

    raw = built / "resources" / "raw" / "adult" / "adult.data"
    data, st = raw.read_bytes(), raw.stat()
    try:
        os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns + 10**12))
        assert jobs(built, None) == {}
        raw.write_bytes(data.replace(b"United-States", b"United-Statez", 1))
        os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns))  # older than the prepared tables
        assert jobs(built, None)["prepare"] == {"dataset=adult", "dataset=adult_b1", "dataset=adult_b2"}
    finally:  # a fresh mtime: the sha256 cache is keyed by (size, mtime), and the changed bytes had the old one
        raw.write_bytes(data)
        os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns + 2 * 10**12))
