# What a researcher looks at after a run (issues 8, 9, 17), steps in workflow/steps.yaml:
#
#   report_index    {RESULTS}/index.md   one line per figure/table: paper item, file, rule, this run's verdicts
#   report_gallery  {RESULTS}/gallery/*.png  small copies of key figures for the README; `make gallery` (default
#                   config only) publishes them to docs/gallery (committed) - no run writes outside RESULTS
#   provenance      {RESULTS}/provenance.json: versions, config hash, dataset sha256s, git commit
#   effective_config  {RESULTS}/effective_config.yaml: config.yaml + overlays + --config; `snakemake --report`
#                   reads it back (run_config.smk), so the report always describes the run in results/
#
# `snakemake --report results/report.html` shows every output marked for the report: the global description
# below (workflow/report/workflow.rst), then "Overview", "Data", "Paper A", "Paper B", "Provenance".
# The item -> file -> rule mapping lives in workflow/report/catalogue.yaml only. Helpers: report_common.smk.


report: "../report/workflow.rst"


include: "report_common.smk"


onsuccess:
    print(
        f"\nprivanomaly: results in {RESULTS}/ - start with {RESULTS}/index.md "
        f"(claims: {RESULTS}/paper_a/claims.md, {RESULTS}/paper_b/comparison.md); "
        f"HTML report: make report, or snakemake --report {RESULTS}/report.html (it uses the configuration "
        f"recorded in {RESULTS}/{RUN_CONFIG_RECORD})",
        file=sys.stderr,
    )
