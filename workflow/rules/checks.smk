# Included last by the Snakefile, once every rule is defined: each rule's `script:` file exists
# (check_rule_scripts in common.smk names the rule and its .smk file).
check_rule_scripts()
