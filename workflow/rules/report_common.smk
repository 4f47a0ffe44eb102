# Helpers of report.smk (issue 8), included by it: functions and constants only (the linter wants functions
# apart from rules). The catalogue (workflow/report/catalogue.yaml) is the one home of item -> file -> rule.
from privanomaly.report import catalogue as _catalogue
from privanomaly.report.gallery import gallery_dir as _gallery_dir
from privanomaly.report.gallery import gallery_name as _gallery_name

if "report" not in config:
    raise ValueError(
        "config: missing section 'report' (gallery_width, gallery); see config.yaml"
    )
REPORT_CFG = config["report"]
REPORT_GALLERY_DIR = _gallery_dir(RESULTS)
REPORT_CATALOGUE = f"{workflow.basedir}/workflow/report/catalogue.yaml"


def paper_targets():
    """Every final file of both papers and of the privacy audit (the pipelines' own target lists)."""
    return [*paper_a_targets(), *paper_b_targets(), *audit_targets()]


def report_catalogue_match():
    """The catalogue expanded against this run's paper targets (relative to RESULTS)."""
    items = _catalogue.load(REPORT_CATALOGUE)
    return _catalogue.match_targets(
        items, _catalogue.relative_targets(paper_targets(), RESULTS)
    )


def report_gallery_sources():
    """{gallery file: figure} for the configured gallery figures built in this run.

    The gallery is written inside the results (REPORT_GALLERY_DIR), never to the tracked docs/gallery:
    `make gallery` publishes it there from a run of the default config (privanomaly.report.gallery).
    """
    built = set(_catalogue.relative_targets(paper_targets(), RESULTS))
    return {
        f"{REPORT_GALLERY_DIR}/{_gallery_name(rel)}": f"{RESULTS}/{rel}"
        for rel in REPORT_CFG["gallery"]
        if rel in built
    }


REPORT_MATCH = report_catalogue_match()
# paper -> its claims file, when that paper's part is in this run (results/paper_a/claims.md: PASS/FAIL,
# results/paper_b/comparison.md: MATCH/DIFFERS)
REPORT_CLAIMS = {
    paper: path
    for paper, path in (
        ("A", f"{RESULTS}/paper_a/claims.md"),
        ("B", f"{RESULTS}/paper_b/comparison.md"),
    )
    if path in paper_targets()
}
REPORT_GALLERY = report_gallery_sources()


def report_targets():
    """Provenance, the index, the README gallery and the recorded configuration."""
    return [
        *run_records(),
        f"{RESULTS}/provenance.json",
        f"{RESULTS}/index.md",
        *REPORT_GALLERY,
    ]
