# Helpers of report.smk (issue 8), included by it: functions and constants only (the linter wants functions
# apart from rules). The catalogue (workflow/report/catalogue.yaml) is the one home of item -> file -> rule.
from os.path import relpath

from privanomaly.provenance import config_sha256, git_commit
from privanomaly.report import gallery as _gallery

if "report" not in config:
    raise ValueError(
        "config: missing section 'report' (gallery_width, gallery); see config.yaml"
    )
REPORT_GALLERY_DIR = _gallery.gallery_dir(RESULTS)


# Every final file of both papers and of the privacy audit (the pipelines' own target lists)
paper_targets = lambda: [*paper_a_targets(), *paper_b_targets(), *audit_targets()]
REPORT_BUILT = _catalogue.relative_targets(paper_targets(), RESULTS)
REPORT_MATCH = _catalogue.match_targets(CATALOGUE_ITEMS, REPORT_BUILT)
# paper -> its claims file (paper_a/claims.md: PASS/FAIL, paper_b/comparison.md: MATCH/DIFFERS) in this run
REPORT_CLAIMS = _catalogue.claims_files(REPORT_BUILT, RESULTS)
# {gallery thumbnail (in RESULTS): figure} of the configured gallery figures this run builds
REPORT_GALLERY = _gallery.sources(config["report"]["gallery"], REPORT_BUILT, RESULTS)
STEP_CONSTANTS.update(REPORT_GALLERY_DIR=REPORT_GALLERY_DIR)
STEP_CONSTANTS["REPORT_CATALOGUE"] = (
    f"{workflow.basedir}/workflow/report/catalogue.yaml"
)
STEP_VALUES.update(
    {
        "report.paper_targets": paper_targets(),
        "report.claims_files": list(REPORT_CLAIMS.values()),
        "report.entries": [e.as_dict() for e in REPORT_MATCH.entries],
        "report.uncovered": REPORT_MATCH.uncovered,
        "report.papers": list(REPORT_CLAIMS),
        "report.sources": {p: relpath(f, RESULTS) for p, f in REPORT_CLAIMS.items()},
        "report.dataset_names": config["paper_b"].get("datasets", {}),
        "report.your_datasets": (
            {"A": PA_SETS["paper_a.yours"]} if "A" in REPORT_CLAIMS else {}
        ),
        "report.gallery_source": lambda wc: REPORT_GALLERY[
            f"{REPORT_GALLERY_DIR}/{wc.name}.png"
        ],
        "report.gallery_names": wildcard_choice([Path(p).stem for p in REPORT_GALLERY]),
        "report.config": lambda wc: dict(config),
        "report.dataset_provenance": lambda wc: sorted(
            t for t in data_targets() if str(t).endswith(".json")
        ),
        "report.config_sha256": config_sha256(config),
        "report.commit": git_commit(workflow.basedir),
    }
)


def report_targets():
    """Provenance, the index, the README gallery and the recorded configuration."""
    return [
        *run_records(),
        f"{RESULTS}/provenance.json",
        f"{RESULTS}/index.md",
        *REPORT_GALLERY,
    ]
