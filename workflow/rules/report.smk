# Rules for report; filled in by its issue.
from privanomaly.provenance import config_sha256, git_commit


def report_targets():
    return [f"{RESULTS}/provenance.json"]


# Provenance (issue 9): versions, config hash, dataset sha256s, git commit. Re-run when the config, the
# commit or a dataset's provenance changes (params and inputs).
rule provenance:
    input:
        datasets=lambda wc: sorted(
            t for t in data_targets() if str(t).endswith(".json")
        ),
    output:
        json=report(
            f"{RESULTS}/provenance.json",
            caption="../report/provenance.rst",
            category="Provenance",
        ),
    log:
        f"{LOGS}/provenance/provenance.log",
    benchmark:
        f"{BENCH}/provenance/provenance.tsv"
    params:
        config=lambda wc: dict(config),
        config_sha256=config_sha256(config),
        commit=git_commit(workflow.basedir),
    script:
        "../../scripts/provenance.py"
