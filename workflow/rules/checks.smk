# Included last by the Snakefile, once every rule is defined: each rule's `script:` file exists, or the run stops
# naming the rule and its .smk file (privanomaly.preflight.check_rule_scripts).
from privanomaly.preflight import check_rule_scripts

check_rule_scripts(
    (r.name, r.snakefile, str(r.script), r.basedir.get_path_or_uri(secret_free=True))
    for r in workflow.rules
    if r.script and r.basedir.is_local
)
