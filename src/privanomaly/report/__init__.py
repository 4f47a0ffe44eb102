"""Researcher-facing outputs: the catalogue of reproduced items, results/index.md, the gallery.

No Snakemake inside: ``workflow/rules/report.smk`` and ``scripts/report_*.py`` call these functions.
"""
