"""Helpers for the slow tests that run Snakemake: copy the workflow, run it, kill it, collect its tables.

Each run happens in its own temporary copy of the checkout (tracked files plus untracked, not ignored ones),
with results inside the copy, so a test never touches the developer's ``results/`` or ``.snakemake/``.
The whole ``.test`` DAG is run once per pytest command (:func:`whole_dag_run`, ``--cores 2``, in its own
environment of :data:`ENVIRONMENTS`); it is also the uninterrupted reference run
(:func:`reference_run`: its files restricted to those the jobs of the targets write). The interrupted run
(``--cores 1``, another copy and environment, SIGKILLed mid-way, then resumed) is made once per pytest process
(``functools.cache``) and shared by the determinism test (reference vs. the interrupted run's final tables:
every one computed by a ``--cores 1`` process, in another copy) and the interrupted-run test.

Targets of the interrupted run: a small subset of the ``.test`` DAG (``SLOW_TEST_TARGETS`` — a couple of
stochastic tables of each paper plus what they need). Override with the environment variable
``PRIVANOMALY_SLOW_TARGETS`` (space-separated paths relative to the results directory, or ``all``).
"""

from __future__ import annotations

import compileall
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
# the local mirror of the datasets: $PRIVANOMALY_MIRROR, else ../shared/datasets beside the checkout (the
# Makefile's DATA_MIRROR default); tests marked ``mirror`` are skipped with MIRROR_HINT where it is missing
MIRROR = Path(os.environ.get("PRIVANOMALY_MIRROR") or ROOT.parent / "shared" / "datasets").resolve()
MIRROR_HINT = (
    f"no datasets mirror at {MIRROR}: set PRIVANOMALY_MIRROR to the directory holding MANIFEST.md and the "
    "datasets (make check/test pass DATA_MIRROR, default ../shared/datasets beside the checkout)"
)
RESULTS = ".test/results"  # results_dir of .test/config.yaml

# Stochastic tables (sampling with seeded generators) of each paper, relative to RESULTS. Chosen because
# they draw random numbers in several jobs that run in parallel, i.e. where execution order could leak in.
SLOW_TEST_TARGETS: list[str] = [
    # data layer: a seeded stratified subsample of a real dataset
    "data/mammography.parquet",
    # paper A: seeded (beta, r) selection, then sampled mechanism runs (trials) next to the exact errors
    "paper_a/work/errors/thyroid_trials.csv",
    # paper A: PyOD references of Table 3 (IForest seeded from the config seed)
    "paper_a/work/detection/thyroid.csv",
    # paper B: a seeded generator (Synthetic 2), then Algorithm 3 (exponential mechanism, top-h) trials
    "paper_b/tables/scenario2_pr_synthetic_b2.csv",
    # paper B: Scenario 1 with Algorithm 2 run to completion under a work guard (never a fallback) - the
    # table must not depend on the machine, load or number of cores
    "paper_b/tables/scenario1_adult_b1_paper.csv",
    # a figure (PNG and PDF) drawn from one of those tables: no date, path or locale in its bytes
    "paper_b/figures/scenario2_synthetic_b2.png",
]


def targets() -> list[str]:
    env = os.environ.get("PRIVANOMALY_SLOW_TARGETS")
    if env:
        return env.split()
    return list(SLOW_TEST_TARGETS) or ["all"]


def _target_args(copy: Path) -> list[str]:
    return [t if t == "all" else f"{RESULTS}/{t}" for t in targets()]


def tracked_files() -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout
    return [f for f in out.decode().split("\0") if f and (ROOT / f).is_file()]


def copy_workflow(dest: Path) -> Path:
    """Copy the checkout's tracked and untracked-not-ignored files into ``dest`` (no results, no .snakemake),
    plus the library's bytecode and numba's compiled kernels (see :func:`warm_caches`)."""
    warm_caches()
    dest.mkdir(parents=True, exist_ok=True)
    for rel in tracked_files():
        if rel.startswith(f"{RESULTS}/"):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    for cached in compiled_files():
        target = dest / cached.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cached, target)
    return dest


def compiled_files() -> list[Path]:
    """The library's bytecode (``.pyc``) and numba's on-disk cache of the ``@njit(cache=True)`` kernels
    (privanomaly.sp._fastballs, _fastradii; privanomaly.outliers._blocks, _discs) in the checkout. Both are keyed
    by their source file's modification time and size, which :func:`copy_workflow` keeps: a copy's jobs load them,
    and a changed source compiles again."""
    return sorted(p for p in (ROOT / "src").rglob("__pycache__/*") if p.suffix in (".pyc", ".nbi", ".nbc"))


@functools.cache
def warm_caches() -> None:
    """Compile the library to bytecode and its numba kernels once, in the checkout, before the first copy.

    Without it every copy compiles the kernels again in its first jobs (≈ 8 s CPU each time, several copies
    per pytest run), and where PYTHONDONTWRITEBYTECODE is set every job of a copy compiles each library module
    it imports. Both caches are keyed by the source file's modification time and size, which
    :func:`copy_workflow` keeps (``shutil.copy2``): a copy's jobs load the compiled code, and a changed
    source is recompiled as usual. The ``.test`` DAG of ``make test`` runs in the checkout and uses them too.
    """
    compileall.compile_dir(str(ROOT / "src" / "privanomaly"), quiet=1)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    code = ("import numpy as np; from privanomaly import sp; X = np.arange(6.0).reshape(3, 2); "
            "sp.ball_counts(X, 1.5); sp.ball_counts_radii(X, [1.5, 3.0], cap=2); "
            "sp.ball_counts_at_radii(X + 0.5, X, [1.5, 3.0], cap=2); "
            "from privanomaly.outliers import smooth; smooth.smooth_sensitivity(X, 1, 2.0, 0.5, 'fast', exact_max=64)")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True)


def snakemake_cmd(cores: int, *extra: str, copy: Path, goals: list[str] | None = None) -> list[str]:
    """The run's command: ``goals`` (default: :func:`targets`) on the ``.test`` config with the mirror."""
    # targets first: --config takes every following word as a key=value pair
    return [
        SNAKEMAKE,
        *(_target_args(copy) if goals is None else goals),
        "--cores",
        str(cores),
        "--configfile",
        ".test/config.yaml",
        "--config",
        f"data_mirror={MIRROR}",
        *extra,
    ]


def _utf8_locale() -> str | None:
    """A UTF-8 locale this machine has (C.UTF-8 where installed), else None."""
    import locale

    saved = locale.setlocale(locale.LC_ALL)
    for name in ("C.UTF-8", "C.utf8", "en_US.UTF-8"):
        try:
            locale.setlocale(locale.LC_ALL, name)
            return name
        except locale.Error:
            continue
        finally:
            locale.setlocale(locale.LC_ALL, saved)
    return None


TEST_DAG = "test-dag"  # the directory of the whole .test DAG's run, under the pytest invocation's temporary root

# The process environment of a copy's runs, by the copy's name: the determinism test compares the reference
# run (the whole .test DAG's run, TEST_DAG) with the interrupted one, so they differ in everything a result must
# not depend on - the path of the copy, --cores, the hash seed, the time zone and the locale.
ENVIRONMENTS: dict[str, dict[str, str]] = {
    TEST_DAG: {"PYTHONHASHSEED": "0", "TZ": "UTC", "LC_ALL": "C"},
    "killed": {"PYTHONHASHSEED": "12345", "TZ": "Asia/Tokyo", **({"LC_ALL": _utf8_locale()} if _utf8_locale() else {})},
}


def env_for(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    # the copy's own library, not the editable install of the original checkout
    env["PYTHONPATH"] = str(copy / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("MKL_NUM_THREADS", "1")
    env.update(ENVIRONMENTS.get(copy.name, {}))
    return env


def timed_run(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Run ``cmd`` (output captured): wall seconds, CPU seconds of it and every process it waited for
    (``getrusage(RUSAGE_CHILDREN)``: Snakemake and all its jobs) and the finished process - the benchmarks'
    one way to time a run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc


@dataclass(frozen=True)
class Run:
    copy: Path
    seconds: float
    log: str
    only: frozenset[str] | None = None  # read only these files (relative to RESULTS); None: every file

    @property
    def results(self) -> Path:
        return self.copy / RESULTS

    def csv_bytes(self) -> dict[str, bytes]:
        """Every table of the run (relative path → bytes): CSV, and the Parquet data tables; logs,
        benchmarks (timings) and hidden temporary files excluded."""
        return self._kept(table_bytes(self.results))

    def outputs(self) -> dict[str, bytes]:
        """Every output file of the run (:func:`output_bytes`)."""
        return self._kept(output_bytes(self.results))

    def _kept(self, files: dict[str, bytes]) -> dict[str, bytes]:
        return files if self.only is None else {rel: b for rel, b in files.items() if rel in self.only}


# Files of a run that may differ between two runs of the same configuration: the run's own records (the
# results_dir it was given; the sha256 of that configuration) and the wall-clock seconds of paper B's timing.
RUN_SPECIFIC = ("effective_config.yaml", "provenance.json", "paper_b/timing/", "paper_b/tables/smooth_timing.")


def output_bytes(results: Path) -> dict[str, bytes]:
    """Every output file of the run (relative path → bytes): tables in every format, figures (PNG, PDF), JSON,
    Markdown; logs, benchmarks, hidden temporary files and :data:`RUN_SPECIFIC` excluded."""
    out = {}
    for p in sorted(results.rglob("*")):
        rel = p.relative_to(results).as_posix()
        if not p.is_file() or p.name.startswith(".") or rel.startswith(("logs/", "benchmarks/", *RUN_SPECIFIC)):
            continue
        out[rel] = p.read_bytes()
    return out


def table_bytes(results: Path) -> dict[str, bytes]:
    out = {}
    for p in sorted([*results.rglob("*.csv"), *results.rglob("*.parquet")]):
        rel = p.relative_to(results).as_posix()
        if rel.startswith(("logs/", "benchmarks/")) or p.name.startswith("."):
            continue
        out[rel] = p.read_bytes()
    return out


def run(copy: Path, cores: int, *extra: str, timeout: float = 600, goals: list[str] | None = None) -> Run:
    """Run Snakemake in ``copy``; on timeout the whole process group (Snakemake and its jobs) is killed."""
    t0 = time.monotonic()
    proc = start_in_new_group(copy, cores, *extra, goals=goals)
    try:
        log, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise AssertionError(f"snakemake did not finish within {timeout} s in {copy}; its jobs were killed")
    if proc.returncode != 0:
        raise AssertionError(f"snakemake failed in {copy} (exit {proc.returncode}):\n{log[-6000:]}")
    return Run(copy, time.monotonic() - t0, log)


_BASE: list[Path] = []


def base_dir() -> Path:
    if not _BASE:
        _BASE.append(Path(tempfile.mkdtemp(prefix="privanomaly-wf-")))
        import atexit

        atexit.register(shutil.rmtree, _BASE[0], True)
    return _BASE[0]


@functools.cache
def killed_copy() -> Path:
    """The interrupted run's copy, made once: fresh until :func:`interrupted_run` starts in it."""
    return copy_workflow(base_dir() / "killed")


@functools.cache
def target_outputs() -> frozenset[str]:
    """The files (relative to RESULTS) that the jobs of the targets' DAG write: ``snakemake --summary`` on the
    fresh copy of the interrupted run (nothing runs; every job is listed, every file missing)."""
    copy = killed_copy()
    proc = subprocess.run(snakemake_cmd(1, "--summary", copy=copy), cwd=copy, env=env_for(copy), capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise AssertionError(f"snakemake --summary failed in {copy}:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    files = [line.split("\t", 1)[0] for line in proc.stdout.splitlines()[1:] if line.strip()]
    return frozenset(f.removeprefix(f"{RESULTS}/") for f in files if f.startswith(f"{RESULTS}/"))


@functools.cache
def reference_run(dag: Run) -> Run:
    """The uninterrupted reference run: the whole .test DAG's run (``dag``, :func:`whole_dag_run`: --cores 2, its own
    copy and environment of :data:`ENVIRONMENTS`) read only for the files the jobs of the targets write
    (:func:`target_outputs`) - the files a run of the targets alone makes, by the same jobs, on the same config."""
    return Run(dag.copy, dag.seconds, dag.log, target_outputs())


def whole_dag_run(root: Path) -> Run:
    """The whole ``.test`` DAG (``make test``'s workflow run: every target of rule ``all``, ``--cores 2``) in a
    copy under ``root``, made once for every pytest process that shares ``root`` (the xdist workers of one
    ``pytest`` command: the first caller runs it while the others wait on a lock, then all read it).

    A test that changes files clones it first (:func:`clone`). A failed run is recorded, not repeated: every
    caller raises with its log."""
    import fcntl
    import json

    root.mkdir(parents=True, exist_ok=True)
    copy, record = root / TEST_DAG, root / f"{TEST_DAG}.json"
    with open(root / f"{TEST_DAG}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this process dies
        if not record.exists():
            shutil.rmtree(copy, ignore_errors=True)  # a run started by a process that died
            try:
                done = run(copy_workflow(copy), 2, "--rerun-incomplete", timeout=1800, goals=["all"])
                record.write_text(json.dumps({"ok": True, "seconds": done.seconds, "log": done.log}))
            except AssertionError as err:
                record.write_text(json.dumps({"ok": False, "seconds": 0.0, "log": str(err)}))
        made = json.loads(record.read_text())
    if not made["ok"]:
        raise AssertionError(f"the .test DAG's run failed ({copy}):\n{made['log']}")
    return Run(copy, made["seconds"], made["log"])


def clone(src: Path, dest: Path) -> Path:
    """A copy of a finished run's directory (checkout copy, results, raw files and Snakemake's records of every
    job) that a test may change: file times kept, so Snakemake sees the same finished run there."""
    shutil.copytree(src, dest, symlinks=True, ignore=shutil.ignore_patterns("locks", "incomplete"))
    return dest


@dataclass
class Interrupted:
    """What happened to a run SIGKILLed mid-way and resumed with the README's command (``--rerun-incomplete``)."""

    copy: Path
    finished_before_kill: bool  # the run ended before the kill (then nothing was interrupted)
    partial: dict[str, bytes]  # the tables visible right after the kill
    locked: subprocess.CompletedProcess  # the README's command on the killed run's directory
    live_runs: list | None  # runguard.live_runs(copy) after the kill (None: the command was not refused)
    guard: subprocess.CompletedProcess | None  # ``python -m privanomaly.run.guard --unlock <copy>``
    lock_left: bool | None  # runguard.has_lock(copy) after the guard
    final: dict[str, bytes]  # the tables after the resumed run
    outputs: dict[str, bytes]  # every output after the resumed run (output_bytes)


@functools.cache
def interrupted_run(ref: Run) -> Interrupted:
    """A run in its own copy, ``--cores 1`` throughout: started, SIGKILLed (its whole process group) once a third of
    the reference run's (``ref``) tables exist, then the README's command; if that is refused because of the stale
    lock, the Makefile's guard removes the lock and the command runs again. Every table of ``final`` was computed
    by a ``--cores 1`` process, none is copied from the reference run (``--cores 2``)."""
    from privanomaly.run import guard as runguard

    want = max(1, len(ref.csv_bytes()) // 3)
    copy = killed_copy()
    target_outputs()  # listed while the copy is still fresh
    results = copy / RESULTS
    proc = start_in_new_group(copy, 1)
    deadline = time.monotonic() + max(60.0, 3 * ref.seconds)
    while time.monotonic() < deadline and proc.poll() is None:
        if len(table_bytes(results)) >= want:
            break
        time.sleep(0.05)
    finished_before_kill = proc.poll() is not None
    if not finished_before_kill:
        kill_group(proc)
    partial = table_bytes(results)
    locked = subprocess.run(snakemake_cmd(1, "--rerun-incomplete", copy=copy), cwd=copy, env=env_for(copy),
                            capture_output=True, text=True)
    live = guard = lock_left = None
    if locked.returncode != 0:
        live = runguard.live_runs(copy)
        guard = subprocess.run([sys.executable, "-m", "privanomaly.run.guard", "--unlock", str(copy)],
                               env=env_for(copy), capture_output=True, text=True)
        lock_left = runguard.has_lock(copy)
        if guard.returncode == 0 and not lock_left:
            run(copy, 1, "--rerun-incomplete")
    return Interrupted(copy, finished_before_kill, partial, locked, live, guard, lock_left, table_bytes(results),
                       output_bytes(results))


def start_in_new_group(copy: Path, cores: int, *extra: str, goals: list[str] | None = None) -> subprocess.Popen:
    """Start a run in its own process group (so SIGKILL reaches Snakemake and every job it started)."""
    return subprocess.Popen(
        snakemake_cmd(cores, *extra, copy=copy, goals=goals),
        cwd=copy,
        env=env_for(copy),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate(timeout=60)
