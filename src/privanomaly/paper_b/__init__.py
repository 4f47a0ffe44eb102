"""Experiment logic of paper B (Okada, Fukuchi, Kakizaki, Sakuma, "Differentially Private Analysis of Outliers").

The outlier-count mathematics (sensitivities, Algorithms 1-3) lives in :mod:`privanomaly.outliers`; this
package only turns it into the paper's experiments:

* :mod:`.tuning` - the radius r maximising the detection accuracy of eq. (53) (Tables 1 and 2);
* :mod:`.bounds` - Fig. 1 (global-sensitivity bounds) and the Fig. 2 kissing construction;
* :mod:`.scenario1` - Figs. 3/4 (sigma_Global vs sigma_Smooth) under explicit noise conventions;
* :mod:`.scenario2` - Figs. 5-7 (top-h subspace discovery precision/recall);
* :mod:`.released_bound` - the smooth bound the experiments release (Algorithm 2 or the fast bound, by config);
* :mod:`.timing` - the timing benchmark (wall-clock times, Algorithm 2 cut by the work budget) and the safety
  timeout (never a budget);
* :mod:`.comparison` - paper-vs-ours verdicts for ``comparison.md``;
* :mod:`.plots` - figures drawn from the tidy tables only.
"""
