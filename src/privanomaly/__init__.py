"""privanomaly: reference implementation of two papers on private anomaly identification.

* Paper A - Asif, Papakonstantinou, Vaidya, "How to Accurately and Privately Identify Anomalies", CCS 2019
  (sensitive privacy; sub-package :mod:`privanomaly.sp`).
* Paper B - Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers"
  (sensitivity of outlier counts; sub-package :mod:`privanomaly.outliers`).

The library holds all the math; Snakemake rules only call it through the thin scripts in ``scripts/``.
"""

__version__ = "0.1.0"
