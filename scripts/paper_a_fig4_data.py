"""Rule paper_a_fig4_data: nodes (with layout) and edges of G around a database, G_S edges marked."""

from privanomaly import io
from privanomaly.run import log as runlog
from privanomaly.paper_a import toy

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    nodes, edges = toy.sensitive_neighbourhood(p.center, p.beta, p.r, p.k, p.hops)
    nodes = toy.layout(nodes, str(tuple(p.center)))
    io.write_table(nodes, snakemake.output.nodes)
    io.write_table(edges, snakemake.output.edges)
