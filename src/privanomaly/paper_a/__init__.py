"""Paper A experiments (Asif, Papakonstantinou, Vaidya, CCS'19): parameter selection, sweeps, tables, claims.

The mechanisms and their exact error probabilities live in :mod:`privanomaly.sp`; this sub-package only
decides *which* records, parameters and grids to evaluate and turns the results into the tidy tables that
the plotting functions (:mod:`privanomaly.paper_a.plots`) read. No Snakemake here.
"""
