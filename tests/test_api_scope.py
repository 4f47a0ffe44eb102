"""The scope of an API release (privanomaly.api): a claim is proven end to end only when nothing it rests on
was read off the released records - not (β, r) or r tuned on the labels (the default assumption, and always so
for a value choose_beta_r / choose_r chose on the same data, whatever ``tuned_on_data`` says), not z-scores
fitted on the data (load_csv's default), not paper A's query set when it is every record of the data (the
claim is per query, paper A Def. 2.2; the answers as a whole are indexed by the records: Claim 5)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import api
from privanomaly.__main__ import main


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(150, 2)), rng.normal(7.0, 0.3, size=(4, 2))])
    path = tmp_path_factory.mktemp("scope") / "d.csv"
    pd.DataFrame(X, columns=["a", "b"]).assign(cls=[0] * 150 + [1] * 4).to_csv(path, index=False)
    return path


def test_tuned_parameters_are_never_proven_end_to_end(csv):
    data = api.load_csv(csv, "cls", standardize=False)
    beta, r = api.choose_beta_r(data)
    rel = api.release_anomalies(data, beta=beta, r=r, eps=1.0)  # default: tuned_on_data=True
    assert not rel.claim.proven_end_to_end
    assert any("tuned on the labels" in d for d in rel.claim.data_dependent)
    # the user says "public", but the library chose this (β, r) on these very data
    lie = api.release_anomalies(data, beta=beta, r=r, eps=1.0, tuned_on_data=False)
    assert any(f"(β, r) = ({beta}, {r:.6g}) tuned" in d for d in lie.claim.data_dependent)
    r_b = api.choose_r(data, k=3)
    for tuned in (True, False):
        rb = api.release_outlier_count(data, k=3, r=r_b, eps=0.5, mechanism="gaussian_gs_upper", tuned_on_data=tuned)
        assert not rb.claim.proven_end_to_end
        assert rb.claim.data_dependent == (f"r = {r_b:.6g} tuned on the labels of the data",)
        assert "proven end to end: no" in rb.summary()


def test_standardisation_on_the_data_is_data_dependent(csv):
    data = api.load_csv(csv, "cls")  # z-scored on every record (default)
    rb = api.release_outlier_count(data, k=3, r=1.0, eps=0.5, mechanism="gaussian_gs_upper", tuned_on_data=False)
    assert rb.claim.data_dependent == ("standardisation fitted on the data",)
    assert not rb.claim.proven_end_to_end


def test_public_parameters_on_raw_features_are_proven_end_to_end(csv):
    """Not under-claimed: a configured r on raw features is a proven release (paper B, Theorem 1)."""
    data = api.load_csv(csv, "cls", standardize=False)
    rb = api.release_outlier_count(data, k=3, r=1.0, eps=0.5, mechanism="gaussian_gs_upper", tuned_on_data=False)
    assert rb.claim.data_dependent == () and rb.claim.proven_end_to_end
    assert rb.claim.public_inputs == ("ε, δ, k, N, d (bounded DP)", "r = 1")
    assert "proven end to end: yes" in rb.summary()


def test_paper_a_answers_for_every_record_are_private_per_query_only(csv):
    data = api.load_csv(csv, "cls", standardize=False)
    rel = api.release_anomalies(data, beta=3, r=0.5, eps=1.0, tuned_on_data=False)
    assert rel.claim.epsilon == pytest.approx(1.0) and rel.claim.public_inputs == ("ε, k (per query)", "(β, r) = (3, 0.5)")
    assert len(rel.claim.data_dependent) == 1 and "one answer per record" in rel.claim.data_dependent[0]
    assert not rel.claim.proven_end_to_end


def test_cli_states_the_scope(csv, capsys):
    assert main(["paper-b", str(csv), "--label", "cls", "--eps", "0.5", "--r", "1.0", "--no-standardize",
                 "--mechanism", "gaussian_gs_upper"]) == 0
    assert "proven end to end: yes" in capsys.readouterr().out
    assert main(["paper-b", str(csv), "--label", "cls", "--eps", "0.5", "--r", "1.0",
                 "--mechanism", "gaussian_gs_upper"]) == 0
    out = capsys.readouterr().out
    assert "proven end to end: no" in out and "standardisation fitted on the data" in out


def test_a_chosen_radius_stays_tuned_with_another_beta_or_rounded(csv):
    """β fixed by hand with the r that choose_beta_r read off the labels, or a chosen r rounded for a report:
    the radius is still the data's (was: "(β, r) = (5, r)" among the public inputs, and a rounded r from
    choose_r made a release proven end to end)."""
    data = api.load_csv(csv, "cls", standardize=False)
    beta, r = api.choose_beta_r(data)
    other = 5 if beta != 5 else 8
    rel = api.release_anomalies(data, beta=other, r=r, eps=1.0, tuned_on_data=False)
    assert f"β = {other}" in rel.claim.public_inputs
    assert f"r = {r:.6g} tuned on the labels of the data" in rel.claim.data_dependent
    assert not any("(β, r)" in p for p in rel.claim.public_inputs) and rel.tuned_on_data
    # the chosen β with a radius of one's own: β is the data's, r is public
    mine = api.release_anomalies(data, beta=beta, r=10 * r, eps=1.0, tuned_on_data=False)
    assert f"β = {beta} tuned on the labels of the data" in mine.claim.data_dependent
    assert f"r = {10 * r:.6g}" in mine.claim.public_inputs

    fresh = api.load_csv(csv, "cls", standardize=False)
    r_b = api.choose_r(fresh, k=3)
    rounded = round(r_b, 2) if round(r_b, 2) != r_b else r_b * 1.001
    rb = api.release_outlier_count(fresh, k=3, r=rounded, eps=0.5, mechanism="gaussian_gs_upper", tuned_on_data=False)
    assert not rb.claim.proven_end_to_end and "proven end to end: no" in rb.summary()
    assert rb.claim.data_dependent == (f"r = {rounded:.6g} (within 1% of r = {r_b:.6g}) tuned on the labels of the data",)
    # a radius far from every chosen one is public, as before
    far = api.release_outlier_count(fresh, k=3, r=2 * r_b, eps=0.5, mechanism="gaussian_gs_upper", tuned_on_data=False)
    assert far.claim.proven_end_to_end and f"r = {2 * r_b:.6g}" in far.claim.public_inputs
