"""Rule report_index: write results/index.md from the catalogue entries and the two claims files."""

from pathlib import Path

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.report import checks, index, sentences
from privanomaly.sweeps import index as sweep_index

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    verdicts, sources = {}, dict(p.sources)
    for paper, path in zip(p.papers, snakemake.input.claims):
        verdicts[paper] = checks.parse(Path(path).read_text(encoding="utf-8"))
        log.info("paper %s: %d verdicts in %s: %s", paper, len(verdicts[paper]), path,
                 checks.summary(verdicts[paper], with_ids=False))
        if not verdicts[paper]:
            log.warning("paper %s: no PASS/FAIL or MATCH/DIFFERS entry found in %s", paper, path)
    if p.uncovered:
        log.warning("outputs not in workflow/report/catalogue.yaml: %s", ", ".join(p.uncovered))
    targets = list(snakemake.input.targets)
    outcomes = {}
    for path in (t for t in targets if t.endswith("audit/privacy_audit.csv")):
        audit = experiment.read_table(path, ["kind", "mechanism", "result"], "the privacy audit", "privacy_audit")
        outcomes["A+B"] = index.audit_summary(list(audit["result"]), list(audit["kind"]), list(audit["mechanism"]))
        log.info("privacy audit: %s", outcomes["A+B"])
    said = sentences.from_files(targets, dict(p.dataset_names))
    log.info("%d sentences in words", len(said))
    text = index.render(
        entries=list(p.entries),
        verdicts=verdicts,
        sources=sources,
        dataset_names=dict(p.dataset_names),
        uncovered=list(p.uncovered),
        unavailable=dict(p.unavailable),
        your_datasets={k: list(v) for k, v in p.your_datasets.items()},
        sentences=said,
        outcomes=outcomes,
    )
    text += sweep_index.render(list(p.sweeps))
    io.write_text(snakemake.output.md, text)
    log.info("index: %d lines", len(p.entries))
