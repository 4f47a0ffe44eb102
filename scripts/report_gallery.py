"""Rule report_gallery: a small PNG copy of one key figure in <results_dir>/gallery/ (`make gallery` copies them to
docs/gallery/ for the README)."""

from privanomaly.run import log as runlog
from privanomaly.report import gallery

with runlog.log_to(snakemake.log[0]) as log:
    src, dst = snakemake.input.figure, snakemake.output.png
    w, h = gallery.thumbnail(src, dst, snakemake.params.width)
    log.info("%s -> %s (%d x %d)", src, dst, w, h)
