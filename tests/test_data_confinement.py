"""No run writes outside its ``results_dir`` / ``resources_dir``.

Every output, log and benchmark of every rule, as Snakemake loads the workflow with a user's overlay (own
results and resources directories, another seed), lies inside those two directories - in particular the
README gallery (``docs/gallery``, tracked) is never an output: only ``make gallery`` publishes to it
(``privanomaly.report.gallery.publish``). The whole-run counterpart (a real run changes no file of the
checkout) is ``tests/test_interrupted_run.py::test_a_run_writes_nothing_outside_results_and_resources``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from privanomaly.report import gallery

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets

_RULE_PATHS = r"""
import json, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings

with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(
        resource_settings=ResourceSettings(cores=1),
        config_settings=ConfigSettings(configfiles=[Path(sys.argv[1])], config=json.loads(sys.argv[2])),
        snakefile=Path("Snakefile").absolute(),
        workdir=Path(".").absolute(),
    )._workflow
    out = []
    for r in wf.rules:
        out += [(r.name, str(f)) for f in [*r.output, *r.log]]
        if r.benchmark:
            out.append((r.name, str(r.benchmark)))
    print(json.dumps({"paths": out, "report": [str(t) for t in wf.globals["report_targets"]()]}))
"""


@pytest.fixture(scope="module")
def overlay_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("overlay")
    over = tmp / "my_overlay.yaml"
    over.write_text(yaml.safe_dump({"seed": 7, "results_dir": str(tmp / "my-results"), "resources_dir": str(tmp / "raw")}))
    config = {"data_mirror": str(MIRROR)} if MIRROR.is_dir() else {}
    proc = subprocess.run(
        [sys.executable, "-c", _RULE_PATHS, str(over), json.dumps(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return tmp, json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.subprocess
def test_every_rule_writes_inside_results_or_resources(overlay_run):
    tmp, dump = overlay_run
    inside = (f"{tmp / 'my-results'}/", f"{tmp / 'raw'}/")
    outside = [(rule, path) for rule, path in dump["paths"] if not path.startswith(inside)]
    assert outside == [], f"rules writing outside results_dir/resources_dir: {outside}"
    assert len(dump["paths"]) > 50


@pytest.mark.subprocess
def test_gallery_of_a_run_is_inside_its_results(overlay_run):
    tmp, dump = overlay_run
    pngs = [t for t in dump["report"] if t.endswith(".png")]
    assert pngs and all(t.startswith(f"{tmp / 'my-results'}/gallery/") for t in pngs), pngs
    assert not any(gallery.PUBLISHED_DIR in t for t in dump["report"])


def test_make_gallery_publishes_the_default_runs_thumbnails(tmp_path):
    config = {"results_dir": "results", "report": {"gallery": ["paper_a/figures/a.png", "paper_b/figures/b.png"]}}
    built = tmp_path / "results" / "gallery"
    built.mkdir(parents=True)
    (built / "paper_a_a.png").write_bytes(b"A")
    with pytest.raises(FileNotFoundError, match=r"paper_b_b\.png.*not built"):
        gallery.publish(config, tmp_path)
    assert not (tmp_path / gallery.PUBLISHED_DIR).exists()  # nothing copied when one is missing
    (built / "paper_b_b.png").write_bytes(b"B")
    out = gallery.publish(config, tmp_path)
    assert [p.name for p in out] == ["paper_a_a.png", "paper_b_b.png"]
    assert (tmp_path / "docs" / "gallery" / "paper_b_b.png").read_bytes() == b"B"
    assert sorted(p.name for p in (tmp_path / "docs" / "gallery").iterdir()) == ["paper_a_a.png", "paper_b_b.png"]
