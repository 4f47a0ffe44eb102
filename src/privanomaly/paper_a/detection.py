"""Table 3: precision and recall of private anomaly identification, plus non-private PyOD references.

Private mechanisms (registry names in ``paper_a.mechanisms.detection``; the paper's: SP, optimal DP, the
two Laplace-threshold baselines) answer the AIQ of every record once; their precision/recall are reported exactly as ratios of expectations from the closed-form
output probabilities p_i = P(M(x) = 1):  E[TP] = Σ_{truth_i=1} p_i,  E[#flagged] = Σ_i p_i,
precision = E[TP]/E[#flagged], recall = E[TP]/#truth. Two truths are scored: the ground-truth labels and
the (β, r)-anomalies g(i, x) that the mechanisms are asked about.

Capped ball counts (``records.cap``): every probability is that of the mechanism actually run on the
stored counts — for the Laplace baselines the Laplace mechanism on min(B, cap), which has sensitivity 1
on G like the uncapped count and so carries the same claim; each row's ``note`` states the claim.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privanomaly.paper_a.errors import aiq_mechanisms
from privanomaly.paper_a.records import rec_cap

PAPER_TABLE3 = ("sp", "optimal_dp", "laplace_count", "laplace_noisy_threshold")
"""Registry names of Table 3's private rows in the paper."""
NON_PRIVATE_RULE = "(β,r)-anomaly, non-private"


def expected_pr(p_one: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """Ratio-of-expectations precision and recall of a randomised detector with P(flag_i) = p_one[i]."""
    p = np.asarray(p_one, float)
    t = np.asarray(truth).astype(bool)
    flagged = p.sum()
    tp = p[t].sum()
    precision = float(tp / flagged) if flagged > 0 else 0.0
    recall = float(tp / t.sum()) if t.sum() > 0 else np.nan
    return precision, recall


def mechanism_probs(rec: pd.DataFrame, beta: int, k: int, eps: float,
                    mechanism_names=PAPER_TABLE3) -> dict[str, np.ndarray]:
    """P(output 1) per record for every named private mechanism (by label) and the non-private (β,r) rule."""
    x_i = rec["x_i"].to_numpy()
    B = rec["B"].to_numpy()
    g = rec["anomaly"].to_numpy(dtype=bool)
    cap = rec_cap(rec)
    probs = {m.label: np.asarray(m.prob_one(x_i, B, beta=beta, k=k, eps=eps, cap=cap), float)
             for m in aiq_mechanisms(mechanism_names)}
    probs[NON_PRIVATE_RULE] = g.astype(float)
    return probs


def mechanism_notes(rec: pd.DataFrame, beta: int, k: int, eps: float, mechanism_names=PAPER_TABLE3) -> dict[str, str]:
    """The claim of every named mechanism as run on ``rec`` (capped counts included), by label."""
    cap = rec_cap(rec)
    out = {}
    for m in aiq_mechanisms(mechanism_names):
        c = m.claim(eps=eps, beta=beta, k=k, cap=cap)
        out[m.label] = f"{c.describe()}; {c.note}"
    return out


def private_rows(rec: pd.DataFrame, beta: int, k: int, eps: float, mechanism_names=PAPER_TABLE3) -> pd.DataFrame:
    """Expected precision/recall of every named private mechanism against labels and against g."""
    rows = []
    labels = rec["label"].to_numpy() == 1
    g = rec["anomaly"].to_numpy(dtype=bool)
    notes = mechanism_notes(rec, beta, k, eps, mechanism_names)
    for name, p in mechanism_probs(rec, beta, k, eps, mechanism_names).items():
        pl, rl = expected_pr(p, labels)
        pg, rg = expected_pr(p, g)
        rows.append(dict(method=name, private=name != NON_PRIVATE_RULE, eps=eps, k=k, precision_labels=pl,
                         recall_labels=rl, precision_br=pg, recall_br=rg, expected_flagged=float(p.sum()),
                         note=notes.get(name, "")))
    return pd.DataFrame(rows)


def pyod_rows(X: np.ndarray, rec: pd.DataFrame, detectors: dict[str, dict], seed_int: int,
              max_fit_rows: int | None = None) -> pd.DataFrame:
    """Non-private PyOD detectors thresholded at the labelled contamination (reference rows).

    With more than ``max_fit_rows`` records (credit card: 285k) each detector is fitted on a seeded
    subsample and every record is scored with ``decision_function``; the records whose score exceeds the
    (1 − contamination) quantile of the scores are flagged — PyOD's own rule for ``labels_``.
    """
    from pyod.models.iforest import IForest
    from pyod.models.knn import KNN
    from pyod.models.lof import LOF

    classes = {"KNN": KNN, "LOF": LOF, "IForest": IForest}
    labels = rec["label"].to_numpy() == 1
    g = rec["anomaly"].to_numpy(dtype=bool)
    contamination = float(np.clip(labels.mean(), 1e-4, 0.5))
    rows = []
    for name, kwargs in detectors.items():
        if name not in classes:
            raise ValueError(f"paper_a.pyod: unknown detector {name!r} (expected one of {sorted(classes)})")
        kw = dict(kwargs or {})
        if name == "IForest":
            kw.setdefault("random_state", seed_int)
        try:
            model = classes[name](contamination=contamination, **kw)
        except TypeError as exc:  # a misspelt keyword argument of the detector
            raise ValueError(f"config paper_a.pyod.{name}: {exc} (give keyword arguments of PyOD's {name})") from None
        if max_fit_rows is not None and len(X) > max_fit_rows:
            fit_idx = np.sort(np.random.default_rng(seed_int).choice(len(X), size=max_fit_rows, replace=False))
            model.fit(X[fit_idx])
            scores = np.asarray(model.decision_function(X), float)
            pred = (scores > np.quantile(scores, 1 - contamination)).astype(float)
        else:
            model.fit(X)
            pred = np.asarray(model.labels_).astype(float)
        pl, rl = expected_pr(pred, labels)
        pg, rg = expected_pr(pred, g)
        rows.append(dict(method=f"PyOD {name}", private=False, eps=np.nan, k=np.nan, precision_labels=pl,
                         recall_labels=rl, precision_br=pg, recall_br=rg, expected_flagged=float(pred.sum()),
                         note=""))
    return pd.DataFrame(rows)
