"""A job pays at start only for the heavy libraries it uses: the library's light modules import no pandas,
scipy or matplotlib (each case in a fresh interpreter, since this test process has them loaded already)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("pandas", "scipy", "matplotlib", "pyarrow", "numba")


def heavy_after(code: str) -> list[str]:
    """The heavy libraries in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = code + f"\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return [m for m in out.strip().split(",") if m]


@pytest.mark.parametrize("code", [
    "import privanomaly.io, privanomaly.run.log, privanomaly.seeding",  # every script
    "from privanomaly.datasets import sources",  # download
    "import privanomaly.sp; from privanomaly.sp import ball_counts, dlap",
    "import privanomaly.outliers",
    "import privanomaly.mechanisms as M; M.get('sp'); M.get('gaussian_gs_upper'); M.names()",
    "from privanomaly.config import effective; from privanomaly.run import provenance",  # report_effective_config, provenance
])
@pytest.mark.subprocess
def test_light_modules_import_no_heavy_library(code):
    assert heavy_after(code) == []


@pytest.mark.subprocess
def test_planning_the_workflow_imports_no_scipy_or_matplotlib():
    """What workflow/rules/*.smk import: Snakemake parses them at every start (and in every cluster job step).
    pandas is there anyway (Snakemake's Paramspace and its SLURM plugin import it)."""
    code = ("from privanomaly.datasets.validation import check_dataset_entry\n"
            "from privanomaly.paper_a import plan as pa_plan\n"
            "from privanomaly.paper_b import readings, plan as pb_plan\n"
            "from privanomaly.datasets.plan import DataPlan, wildcard_choice\n"
            "from privanomaly.price import plan as price_plan\n"
            "from privanomaly.run.provenance import config_sha256, git_commit\n"
            "from privanomaly.report import catalogue, gallery\n"
            "from privanomaly.config.effective import RECORD_NAME\n"
            "from privanomaly.sweeps import spec\n"
            "from privanomaly.sweeps.plan import SweepPlan\n"
            "from privanomaly.config.check import check_config\n"
            "from privanomaly.datasets import standins\n"
            "pb_plan.readings  # noqa")
    assert [m for m in heavy_after(code) if m in ("scipy", "matplotlib", "numba")] == []


@pytest.mark.subprocess
def test_a_table_job_does_not_import_matplotlib():
    assert "matplotlib" not in heavy_after("from privanomaly.report import figures; figures.get('paper_a.table1')")
    assert "matplotlib" in heavy_after("from privanomaly.report import figures; figures.get('paper_a.fig1')")


# (code, a scipy part it must not import): each would cost ~0.3-1 s of start-up in every job that runs the code
UNUSED_SCIPY_PARTS = [
    # paper_a_errors' sampled trials: one normal quantile, not scipy.stats
    ("import numpy as np\nfrom privanomaly.paper_a import errors\nerrors.wilson(np.array([5]), np.array([10]))",
     "scipy.stats"),
    # Algorithm 3 (paper_b_scenario2, price of tuning): quadrature only for large top-h inclusion cases
    ("from privanomaly.outliers import exponential", "scipy.integrate"),
    # the price figures (render): the names of the tunings, not the price's code (selection: scipy.spatial)
    ("import privanomaly.price.plots", "scipy"),
]


@pytest.mark.parametrize("code, absent", UNUSED_SCIPY_PARTS)
@pytest.mark.subprocess
def test_a_job_imports_no_scipy_part_it_does_not_use(code, absent):
    probe = code + f"\nimport sys\nprint({absent!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_lazy_names_resolve():
    """The names a package __init__ now loads on first use are the modules' own objects."""
    from privanomaly import datasets, outliers, sp
    from privanomaly.datasets import builder
    from privanomaly.outliers import distance, exponential
    from privanomaly.sp import metrics

    assert outliers.q_count is distance.q_count and outliers.exponential is exponential
    assert sp.ranked_errors is metrics.ranked_errors and datasets.build is builder.build
    assert set(outliers.__all__) >= {"q_count", "algorithm2", "gaussian_hockey_stick", "CONVENTIONS"}
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        outliers.nope  # noqa: B018
