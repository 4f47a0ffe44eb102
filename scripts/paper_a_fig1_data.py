"""Rule paper_a_fig1_data: the DP trade-off region and the minimum worst-case error 1/(1+e^ε)."""

import numpy as np

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.paper_a import toy

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    io.write_table(toy.dp_tradeoff_frontier(p.eps_values), snakemake.output.frontier)
    io.write_table(toy.dp_min_worst_error(np.linspace(0.0, p.eps_max, 201)), snakemake.output.minerr)
