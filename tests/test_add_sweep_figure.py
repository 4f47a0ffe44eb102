"""The recipe of docs/CONVENTIONS.md "Add a sweep": a new sweep figure is one function in
``privanomaly.sweeps.plots.FIGURES`` plus its name in ``privanomaly.sweeps.index.FIGURES``, nothing else.

In a temporary copy of the workflow (tests/workflow_copy.py) the test makes exactly those two edits and dry-runs
``sweeps_all`` on the .test configuration: the plan must hold a ``sweep_plot`` job for the new figure of every
paper-A sweep (a rule whose wildcard constraint listed the built-in figures by hand made the DAG fail with
"Missing input files for rule sweeps_all"). Marked slow: a copy and one DAG build.
"""

from __future__ import annotations

import subprocess

import pytest
import workflow_copy as wc

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

FUNCTION = '''

def _spread(t):
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.hist(t["error_anomaly"].to_numpy(), bins=10)
    return fig


FIGURES["spread"] = _spread
'''


def test_a_new_sweep_figure_is_one_function_and_its_name(tmp_path):
    copy = wc.copy_workflow(tmp_path / "work")
    lib = copy / "src" / "privanomaly" / "sweeps"
    (lib / "plots.py").write_text((lib / "plots.py").read_text(encoding="utf-8") + FUNCTION, encoding="utf-8")
    idx = (lib / "index.py").read_text(encoding="utf-8")
    old = 'FIGURES = {"paper_a": ("error_vs_eps", "gain"),'
    assert old in idx
    (lib / "index.py").write_text(idx.replace(old, 'FIGURES = {"paper_a": ("error_vs_eps", "gain", "spread"),'),
                                  encoding="utf-8")
    proc = subprocess.run(
        [wc.SNAKEMAKE, "-n", "sweeps_all", "--configfile", ".test/config.yaml", "--config",
         f"data_mirror={wc.MIRROR}"],
        cwd=copy, env=wc.env_for(copy), capture_output=True, text=True, timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert f"{wc.RESULTS}/sweeps/paperAbetaR/figures/spread.png" in out
    assert f"{wc.RESULTS}/sweeps/paperAbetaR/figures/spread.pdf" in out
