"""The whole ``.test`` DAG - ``make test``'s workflow run: every target of rule ``all`` on ``.test/config.yaml``
with the mirror, ``--cores 2`` - completes. It runs once per pytest command in a copy of the checkout
(``workflow_copy.whole_dag_run``, fixture ``dag_run``); the workflow tests that need a finished run clone it
instead of running the jobs again (tests/test_add_mechanism_workflow.py, tests/test_reruns_minimal.py,
tests/test_rerun_after_download.py, tests/test_paper_b_own_dataset.py, tests/test_scope_checker.py, and the
added dataset of tests/tiny_dataset.py), and it is the uninterrupted reference run of tests/test_determinism.py
and tests/test_interrupted_run.py (``workflow_copy.reference_run``). Marked slow (runs Snakemake)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.mirror]


def test_the_whole_test_dag_runs_to_the_end(dag_run):
    assert "steps (100%) done" in dag_run.log, dag_run.log[-3000:]
    assert (dag_run.results / "index.md").is_file() and (dag_run.results / "audit" / "privacy_audit.csv").is_file()
