"""The rule of a catalogue item with a plot: or table: section (workflow/rules/report.smk): run the registered plot or table function the catalogue names."""

from privanomaly.run import log as runlog
from privanomaly.report import figures

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    render = figures.render if p.kind == "plot" else figures.render_table
    render(p.function, dict(snakemake.input.items()), p.plot_params, p.stand_in, list(snakemake.output))
