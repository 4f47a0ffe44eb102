"""Rule report_gallery: a small PNG copy of one key figure (README gallery, docs/gallery/)."""

from privanomaly import runlog
from privanomaly.report import gallery

with runlog.log_to(snakemake.log[0]) as log:  # noqa: F821 - injected by Snakemake
    src, dst = snakemake.input.figure, snakemake.output.png  # noqa: F821
    w, h = gallery.thumbnail(src, dst, snakemake.params.width)  # noqa: F821
    log.info("%s -> %s (%d x %d)", src, dst, w, h)
