"""A sweep's ``r: {fraction: f}`` flags the share f of the records on every paper dataset, for both kinds:
paper A's (β, r)-anomalies (B ≤ β, Def. 2.1) and paper B's outliers (fewer than k other records within r on
paper B's scaled distance dist_S, Def. 8, as :func:`privanomaly.outliers.q_count` counts them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from privanomaly import outliers, sp
from privanomaly.datasets import build
from privanomaly.outliers.distance import RADIUS_RTOL, subspace_coords
from privanomaly.paper_a.selection import knn_radius_table
from privanomaly.sweeps import counts

ROOT = Path(__file__).resolve().parents[1]
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())
PAPER_A = [d for d in CONFIG["paper_a"]["datasets"] if d not in ("creditcard", "aps")]  # not mirrored
PAPER_B = list(CONFIG["paper_b"]["scenario1"]["datasets"]) + list(CONFIG["paper_b"]["scenario2"]["datasets"])
pytestmark = pytest.mark.mirror


def dataset(name: str) -> np.ndarray:
    entry = CONFIG["datasets"][name]
    paths = [str(MIRROR / f["path"]) for f in entry.get("files", [])]
    df, _ = build(name, entry, paths, CONFIG["seed"])
    return df.drop(columns="label").to_numpy(float)


def assert_share(flagged: int, d: np.ndarray, r: float, f: float) -> None:
    """``flagged`` of the records have d > r; the midpoint radius flags m = round(f n) of them, up to the
    records whose distance ties with r within the closed-ball tolerance - or, when the m-th and (m+1)-th
    largest d are equal, the nearest count a gap between distinct values allows (r is never a tied d)."""
    n = len(d)
    m = min(max(1, round(f * n)), n - 1)
    ties = int(np.sum(np.abs(d - r) <= 2 * RADIUS_RTOL * max(r, 1.0)))
    s = np.sort(d)[::-1]
    group = int(np.sum(d == s[m])) if s[m - 1] == s[m] else 0  # the tied values at the m-th largest
    assert abs(flagged - m) <= ties + group, (flagged, m, n, r)


@pytest.mark.parametrize("name", sorted(set(PAPER_B)))
@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("f", [0.05, 0.1, 0.2])
def test_paper_b_fraction_flags_that_share_of_outliers(name, k, f):
    X = dataset(name)
    r = counts.resolve_r_paper_b(X, "fraction", f, k)
    flagged = outliers.q_count(X, k, r)
    d = knn_radius_table(subspace_coords(X), [k])[:, 0]  # (k+1)-NN distance including the record itself
    assert_share(flagged, d, r, f)
    # the unscaled distance of the full space is √d times larger: reading r off it is the wrong radius
    if X.shape[1] > 1:
        assert r < counts.resolve_r(X, "fraction", f, k, "euclidean")


def test_paper_b_adult_b1_at_a_tenth_flags_about_ten_percent():
    X = dataset("adult_b1")
    for k in (1, 3, 5):
        r = counts.resolve_r_paper_b(X, "fraction", 0.1, k)
        assert outliers.q_count(X, k, r) == pytest.approx(0.1 * len(X), abs=1)


@pytest.mark.parametrize("name", PAPER_A)
@pytest.mark.parametrize("beta", [2, 10])
@pytest.mark.parametrize("f", [0.01, 0.05])
@pytest.mark.slow
def test_paper_a_fraction_flags_that_share_of_anomalies(name, beta, f):
    X = dataset(name)
    r = counts.resolve_r(X, "fraction", f, beta, "euclidean")
    flagged = int(np.sum(sp.ball_counts(X, r) <= beta))
    d = knn_radius_table(X, [beta])[:, 0]
    assert_share(flagged, d, r, f)
