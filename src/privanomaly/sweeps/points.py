"""One grid point of a paper-A sweep: every mechanism's exact errors and expected precision/recall.

Per (dataset, β, r, k, ε) and mechanism, from the shared ball counts (:mod:`.counts`):

* ``error_anomaly`` / ``error_normal`` / ``error_all``: mean exact error P(M(x) != g(i, x)) over the
  (β, r)-anomalies, the other present records, all records (the error on a record drawn at random);
  ``median_error_anomaly`` and ``frac_anomaly_below_1e2`` (the share of anomalies erring below 0.01): claim
  A1's "zero for all practical purposes" at every grid point;
* ``error_absent``: the same over the absent query points (x_i = 0, g = 0); ``error_absent_void`` over
  those with an empty ball (B = 0: void spots);
* precision/recall as ratios of expectations (:func:`privanomaly.paper_a.detection.expected_pr`) against
  the labels and against the (β, r)-anomalies;
* ``share_k_sensitive``: the share of records that are k-sensitive (Lemma A.2: B >= β + 1 - k);
* the claim of the mechanism at this point (:meth:`privanomaly.mechanisms.Mechanism.claim`): ``claim_eps``
  (the ε actually spent, e.g. the rational noise rate), ``claim_delta``, ``neighbours`` (relation key of
  :data:`privanomaly.mechanisms.NEIGHBOUR_RELATIONS`), ``claim_proven``.

Mechanisms are looked up by registry name (:mod:`privanomaly.mechanisms`, family ``aiq``); an absent
query point is x_i = 0 (g = 0).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly import mechanisms, sp
from privanomaly.paper_a.detection import expected_pr


def _mean(v: np.ndarray) -> float:
    return float(v.mean()) if v.size else float("nan")


def aiq_mechanism(name: str) -> mechanisms.AIQMechanism:
    """The registered paper-A mechanism ``name``; a name of another family raises naming the family."""
    m = mechanisms.get(name)
    if not isinstance(m, mechanisms.AIQMechanism):
        raise ValueError(f"mechanism {name!r} is a {m.family!r} mechanism; paper-A sweeps take one of "
                         f"{mechanisms.names('aiq')}")
    return m


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
        m = aiq_mechanism(name)
        err = np.asarray(m.error(x_i, B, beta=beta, k=k, eps=eps, cap=cap), dtype=float)
        err_ab = (np.asarray(m.error(np.zeros_like(Bab), Bab, beta=beta, k=k, eps=eps, cap=cap), dtype=float)
                  if len(Bab) else np.zeros(0))
        p_one = np.asarray(sp.prob_one(err, g.astype(np.int8)), dtype=float)
        pl, rl = expected_pr(p_one, labels)
        pg, rg = expected_pr(p_one, g)
        claim = m.claim(beta=beta, k=k, eps=eps, cap=cap)
        rows.append(
            {
                "mechanism": name,
                "label": m.label,
                "n_records": int(len(rec)),
                "n_anomalies": int(g.sum()),
                "n_labelled": int(labels.sum()),
                "n_absent": int(len(ab)),
                "n_absent_void": int(void.sum()),
                "error_anomaly": _mean(err[g]),
                "median_error_anomaly": float(np.median(err[g])) if g.any() else float("nan"),
                "frac_anomaly_below_1e2": _mean((err[g] < 1e-2).astype(float)),
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
                "claim_eps": float(claim.epsilon),
                "claim_delta": float(claim.delta),
                "neighbours": claim.neighbours,
                "claim_proven": bool(claim.proven),
                "reference": f"paper {m.paper}, {m.reference}",
            }
        )
    return pd.DataFrame(rows)
