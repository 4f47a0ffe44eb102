"""Rule paper_b_tables: Tables 1 and 2 of paper B, ours (tuned r) next to the printed values."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_b import tables

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    ours = {}
    for ds, data, choice in zip(p.datasets, snakemake.input.data, snakemake.input.choices):
        X, y, _ = experiment.load_dataset(data)
        ours[ds] = tables.dataset_summary(y, X.shape[1], p.k, experiment.read_choice(choice)["r"])
        log.info("%s: %s", ds, ours[ds])
    for name, sets, csv, md in (
        ("table1", p.table1, snakemake.output.csv1, snakemake.output.md1),
        ("table2", p.table2, snakemake.output.csv2, snakemake.output.md2),
    ):
        tidy = tables.paper_table(name, sets, ours, p.paper, p.names)
        io.write_table(tidy, csv)
        io.write_table(tables.wide_markdown_frame(tidy), md)
