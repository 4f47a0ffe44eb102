from snakemake.utils import min_version

min_version("9.0")


configfile: "config.yaml"


include: "workflow/rules/config.smk"
include: "workflow/rules/common.smk"
include: "workflow/rules/inputs.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/paper_a.smk"
include: "workflow/rules/paper_b.smk"
include: "workflow/rules/audit.smk"
include: "workflow/rules/privacy.smk"
include: "workflow/rules/sweeps.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/standins.smk"


rule all:
    default_target: True
    input:
        data_targets(),
        paper_a_targets(),
        paper_b_targets(),
        audit_targets(),
        sweep_targets(),
        report_targets(),
        tex_targets(),


# last: every rule above is defined (a misspelt script: path stops here, naming its rule)
include: "workflow/rules/checks.smk"
