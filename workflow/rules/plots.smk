# The generic plot rule (issue 13): one rule per catalogue item with a `plot:` section
# (workflow/report/catalogue.yaml), named as the item's `rule`, running the registered plot function
# (privanomaly.report.figures) on the item's input tables: scripts/plot.py. Adding a figure = one catalogue
# entry + one registered plot function + one caption; nothing to add here. Plot rules only read tables.
# Paper B's plot rules can move here the same way: add its dataset sets and stand-in notes in plots_common.smk; its
# wildcard items ({dataset}_{method}) keep their wildcards (log: plot_job_name).


include: "plots_common.smk"


for _it in PLOT_ITEMS:

    rule:
        name:
            _it.rule
        input:
            **plot_inputs(_it),
        output:
            **plot_outputs(_it),
        log:
            f"{LOGS}/{_it.rule}/{plot_job_name(_it)}.log",
        benchmark:
            f"{BENCH}/{_it.rule}/{plot_job_name(_it)}.tsv"
        conda:
            "../../envs/privanomaly.yaml"
        params:
            function=_it.plot.function,
            plot_params={
                k: _catalogue.config_value(config, key) for k, key in _it.plot.params
            },
            stand_in=PLOT_STAND_IN[_it.paper] if _it.plot.stand_in else None,
        script:
            "../../scripts/plot.py"
