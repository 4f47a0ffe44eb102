"""The library without Snakemake (privanomaly.api, ``python -m privanomaly``): load a CSV, choose the
parameters, release with a registered mechanism, print the claim; masks are bool (``sp.is_anomaly``
returned int8, and ``records[mask]`` then picked rows 0 and 1 instead of the anomalies)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from privanomaly import api, sp
from privanomaly.__main__ import main


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(200, 3)), rng.normal(6.0, 0.5, size=(5, 3))])
    df = pd.DataFrame(X, columns=["a", "b", "c"]).assign(cls=["no"] * 200 + ["yes"] * 5)
    path = tmp_path_factory.mktemp("api") / "mine.csv"
    df.to_csv(path, index=False)
    return path


def test_is_anomaly_is_a_boolean_mask():
    x_i, B = np.array([1, 1, 1, 1, 0]), np.array([2, 9, 1, 9, 0])
    g = sp.is_anomaly(x_i, B, 3)
    assert g.dtype == bool
    records = np.array([10, 11, 12, 13, 14])
    assert records[g].tolist() == [10, 12]  # int8 [1, 0, 1, 0, 0] would have given [11, 10, 11, 10, 10]


@pytest.mark.slow
def test_paper_a_release_is_seeded_bool_and_states_its_claim(csv):
    data = api.load_csv(csv, "cls", ["yes"])
    assert data.X.shape == (205, 3) and int(data.y.sum()) == 5
    assert np.allclose(data.X.mean(axis=0), 0) and np.allclose(data.X.std(axis=0), 1)  # z-scored
    beta, r = api.choose_beta_r(data)
    rel = api.release_anomalies(data, beta=beta, r=r, eps=1.0, mechanism="sp", k=1, seed=3)
    again = api.release_anomalies(data, beta=beta, r=r, eps=1.0, mechanism="sp", k=1, seed=3)
    assert rel.values.dtype == bool and len(rel.values) == 205
    np.testing.assert_array_equal(rel.values, again.values)
    assert rel.claim.epsilon == pytest.approx(1.0, rel=1e-6) and rel.claim.neighbours == "sensitive_k"
    assert int(rel.truth.sum()) >= 1 and len(data.frame[rel.values]) == int(rel.values.sum())
    text = rel.summary()
    assert "claim: 1-SP on sensitive_k" in text and "not account for" in text


def test_paper_b_release_states_its_claim(csv):
    data = api.load_csv(csv, "cls", ["yes"])
    rel = api.release_outlier_count(data, k=3, r=1.0, eps=0.5, mechanism="gaussian_gs_upper", seed=1,
                                    tuned_on_data=False)
    assert isinstance(rel.values, float) and rel.truth >= 0
    assert rel.claim.delta == 0.01 and rel.claim.neighbours == "substitution"
    assert "not account" not in rel.summary()
    with pytest.raises(ValueError, match="not a paper-A mechanism"):
        api.release_anomalies(data, beta=5, r=1.0, eps=1.0, mechanism="gaussian_gs_upper")


def test_load_csv_errors_name_the_cell(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,cls\n1.0,no\nx,yes\n2.0,no\n")
    with pytest.raises(ValueError, match=r"column 'a', data row 2: 'x' is not a number"):
        api.load_csv(bad, "cls", ["yes"])
    with pytest.raises(ValueError, match="no label column 'y'"):
        api.load_csv(bad, "y")


def test_cli_prints_the_claim_and_writes_answers(csv, tmp_path, capsys):
    out = tmp_path / "flags.csv"
    assert main(["paper-a", str(csv), "--label", "cls", "--anomaly-values", "yes", "--eps", "1", "--beta", "5",
                 "--r", "1.0", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "claim: 1-SP on sensitive_k" in text and "parameters: beta = 5, r = 1" in text
    flags = pd.read_csv(out)
    assert list(flags.columns) == ["row", "released", "exact_answer"] and len(flags) == 205  # was "true_anomaly"
    assert main(["paper-b", str(csv), "--label", "cls", "--anomaly-values", "yes", "--eps", "0.5", "--r", "1.0",
                 "--mechanism", "gaussian_gs_upper"]) == 0
    assert "claim: (0.5, 0.01)-DP on substitution" in capsys.readouterr().out
    assert main(["paper-a", str(csv), "--label", "cls", "--eps", "1", "--beta", "5"]) == 2
    assert "give both --beta and --r" in capsys.readouterr().err


# ---------------------------------------------------------------- bad arguments: a clear error, never a traceback
@pytest.mark.parametrize("make, expected", [
    (lambda t: t / "absent.csv", r"absent\.csv: no such file"),
    (lambda t: (t / "dir.csv").mkdir() or t / "dir.csv", r"dir\.csv: is a directory, not a CSV file"),
    (lambda t: (t / "empty.csv").write_text("") and t / "empty.csv" or t / "empty.csv",
     r"empty\.csv: the file is empty \(no header, no rows\)"),
])
def test_cli_names_a_missing_or_unreadable_csv(tmp_path, capsys, make, expected):
    path = make(tmp_path)
    assert main(["paper-a", str(path), "--label", "cls", "--eps", "1"]) == 2  # was a FileNotFoundError traceback
    assert re.search(expected, capsys.readouterr().err)


@pytest.mark.parametrize("eps", ["0", "-1", "nan", "inf"])
@pytest.mark.parametrize("command", [["paper-a", "--beta", "5", "--r", "1"], ["paper-b", "--r", "0.5"]])
def test_cli_names_a_bad_eps(csv, capsys, eps, command):
    assert main([command[0], str(csv), "--label", "cls", "--anomaly-values", "yes", "--eps", eps, *command[1:]]) == 2
    value = int(eps) if eps.lstrip("-").isdigit() else float(eps)
    assert f"eps must be a number in [1e-9, 700], got {value!r}" in capsys.readouterr().err  # was "rate"/"epsilon"


def test_numeric_label_read_as_floats_matches_the_anomaly_value(tmp_path):
    # a label column with a float (or a missing-then-filled) dtype: "1" must match 1.0, as in the pipeline
    df = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10.0) ** 2, "cls": [0.0] * 8 + [1.0] * 2})
    df.to_csv(tmp_path / "f.csv", index=False)
    data = api.load_csv(tmp_path / "f.csv", "cls", ["1"])
    assert data.y.tolist() == [False] * 8 + [True] * 2  # was: no anomaly at all ("1.0" != "1" as text)


def test_label_as_a_feature_is_refused(csv):
    with pytest.raises(ValueError, match=r"the label column 'cls' cannot also be a feature"):
        api.load_csv(csv, "cls", ["yes"], features=["a", "cls"])


def test_cli_out_naming_a_directory_is_a_clear_error(csv, tmp_path, capsys):
    (tmp_path / "flags.csv").mkdir()
    argv = ["paper-a", str(csv), "--label", "cls", "--anomaly-values", "yes", "--eps", "1", "--beta", "5", "--r",
            "1", "--out", str(tmp_path / "flags.csv")]
    assert main(argv) == 2  # was an IsADirectoryError traceback naming the temporary file
    assert "flags.csv: is a directory, not a file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flags.csv"]


def test_algorithm2_on_data_predicted_past_the_work_budget_is_refused_up_front(csv, capsys):
    # 205 records in 3-D: the exponential Algorithm 2 ran for minutes with no word (the pipeline's guard was missing)
    argv = ["paper-b", str(csv), "--label", "cls", "--anomaly-values", "yes", "--eps", "0.5", "--r", "0.5",
            "--mechanism", "gaussian_smooth_paper"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "N = 205 records in 3-D" in err and "use mechanism gaussian_smooth_fast" in err, err
    data = api.load_csv(csv, "cls", ["yes"])
    small = api.Data(data.X[:40, :2], data.y[:40], data.features[:2], data.frame.iloc[:40], "small")
    rel = api.release_outlier_count(small, k=3, r=0.5, eps=0.5, mechanism="gaussian_smooth_paper", seed=1)
    assert np.isfinite(rel.values)  # 2-D: Algorithm 2 is proven to fit (at most 2 (N + 1) units)


@pytest.mark.parametrize("rows, words", [
    ([(1.0, 2.0, 1)], "1 row(s) in the CSV; at least 2"),
    ([(1.0, 2.0, 0), (2.0, 3.0, 0)],
     "no anomaly (every label is 0) in 2 rows in the CSV; the (β, r) selection (F1) and paper B's r tuning "
     "(accuracy) need both classes: check label='cls' and anomaly_values=[1] (the CLI's --label and "
     "--anomaly-values)"),
    ([(1.0, 2.0, 1), (2.0, 3.0, 1)], "only anomalies (every label is 1) in 2 rows in the CSV"),
    ([(1.0, 2.0, 0), (1.0, 2.0, 0), (1.0, 2.0, 1)],
     "all 3 rows are identical in the CSV (every distance is 0, so no record differs from another); check "
     "features= (the CLI's --features: the feature columns) and the CSV"),
], ids=["one_row", "no_anomaly", "all_anomalies", "identical_rows"])
def test_degenerate_csv_is_worded_for_the_api_not_the_config(tmp_path, rows, words):
    path = tmp_path / "mine.csv"
    pd.DataFrame(rows, columns=["a", "b", "cls"]).to_csv(path, index=False)
    with pytest.raises(ValueError) as exc:
        api.load_csv(path, label="cls", anomaly_values=[1])
    msg = str(exc.value)
    assert msg.startswith(f"{path}: ") and words in msg, msg
    assert "datasets." not in msg and "preprocess" not in msg, msg  # no pipeline config key


def test_cli_degenerate_csv_names_its_options(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    pd.DataFrame({"a": [1.0, 2.0, 3.0], "cls": ["no", "no", "no"]}).to_csv(path, index=False)
    assert main(["paper-a", str(path), "--label", "cls", "--anomaly-values", "yes", "--eps", "1"]) != 0
    err = capsys.readouterr().err
    assert "check label='cls' and anomaly_values=['yes'] (the CLI's --label and --anomaly-values)" in err, err
    assert "datasets." not in err, err


# ---------------------------------------------------------------- empty cells: never read as a normal record or a number
def _with_gaps(tmp_path):
    path = tmp_path / "gaps.csv"
    path.write_text("id,a,b,cls\n0,1.0,2.0,no\n1,2.0,,no\n2,3.0,1.0,yes\n3,4.0,4.0,no\n4,5.0,5.5,no\n"
                    "5,9.0,9.0,yes\n")
    return path


def test_a_row_without_a_label_is_an_error_not_a_normal_record(tmp_path):
    path = tmp_path / "nolabel.csv"
    path.write_text("a,b,cls\n1,2,no\n2,3,\n3,1,yes\n4,4,no\n5,5,no\n")
    # was: the unlabelled record was silently a normal one (y = [F, F, T, F, F])
    with pytest.raises(ValueError, match=r"label column 'cls', data row 2 is empty \(1 row\(s\) have no label\)"):
        api.load_csv(path, "cls", ["yes"])
    with pytest.raises(ValueError, match="no label"):
        api.load_csv(path, "cls", ["yes"], missing="drop")  # as the pipeline: labels are never dropped silently


def test_an_empty_feature_cell_is_named_and_can_drop_its_row(tmp_path, capsys):
    path = _with_gaps(tmp_path)
    with pytest.raises(ValueError) as err:
        api.load_csv(path, "cls", ["yes"])
    text = str(err.value)
    assert "column 'b', data row 2 is empty (a missing value; 1 row(s) have one)" in text
    assert "missing='drop'" in text and "--missing drop" in text and "np.float64" not in text  # was np.float64(nan)
    data = api.load_csv(path, "cls", ["yes"], missing="drop", standardize=False)
    assert data.frame["id"].tolist() == [0, 2, 3, 4, 5] and data.y.tolist() == [False, True, False, False, True]
    assert data.X[:, 2].tolist() == [2.0, 1.0, 4.0, 5.5, 9.0] and data.fitted_on_data == ()
    with pytest.raises(ValueError, match="missing must be 'error' or 'drop'"):
        api.load_csv(path, "cls", ["yes"], missing="impute")
    # the CLI: --missing drop, and --out's rows are the CSV's data rows (0-based), the dropped one absent
    out = tmp_path / "flags.csv"
    assert main(["paper-a", str(path), "--label", "cls", "--anomaly-values", "yes", "--eps", "1", "--beta", "1",
                 "--r", "1.0", "--features", "a", "b", "--missing", "drop", "--out", str(out)]) == 0
    assert pd.read_csv(out)["row"].tolist() == [0, 2, 3, 4, 5]
    assert main(["paper-a", str(path), "--label", "cls", "--anomaly-values", "yes", "--eps", "1"]) == 2
    assert "data row 2 is empty" in capsys.readouterr().err


def test_load_csv_refuses_a_nameless_column_unless_features_are_listed(tmp_path):
    """A CSV written by pandas' ``to_csv`` with its index has a first column without a header name: by default it
    is not silently taken as a feature (the pipeline refuses it too); listing the features reads the file."""
    path = tmp_path / "indexed.csv"
    pd.DataFrame({"a": [0.0, 1.0, 2.0, 9.0], "b": [1.0, 0.0, 1.0, 5.0], "y": [0, 0, 0, 1]}).to_csv(path)
    assert path.read_text().splitlines()[0] == ",a,b,y"
    with pytest.raises(ValueError, match=r"indexed\.csv: column\(s\) \['Unnamed: 0'\] have no name.*features="):
        api.load_csv(path, "y", standardize=False)
    data = api.load_csv(path, "y", features=["a", "b"], standardize=False)
    assert data.features == ["a", "b"]
    assert data.X.tolist() == [[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [9.0, 5.0]]
    assert data.y.tolist() == [False, False, False, True]


@pytest.mark.parametrize("cell", ["inf", "-inf", "1e400"])
@pytest.mark.parametrize("standardize", [True, False])
def test_an_infinite_feature_is_named_not_loaded(tmp_path, cell, standardize):
    # it was loaded (a column of NaN after z-scores, or inf); choose_beta_r then failed in scikit-learn with
    # "data must be finite" naming neither the file nor the cell
    p = tmp_path / "mine.csv"
    p.write_text(f"a,b,label\n0.1,1,0\n0.2,2,0\n{cell},9,1\n0.3,1,0\n")
    with pytest.raises(ValueError, match=rf"mine\.csv: column 'a', data row 3: '{re.escape(str(float(cell)))}' is not "
                                         r"a finite number"):
        api.load_csv(p, "label", standardize=standardize)


def test_a_column_whose_z_scores_overflow_is_named(tmp_path):
    p = tmp_path / "mine.csv"
    p.write_text("a,b,label\n1e308,1,0\n-1e308,2,0\n1e308,9,1\n0.3,1,0\n")
    with pytest.raises(ValueError, match=r"mine\.csv: column\(s\) \['a'\] cannot be standardised: values too large"):
        api.load_csv(p, "label")
    assert np.isfinite(api.load_csv(p, "label", standardize=False).X).all()  # as they are, they are finite


def test_a_label_word_pandas_takes_for_missing_is_a_label(tmp_path):
    # labels None / Attack: the None rows were "empty" label cells, an error
    p = tmp_path / "mine.csv"
    p.write_text("a,b,label\n0.1,1,None\n0.2,2,None\n5,9,Attack\n0.3,1,None\n")
    data = api.load_csv(p, "label", ["Attack"])
    assert data.y.tolist() == [False, False, True, False]


# ------------------------------------------------- the API's integer and range arguments: an error, never a cut
@pytest.fixture(scope="module")
def data(csv):
    return api.load_csv(csv, "cls", ["yes"])


@pytest.mark.parametrize("kwargs, expected", [
    ({"beta": 2.5}, "beta must be a whole number >= 1, got 2.5"),  # was silently beta = 2
    ({"beta": 0}, "beta must be a whole number >= 1, got 0"),
    ({"beta": True}, "beta must be a whole number >= 1, got True"),
    ({"k": 1.5}, "k must be a whole number >= 1, got 1.5"),  # was silently k = 1
    ({"r": -1.0}, "r must be a finite number >= 0, got -1.0"),
    ({"r": "wide"}, "r must be a finite number >= 0, got 'wide'"),
    ({"eps": "one"}, "eps must be a number in [1e-9, 700], got 'one'"),
])
def test_release_anomalies_refuses_a_bad_argument(data, kwargs, expected):
    args = {"beta": 5, "r": 1.0, "eps": 1.0, "k": 1} | kwargs
    with pytest.raises(ValueError, match=re.escape(expected)):
        api.release_anomalies(data, **args)


def test_release_anomalies_takes_r_zero_the_ball_of_a_records_own_copies(data):
    # paper A's balls are closed: at r = 0 a record's ball holds its copies only (privanomaly.sp.balls, r >= 0)
    rel = api.release_anomalies(data, beta=2, r=0.0, eps=1.0, seed=3)
    assert rel.truth.all()  # no record of the fixture has a copy: every one is a (2, 0)-anomaly


def test_release_anomalies_takes_a_whole_float_beta_as_that_integer(data):
    a = api.release_anomalies(data, beta=5.0, r=1.0, eps=1.0, seed=3)
    b = api.release_anomalies(data, beta=5, r=1.0, eps=1.0, seed=3)
    assert a.params["beta"] == 5 and (a.values == b.values).all()


@pytest.mark.parametrize("kwargs, expected", [
    ({"k": 2.5}, "k must be a whole number >= 1, got 2.5"),
    ({"k": 0}, "k must be a whole number >= 1, got 0"),
    ({"r": float("nan")}, "r must be a finite number > 0, got nan"),
    ({"r": 0.0}, "r must be a finite number > 0, got 0.0"),  # paper B's balls need r > 0
    ({"delta": 1.0}, "delta must be a number in (0, 1), got 1.0"),
    ({"delta": 0}, "delta must be a number in (0, 1), got 0"),
])
def test_release_outlier_count_refuses_a_bad_argument(data, kwargs, expected):
    args = {"k": 2, "r": 1.0, "eps": 1.0} | kwargs
    with pytest.raises(ValueError, match=re.escape(expected)):
        api.release_outlier_count(data, **args)


# ------------------------------------------------- every input answered clearly: formats, bounds, types, σ, labels
def _formats(tmp_path, csv):
    """The fixture's data as the pipeline's three formats (the npz: arrays X and y)."""
    df = pd.read_csv(csv)
    df.to_parquet(tmp_path / "mine.parquet")
    np.savez(tmp_path / "mine.npz", X=df[["a", "b", "c"]].to_numpy(), y=(df["cls"] == "yes").to_numpy(int))
    return tmp_path / "mine.parquet", tmp_path / "mine.npz"


def test_cli_reads_npz_and_parquet_as_the_csv(csv, tmp_path, capsys):
    # the CLI read CSV only, and on an .npz advised "set format: npz", an option it did not have
    parquet, npz = _formats(tmp_path, csv)
    released = {}
    for path, label in ((csv, ["--label", "cls", "--anomaly-values", "yes"]), (parquet, ["--label", "cls",
                        "--anomaly-values", "yes"]), (npz, ["--label", "y"])):
        assert main(["paper-a", str(path), *label, "--eps", "1", "--beta", "5", "--r", "1"]) == 0
        released[path.suffix] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("released:")]
    assert released[".csv"] == released[".parquet"] == released[".npz"] and len(released[".csv"]) == 1
    assert api.load(npz, "y").features == ["x0", "x1", "x2"]


def test_a_file_read_as_another_format_says_which_it_is(csv, tmp_path, capsys):
    parquet, npz = _formats(tmp_path, csv)
    with pytest.raises(ValueError, match=r"mine\.npz: is an \.npz archive, not csv: read it with format='npz'"):
        api.load_csv(npz, "y")
    assert main(["paper-b", str(parquet), "--format", "npz", "--label", "cls", "--eps", "1"]) == 2
    assert "mine.parquet: is a Parquet file, not npz" in capsys.readouterr().err
    assert main(["paper-a", str(npz), "--label", "labels", "--eps", "1"]) == 2
    err = capsys.readouterr().err
    assert "no array 'labels' (label (the CLI's --label)); the file has ['X', 'y']" in err and "format:" not in err


@pytest.mark.parametrize("release, kwargs", [
    (api.release_anomalies, {"beta": 5, "r": 1.0, "eps": 1e308}),  # was OverflowError
    (api.release_outlier_count, {"k": 3, "r": 1.0, "eps": 710.0}),  # was "math range error"
    (api.release_outlier_count, {"k": 3, "r": 1.0, "eps": 1e-10}),
])
def test_eps_outside_the_pipelines_bounds_is_refused_with_its_message(data, release, kwargs):
    with pytest.raises(ValueError, match=re.escape(f"eps must be a number in [1e-9, 700], got {kwargs['eps']!r} "
                                                   "(at least 1e-9: the exact samplers take rational rates")):
        release(data, **kwargs)


def test_the_eps_bounds_are_those_of_the_pipelines_eps_grids(tmp_path):
    import yaml

    from privanomaly.config.check import DEFAULT_SCHEMA

    sweep_eps = yaml.safe_load(DEFAULT_SCHEMA.read_text())["properties"]["sweeps"]["additionalProperties"][
        "properties"]["eps"]["items"]
    assert (sweep_eps["minimum"], sweep_eps["maximum"]) == (api.EPS_MIN, api.EPS_MAX) == (1e-9, 700.0)
    sweep_desc = yaml.safe_load(DEFAULT_SCHEMA.read_text())["properties"]["paper_b"]["properties"]["scenario1"][
        "properties"]["eps"]["description"]
    assert api.EPS_BOUNDS_WHY in " ".join(sweep_desc.split())  # the pipeline's words
    tiny = tmp_path / "tiny.csv"
    tiny.write_text("a,b,cls\n0,0,0\n1,0,0\n0,1,0\n5,5,1\n")
    rel = api.release_anomalies(api.load_csv(tiny, "cls"), beta=1, r=1.0, eps=700)  # the bound itself is taken
    assert rel.params["eps"] == 700.0 and rel.values.tolist() == rel.truth.tolist()  # at ε = 700 SP answers exactly


@pytest.mark.parametrize("kwargs, name", [({"eps": "1"}, "eps"), ({"beta": "5"}, "beta"), ({"r": "1.0"}, "r"),
                                          ({"k": "1"}, "k"), ({"seed": "3"}, "seed")])
def test_every_numeric_argument_refuses_text_alike(data, kwargs, name):
    # eps="1" was accepted while beta="5" was refused: one rule now, numbers only (the CLI converts its options)
    args = {"beta": 5, "r": 1.0, "eps": 1.0, "k": 1} | kwargs
    with pytest.raises(ValueError, match=rf"^{name} must be .*, got {re.escape(repr(kwargs[name]))} \(text: pass the "
                                         "number itself\\)$"):
        api.release_anomalies(data, **args)
    assert api.release_anomalies(data, **(args | {name: np.float64(float(kwargs[name]))})).params[name] == float(
        kwargs[name])  # a numpy number is a number


def test_a_wrong_type_names_the_argument_and_what_was_expected(data, csv):
    with pytest.raises(TypeError, match=r"^data must be a privanomaly\.api\.Data \(from api\.load\(path, label=\.\.\.\)"
                                        r".*got numpy\.ndarray$"):  # was a bare AttributeError
        api.release_anomalies(data.X, beta=5, r=1.0, eps=1.0)
    for call in (lambda d: api.choose_beta_r(d), lambda d: api.choose_r(d),
                 lambda d: api.release_outlier_count(d, k=3, r=1.0, eps=1.0)):
        with pytest.raises(TypeError, match="^data must be a privanomaly.api.Data"):
            call(pd.read_csv(csv))
    with pytest.raises(TypeError, match=r"^path must be a file path \(a str or a pathlib\.Path\), got int 3$"):
        api.load(3, "cls")  # was a bare TypeError


def test_paper_b_summary_shows_sigma_and_says_when_it_exceeds_the_data(data):
    # cardio printed "released: -3089.96 (true count 41)" with no σ and no word that σ (about 5,000) > N (1,831)
    noisy = api.release_outlier_count(data, k=3, r=1.0, eps=0.01, seed=1, mechanism="gaussian_gs_upper")
    sigma = noisy.noise_sd
    assert sigma > len(data.X) == noisy.params["N"] == 205
    text = noisy.summary()
    assert f"noise σ = {sigma:,.1f}, not private)" in text
    assert f"warning: the noise σ = {sigma:,.1f} exceeds the data's size N = 205" in text
    assert "says next to nothing about the count" in text
    quiet = api.release_outlier_count(data, k=3, r=1.0, eps=5.0, seed=1, mechanism="gaussian_gs_upper")
    assert quiet.noise_sd < 205 and "warning" not in quiet.summary() and "noise σ = " in quiet.summary()
    from privanomaly import mechanisms

    m = mechanisms.get("gaussian_gs_upper")  # the σ shown is the one the release drew with
    assert quiet.noise_sd == m.noise_sd(data.X, k=3, r=1.0, eps=5.0, delta=0.01)
    assert quiet.truth == int(m.exact_distribution(data.X, k=3, r=1.0, eps=5.0, delta=0.01)[0])


def test_a_label_error_lists_the_values_found(csv):
    with pytest.raises(ValueError, match=re.escape("values found in 'cls': 'no' (200), 'yes' (5))")):
        api.load_csv(csv, "cls", ["Yes"])  # was "no anomaly (every label is 0)" alone
    assert api.load_csv(csv, "cls", "yes").y.sum() == 5  # one value alone is that value, not its letters


def test_no_numpy_warning_precedes_an_error(tmp_path):
    import warnings

    header_only = tmp_path / "header.csv"
    header_only.write_text("a,b,cls\n")
    huge = tmp_path / "huge.csv"
    huge.write_text("a,b,cls\n1e308,1,0\n-1e308,2,0\n1e308,9,1\n0.3,1,0\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # header only: four RuntimeWarnings (mean of empty slice, ...) came first
        with pytest.raises(ValueError, match=r"header\.csv: 0 row\(s\) in the CSV; at least 2 are needed"):
            api.load_csv(header_only, "cls")
        with pytest.raises(ValueError, match=r"huge\.csv: column\(s\) \['a'\] cannot be standardised"):
            api.load_csv(huge, "cls")
