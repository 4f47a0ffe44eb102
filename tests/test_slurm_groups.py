"""profiles/slurm submits each part of the workflow as one job: every rule that runs on the cluster carries the
group of its part (or is one of the few left single on purpose), and the profile bundles every group a rule
uses - a group the profile does not bundle would go to SLURM as one submission per connected piece."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets

pytestmark = [pytest.mark.subprocess, pytest.mark.mirror]  # the workflow, loaded in a fresh interpreter

_DUMP = """
import json, sys, types
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings

with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(
        resource_settings=ResourceSettings(cores=1),
        config_settings=ConfigSettings(configfiles=[Path(".test/config.yaml")], config={"data_mirror": sys.argv[1]}),
        snakefile=Path("Snakefile").absolute(),
        workdir=Path(".").absolute(),
    )._workflow
    sweeps = wf.globals["SW"].a + wf.globals["SW"].b

    def group(rule):
        # Rule.group is None in a local run (groups are inactive there): the declared group is Rule._group;
        # a group function (get_sweep_group) is read at every sweep of the config
        g = rule._group
        return {s: g(types.SimpleNamespace(sweep=s)) for s in sweeps} if callable(g) else g

    print("@@JSON@@" + json.dumps({r.name: {"group": group(r), "local": r.name in wf._localrules or r.norun}
                                   for r in wf.rules}))
"""

# Left single: the privacy audit needs no input; standin writes a stand-in dataset at real size (make scale),
# a big job of its own.
SINGLE = {"privacy_audit", "standin"}


@pytest.fixture(scope="module")
def rules() -> dict[str, dict]:
    proc = subprocess.run([sys.executable, "-c", _DUMP, str(MIRROR)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and "@@JSON@@" in proc.stdout, proc.stderr[-3000:]
    return json.loads(proc.stdout.split("@@JSON@@", 1)[1])


def test_every_cluster_rule_carries_its_parts_group(rules):
    remote = {n: r["group"] for n, r in rules.items() if not r["local"]}
    assert remote["prepare"] == remote["provenance"] == remote["privacy_price"] == "data"
    # fig1: a catalogue plot rule; the claims need paper A's sweep, which is in paper_a too
    assert remote["paper_a_select"] == remote["paper_a_fig1"] == remote["paper_a_claims"] == "paper_a"
    assert remote["paper_b_tune_r"] == remote["paper_b_plot_fig1"] == "paper_b"
    assert remote["paper_a_plot_price"] == remote["paper_b_plot_price"] == "data"  # they write privacy/
    ungrouped = sorted(n for n, g in remote.items() if g is None)
    assert ungrouped == sorted(SINGLE)
    assert {g for g in remote.values() if isinstance(g, str)} == {"data", "paper_a", "paper_b"}


def test_a_sweep_is_part_of_its_papers_submission(rules):
    """Paper A's sweep feeds paper A's claims: in one submission with paper A, the run is two rounds of
    submissions (the data, then both papers) instead of a third for the claims after the sweeps."""
    assert rules["sweep_counts"]["group"] == rules["sweep_chunk"]["group"] == "paper_a"
    assert rules["sweep_b_dataset"]["group"] == "paper_b"
    for name in ("sweep_collect", "sweep_plot"):
        assert rules[name]["group"] == {"paperAbetaR": "paper_a", "paperBkR": "paper_b"}, name


def test_profile_bundles_every_group(rules):
    profile = yaml.safe_load((ROOT / "profiles" / "slurm" / "config.yaml").read_text())
    bundled = dict(item.split("=") for item in profile["group-components"])
    used = {g for r in rules.values() if r["group"]
            for g in (r["group"].values() if isinstance(r["group"], dict) else [r["group"]])}
    assert used <= set(bundled), used - set(bundled)
    assert all(int(n) >= 10 for n in bundled.values())
    assert not {r["group"] for r in rules.values() if r["local"]} - {None}  # local rules are never bundled
