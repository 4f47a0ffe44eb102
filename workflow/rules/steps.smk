# The compute steps (workflow/steps.yaml, privanomaly.steps): one rule per step, named as the step, with its
# log, benchmark and conda environment. The values a step names come from the plan the other rule files
# bind: STEP_CONSTANTS (paths), PLAN_SETS (dataset sets), STEP_VALUES (values and functions of wildcards).
from privanomaly import steps as _steps

STEPS = _steps.load(f"{workflow.basedir}/workflow/steps.yaml")
STEP = _steps.Resolver(STEP_CONSTANTS, PLAN_SETS, STEP_VALUES, config, expand)


# One rule per step, defined in a function so that the script path (evaluated again when a job runs) is the
# step's own and not the loop's last.
def step_rule(_s):

    rule:
        name:
            _s.rule
        input:
            **STEP.inputs(_s),
        output:
            **STEP.outputs(_s, report),
        log:
            STEP.log(_s, LOGS, ".log"),
        benchmark:
            STEP.log(_s, BENCH, ".tsv")
        wildcard_constraints:
            **STEP.wildcards(_s),
        threads: _s.threads
        resources:
            **dict(_s.resources),
        localrule: _s.localrule
        conda:
            "../../envs/privanomaly.yaml"
        params:
            **STEP.params(_s),
        script:
            f"../../scripts/{_s.script}"

    workflow.get_rule(_s.rule).docstring = _s.doc


for _s in STEPS:
    step_rule(_s)
