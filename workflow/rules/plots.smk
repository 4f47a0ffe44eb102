# The generic plot and table rule (issue 13): one rule per catalogue item with a `plot:` or `table:` section
# (workflow/report/catalogue.yaml), named as the item's `rule`, running the registered function
# (privanomaly.report.figures) on the item's input tables: scripts/render.py. Adding a figure = one catalogue
# entry + one registered plot function + one caption; nothing to add here. Plot rules only read tables.


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
        wildcard_constraints:
            **plot_wildcards(_it),
        conda:
            "../../envs/privanomaly.yaml"
        params:
            kind=_it.plot.kind,
            function=_it.plot.function,
            plot_params=plot_params(_it),
            stand_in=PLOT_STAND_IN.get(_it.paper) if _it.plot.stand_in else None,
        script:
            "../../scripts/render.py"
