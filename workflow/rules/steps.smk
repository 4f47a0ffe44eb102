# The rules that run scripts come from two registries (privanomaly.steps) - the compute steps of
# workflow/steps.yaml, and the figures and tables of workflow/report/catalogue.yaml that are built from tidy
# tables (items with a `plot:` or `table:` section; script render.py). The values a step names come from the
# plan that the other files of workflow/rules bind - STEP_CONSTANTS (paths), PLAN_SETS (sets), STEP_VALUES.
from privanomaly import steps as _steps

STEPS = _steps.load(f"{workflow.basedir}/workflow/steps.yaml")
STEPS += [_steps.item_step(it) for it in CATALOGUE_ITEMS if it.plot is not None]
# what a file wildcard of a catalogue item may match: a configured dataset, a smooth bound of paper B
STEP_VALUES.update({"items.dataset": wildcard_choice(PLAN.names())})
STEP_VALUES.update({"items.method": PB_METHOD_REGEX})
STEP = _steps.Resolver(STEP_CONSTANTS, PLAN_SETS, STEP_VALUES, config, expand)


STEP_BY_RULE = {s.rule: s for s in STEPS}


for _s in STEPS:

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
        localrule: _s.localrule
        conda:
            "../../envs/privanomaly.yaml"
        threads: _s.threads
        resources:
            **dict(_s.resources),
        params:
            **STEP.params(_s),
        script:
            step_script(locals())

    workflow.get_rule(_s.rule).docstring = _s.doc
