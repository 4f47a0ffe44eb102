"""Paper B Scenario 2 enumerates every C(d, subspace_dim) candidate subspace: on wide data with subspace_dim >= 2
that count explodes (C(100, 3) = 161,700), so more than ``paper_b.scenario2.max_subspaces`` is an error naming
the key and the count before any subspace is enumerated."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from privanomaly.config.check import check_config, merged_config
from privanomaly.paper_b import scenario2

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")


def _data(d: int, n: int = 12):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d))
    X[0] += 8.0  # one clear outlier
    y = np.zeros(n, dtype=int)
    y[0] = 1
    return X, y


def test_too_many_subspaces_is_an_error_before_enumerating(monkeypatch):
    X, y = _data(100)

    def enumerate_forbidden(d, size):
        raise AssertionError(f"enumerated C({d}, {size}) subspaces")

    monkeypatch.setattr(scenario2.ol, "all_subspaces", enumerate_forbidden)
    with pytest.raises(ValueError) as exc:
        scenario2.subspace_table(X, y, 2, 1.0, 3, "labelled_outlier", 1)
    msg = str(exc.value)
    assert msg.startswith("config paper_b.scenario2.subspace_dim: 3 on data with 100 columns gives "
                          "C(100, 3) = 161,700 candidate subspaces, more than paper_b.scenario2.max_subspaces "
                          "= 1,000"), msg
    assert "use a smaller subspace_dim" in msg and "raise paper_b.scenario2.max_subspaces" in msg, msg


def test_the_limit_is_a_parameter_and_inclusive():
    X, y = _data(6)
    subs = scenario2.subspace_table(X, y, 2, 1.0, 2, "labelled_outlier", 1, max_subspaces=15)  # C(6, 2) = 15
    assert len(subs) == 15 and subs["attributes"].iloc[0] == "1,2" and subs["attributes"].iloc[-1] == "5,6"
    with pytest.raises(ValueError, match=r"C\(6, 2\) = 15 candidate subspaces, more than "
                                         r"paper_b\.scenario2\.max_subspaces = 14"):
        scenario2.subspace_table(X, y, 2, 1.0, 2, "labelled_outlier", 1, max_subspaces=14)
    # the paper's setting (subspace_dim 1) on a 34-column dataset (Ionosphere) is within the default
    X, y = _data(34)
    assert len(scenario2.subspace_table(X, y, 2, 1.0, 1, "labelled_outlier", 1)) == 34


def test_config_default_and_bounds(tmp_path):
    files = [str(ROOT / "config.yaml")]
    cfg = check_config(merged_config(files), SCHEMA, files)
    assert cfg["paper_b"]["scenario2"]["max_subspaces"] == scenario2.MAX_SUBSPACES == 1000
    over = tmp_path / "o.yaml"
    over.write_text("paper_b:\n  scenario2:\n    max_subspaces: 0\n")
    files.append(str(over))
    with pytest.raises(Exception, match=r"config key paper_b\.scenario2\.max_subspaces .*0 is less than the "
                                        r"minimum of 1"):
        check_config(merged_config(files), SCHEMA, files)
