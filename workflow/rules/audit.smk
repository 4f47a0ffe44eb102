# The privacy audit: every mechanism of the registry (privanomaly.mechanisms) through the one harness
# (privanomaly.audit) - exact checks on every edge of its own neighbour relation in exhaustive small worlds,
# Clopper-Pearson audits of its sampler, negative controls that must be caught. The report's audit page.


rule privacy_audit:
    """Every registered mechanism and negative control through the audit harness (config audit.level)."""
    output:
        csv=report(
            f"{RESULTS}/audit/privacy_audit.csv",
            caption="../report/privacy_audit.rst",
            category="Privacy audit",
            subcategory="Every registered mechanism",
        ),
        md=f"{RESULTS}/audit/privacy_audit.md",
    log:
        f"{LOGS}/privacy_audit/all.log",
    benchmark:
        f"{BENCH}/privacy_audit/all.tsv"
    priority: 1  # the longest single job, with no input: started first, it overlaps the rest of the run
    conda:
        "../../envs/privanomaly.yaml"
    threads: 2  # rows audited side by side (privanomaly.audit.parallel); the table is the same at any count
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        library=library_code("privacy_audit"),
        level=config["audit"]["level"],
        seed=config["seed"],
        mechanisms=AUDITED_MECHANISMS,  # a mechanism of privanomaly.mechanisms added or edited reruns the audit
    script:
        "../../scripts/privacy_audit.py"
