"""One grid point of a paper-A sweep: every mechanism's exact errors and expected precision/recall.

Per (dataset, β, r, k, ε) and mechanism, from the shared ball counts (:mod:`.counts`):

* ``error_anomaly`` / ``error_normal`` / ``error_all``: mean exact error P(M(x) != g(i, x)) over the
  (β, r)-anomalies, the other present records, all records (the error on a record drawn at random);
* ``error_absent``: the same over the absent query points (x_i = 0, g = 0); ``error_absent_void`` over
  those with an empty ball (B = 0: void spots);
* precision/recall as ratios of expectations (:func:`privanomaly.paper_a.detection.expected_pr`) against
  the labels and against the (β, r)-anomalies;
* ``share_k_sensitive``: the share of records that are k-sensitive (Lemma A.2: B >= β + 1 - k);
* the claim: ``claim_eps``, ``claim_delta``, ``neighbours``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly import sp
from privanomaly.paper_a.detection import expected_pr
from privanomaly.sweeps import mechanisms as mech_lookup


def _mean(v: np.ndarray) -> float:
    return float(v.mean()) if v.size else float("nan")


def point_rows(counts: pd.DataFrame, beta: int, k: int, eps: float, mechanisms: list[str], cap: int | None) -> pd.DataFrame:
    """One row per mechanism at one grid point (columns: module docstring)."""
    rec = counts[counts["kind"] == "record"]
    ab = counts[counts["kind"] == "absent"]
    x_i, B = rec["x_i"].to_numpy(), rec["B"].to_numpy()
    Bab = ab["B"].to_numpy()
    g = np.asarray(sp.is_anomaly(x_i, B, beta)).astype(bool)
    labels = rec["label"].to_numpy() == 1
    sens = np.asarray(sp.is_k_sensitive(B, beta, k))
    void = Bab == 0
    rows = []
    for name in mechanisms:
        m = mech_lookup.lookup(name)
        err = np.asarray(m.error(x_i, B, beta, k, eps, cap), dtype=float)
        err_ab = np.asarray(m.error(np.zeros_like(Bab), Bab, beta, k, eps, cap), dtype=float) if len(Bab) else np.zeros(0)
        p_one = np.asarray(sp.prob_one(err, g.astype(np.int8)), dtype=float)
        pl, rl = expected_pr(p_one, labels)
        pg, rg = expected_pr(p_one, g)
        claim_eps, claim_delta = m.claim(eps)
        rows.append(
            {
                "mechanism": name,
                "n_records": int(len(rec)),
                "n_anomalies": int(g.sum()),
                "n_labelled": int(labels.sum()),
                "n_absent": int(len(ab)),
                "n_absent_void": int(void.sum()),
                "error_anomaly": _mean(err[g]),
                "error_normal": _mean(err[~g]),
                "error_all": _mean(err),
                "error_absent": _mean(err_ab),
                "error_absent_void": _mean(err_ab[void]),
                "precision_labels": pl,
                "recall_labels": rl,
                "precision_br": pg,
                "recall_br": rg,
                "share_k_sensitive": _mean(sens.astype(float)),
                "share_k_sensitive_anomalies": _mean(sens[g].astype(float)),
                "claim_eps": claim_eps,
                "claim_delta": claim_delta,
                "neighbours": m.neighbours,
                "reference": m.reference,
            }
        )
    return pd.DataFrame(rows)
