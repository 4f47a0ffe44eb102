# Helpers of report.smk (issue 8), included by it: functions and constants only (the linter wants functions
# apart from rules). The catalogue (workflow/report/catalogue.yaml) is the one home of item -> file -> rule.
from privanomaly.report import catalogue as _catalogue
from privanomaly.report import gallery as _gallery

if "report" not in config:
    raise ValueError(
        "config: missing section 'report' (gallery_width, gallery); see config.yaml"
    )
REPORT_CFG = config["report"]
REPORT_GALLERY_DIR = _gallery.gallery_dir(RESULTS)
REPORT_CATALOGUE = f"{workflow.basedir}/workflow/report/catalogue.yaml"


# Every final file of both papers and of the privacy audit (the pipelines' own target lists)
paper_targets = lambda: [*paper_a_targets(), *paper_b_targets(), *audit_targets()]
REPORT_BUILT = _catalogue.relative_targets(paper_targets(), RESULTS)
REPORT_MATCH = _catalogue.match_targets(CATALOGUE_ITEMS, REPORT_BUILT)
# paper -> its claims file (paper_a/claims.md: PASS/FAIL, paper_b/comparison.md: MATCH/DIFFERS) in this run
REPORT_CLAIMS = _catalogue.claims_files(REPORT_BUILT, RESULTS)
# {gallery thumbnail (in RESULTS): figure} of the configured gallery figures this run builds
REPORT_GALLERY = _gallery.sources(REPORT_CFG["gallery"], REPORT_BUILT, RESULTS)


def report_targets():
    """Provenance, the index, the README gallery and the recorded configuration."""
    return [
        *run_records(),
        f"{RESULTS}/provenance.json",
        f"{RESULTS}/index.md",
        *REPORT_GALLERY,
    ]
