# The privacy audit (issue 12): every mechanism of the registry (privanomaly.mechanisms) through the one
# harness (privanomaly.audit) - exact checks on every edge of its own neighbour relation in exhaustive
# small worlds, Clopper-Pearson audits of its sampler, negative controls that must be caught. Step
# privacy_audit (workflow/steps.yaml) writes {RESULTS}/audit/privacy_audit.{csv,md}: the report's page.

# The audit table (CSV + Markdown); called by `rule all` in the Snakefile.
audit_targets = lambda: [
    f"{RESULTS}/audit/privacy_audit.{ext}" for ext in ("csv", "md")
]
