"""Rule paper_b_paper_r: the tuning record at the paper's printed r - every later rule of the
"paper's r" reading reads its r from here, as ours reads the tuned one from paper_b_tune_r."""

from privanomaly import experiment, io
from privanomaly.run import log as runlog
from privanomaly.paper_b import tuning

with runlog.log_to(snakemake.log[0]) as log:
    p = snakemake.params
    ds = snakemake.wildcards.pb_dataset
    if p.r is None:
        raise ValueError(f"config paper_b.paper_reported.r: no printed r for {ds!r}")
    X, y, _ = experiment.load_dataset(snakemake.input.data)
    choice = {"dataset": ds, "r_source": "paper_b.paper_reported.r", **tuning.choice_at(X, y, p.k, p.r, p.space)}
    log.info("paper's r = %.4g (space %s): accuracy %.4f", choice["r"], p.space, choice["accuracy"])
    io.write_json(snakemake.output.choice, choice)
