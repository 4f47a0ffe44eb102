"""Shared by every test module: figures made through pyplot are closed after each test (the library's plot
functions return their figures for the scripts to save; a test that draws many would otherwise keep them all);
tests marked ``mirror`` are skipped, saying how to point at the datasets, where no mirror is found; a test that
starts a process without its mark fails (tests/process_guard.py)."""

from __future__ import annotations

import sys

import pytest

import workflow_copy as wf
from workflow_copy import MIRROR, MIRROR_HINT

pytest_plugins = ["process_guard", "pytester"]  # pytester: tests/test_process_guard.py


# Runs made once per pytest process (functools.cache) and read by the tests of two files: under pytest-xdist
# (`make test`: -n 2 --dist loadfile) the two files are one unit of work, so each run is still made once.
SHARED_RUNS = {
    "test_determinism.py": "reference-run",  # workflow_copy.reference_run / interrupted_run
    "test_interrupted_run.py": "reference-run",
    "test_add_dataset.py": "tiny-dataset",  # tiny_dataset.paper_a_run
    "test_report_follows_run.py": "tiny-dataset",
}


# The whole .test DAG (workflow_copy.whole_dag_run, fixture ``dag_run``) is run once per pytest command, whichever
# process asks first; its own test file starts first, as the longest unit of work, and the files that read the run
# come last, so that no process waits for it while other work is left.
DAG_RUN_FILE = "test_dag_run.py"


def work_unit(nodeid: str) -> str:
    """The xdist unit of a test: its file (module fixtures are made once), the files of a shared run as one."""
    name = nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
    return SHARED_RUNS.get(name, name)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not MIRROR.is_dir():
        skip = pytest.mark.skip(reason=MIRROR_HINT)
        for item in items:
            if item.get_closest_marker("mirror"):
                item.add_marker(skip)
    if hasattr(config, "workerinput"):  # an xdist worker: the units that run workflow jobs first, so that the
        # longest ones do not start last (with --no-loadscope-reorder xdist hands units out in this order); the
        # whole DAG's run before all, the units that read it after the others (they would wait for it)
        slow = {work_unit(item.nodeid) for item in items if item.get_closest_marker("slow")}
        readers = {work_unit(item.nodeid) for item in items if "dag_run" in getattr(item, "fixturenames", ())}
        first = work_unit(f"tests/{DAG_RUN_FILE}")

        def order(item: pytest.Item) -> tuple[bool, bool, bool]:
            unit = work_unit(item.nodeid)
            return unit != first, unit in readers and unit != first, unit not in slow

        items.sort(key=order)  # stable: file order kept otherwise


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """--dist loadfile, with the files of a shared run (SHARED_RUNS) in one unit."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedRunFiles(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return SharedRunFiles(config, log)


@pytest.fixture(scope="session")
def dag_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> wf.Run:
    """The whole .test DAG's run, shared by every process of this pytest command (under xdist the workers'
    temporary directories share a parent). Clone it (``wf.clone``) before changing anything in it."""
    base = tmp_path_factory.getbasetemp()
    return wf.whole_dag_run(base.parent if hasattr(request.config, "workerinput") else base)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt = sys.modules.get("matplotlib.pyplot")  # only where a test drew: no matplotlib import otherwise
    if plt is not None:
        plt.close("all")
