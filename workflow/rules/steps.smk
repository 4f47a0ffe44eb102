# The rules that run scripts come from two registries (privanomaly.steps) - the compute steps of
# workflow/steps.yaml, and the figures and tables of workflow/report/catalogue.yaml that are built from tidy
# tables (items with a `plot:` or `table:` section; script render.py). The values a step names come from the
# plan that the other files of workflow/rules bind - STEP_CONSTANTS (paths), PLAN_SETS (sets), STEP_VALUES.
from privanomaly import steps as _steps

STEPS = _steps.load(f"{workflow.basedir}/workflow/steps.yaml")
STEPS += [_steps.item_step(it) for it in CATALOGUE_ITEMS if it.plot is not None]
# what a file wildcard of a catalogue item may match: a configured dataset, a smooth bound of paper B
STEP_VALUES.update({"items.dataset": wildcard_choice(PLAN.names())})
STEP_VALUES.update({"items.method": "paper|fast"})
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
