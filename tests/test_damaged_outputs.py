"""A results file damaged between two runs (truncated, emptied, a column lost) is read by a later job: the job
must stop naming the file and saying how to rebuild it - never carry on with rows of NaN.

Found by a fault campaign on a finished ``.test`` run: ``paper_a/work/errors/synthetic_a_summary.csv`` with its
``mechanism`` column deleted; the rerun rebuilt Table 2 and the error figure *successfully*, synthetic_a's row
of Table 2 empty and its curves gone (``pd.concat`` filled the missing column with NaN). A truncated prepared
Parquet stopped its readers with pyarrow's "magic bytes not found", without saying what to do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from privanomaly import experiment
from privanomaly.report.figures import read_tables


def _summaries(tmp_path: Path) -> list[Path]:
    paths = []
    for name in ("synthetic_a", "thyroid"):
        df = pd.DataFrame({"dataset": name, "eps": [0.5, 1.0], "k": 1, "mechanism": ["sp", "optimal_dp"],
                           "mean_error": [0.01, 0.2]})
        paths.append(tmp_path / f"{name}_summary.csv")
        df.to_csv(paths[-1], index=False)
    return paths


def test_concat_of_intact_tables(tmp_path):
    df = experiment.concat(_summaries(tmp_path))
    assert df["dataset"].tolist() == ["synthetic_a"] * 2 + ["thyroid"] * 2 and not df.isna().any().any()


@pytest.mark.parametrize("first", [True, False], ids=["first_damaged", "second_damaged"])
def test_a_table_that_lost_a_column_is_an_error_naming_it(tmp_path, first):
    paths = _summaries(tmp_path)
    bad = paths[0 if first else 1]
    pd.read_csv(bad).drop(columns="mechanism").to_csv(bad, index=False)
    with pytest.raises(ValueError) as exc:
        experiment.concat(paths)  # was: NaN mechanism rows, dropped silently by Table 2 and the figure
    msg = str(exc.value)
    # was: a damaged first table named the intact second one ("has ['mechanism'] besides"): deleting it and
    # rerunning rebuilt it and stopped again on the same message
    good = paths[1 if first else 0]
    assert msg.startswith(f"{bad}: its columns differ from those of {good}"), msg
    assert "lacks ['mechanism'], has [] besides" in msg and "delete it and rerun" in msg, msg


def test_the_plot_rules_reader_stops_on_it_too(tmp_path):
    paths = _summaries(tmp_path)
    pd.read_csv(paths[1]).drop(columns="mechanism").to_csv(paths[1], index=False)
    with pytest.raises(ValueError, match="columns differ"):
        read_tables({"summaries": [str(p) for p in paths]})


def test_truncated_prepared_dataset_names_the_file_and_the_fix(tmp_path):
    p = tmp_path / "thyroid.parquet"
    pd.DataFrame({"x0": [0.0, 1.0, 2.0], "label": pd.array([0, 0, 1], dtype="int8")}).to_parquet(p)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    with pytest.raises(ValueError) as exc:
        experiment.load_dataset(p)  # was pyarrow.lib.ArrowInvalid: ... magic bytes not found
    msg = str(exc.value)
    assert msg.startswith(f"{p}: cannot be read as a prepared dataset (Parquet)") and "delete it and rerun" in msg


@pytest.mark.parametrize("text", ["", '{"dataset": "thyroid", "r": 1.5'], ids=["emptied", "truncated"])
def test_damaged_choice_json_names_the_file(tmp_path, text):
    p = tmp_path / "thyroid.json"
    p.write_text(text)
    with pytest.raises(ValueError, match=r"thyroid\.json: cannot be read as the JSON of a tuning rule \(JSONDecodeError"):
        experiment.read_choice(p, "beta")


def test_emptied_csv_and_missing_file_name_the_file(tmp_path):
    (tmp_path / "a.csv").write_text("")
    with pytest.raises(ValueError, match=r"a\.csv: cannot be read as a tidy table of this workflow \(EmptyDataError"):
        experiment.concat([tmp_path / "a.csv"])
    with pytest.raises(ValueError, match=r"gone\.json: not found \(expected a JSON output of this workflow\)"):
        read_tables({"choice": str(tmp_path / "gone.json")})
    (tmp_path / "ok.json").write_text(json.dumps({"r": 1}))
    assert read_tables({"choice": str(tmp_path / "ok.json")}) == {"choice": {"r": 1}}


def test_paper_b_timing_table_stops_on_a_timing_file_that_lost_a_column(tmp_path):
    from privanomaly.paper_b import tables

    cols = {"dataset": "x", "paper_value": [2.0], "fast_value": [3.0], "paper_seconds": [0.1]}
    paths = []
    for name in ("synthetic_b1", "adult_b2"):
        paths.append(tmp_path / f"{name}.csv")
        pd.DataFrame({**cols, "dataset": name}).to_csv(paths[-1], index=False)
    out = tables._timing({"timing": [str(p) for p in paths]}, {"names": {"synthetic_b1": "S1", "adult_b2": "A2"}})
    assert out["fast_over_paper"].tolist() == [1.5, 1.5]
    pd.read_csv(paths[1]).drop(columns="paper_value").to_csv(paths[1], index=False)
    with pytest.raises(ValueError, match=r"adult_b2\.csv: its columns differ .* lacks \['paper_value'\]"):
        tables._timing({"timing": [str(p) for p in paths]}, {"names": {}})  # was a NaN ratio for adult_b2


def test_truncated_sweep_chunk_is_named(tmp_path):
    from privanomaly.sweeps.collect import collect

    p = tmp_path / "chunk.parquet"
    pd.DataFrame({"dataset": ["t"], "mechanism": ["sp"], "eps": [0.5]}).to_parquet(p)
    p.write_bytes(p.read_bytes()[:20])
    with pytest.raises(ValueError, match=r"chunk\.parquet: cannot be read as a sweep chunk of this workflow"):
        collect([str(p)], "s", "paper_a")


# ---------------------------------------------------------------- a single table that lost a column
def _records(tmp_path: Path) -> Path:
    """Rule paper_a_records' table of a 4-record dataset (β = 1, r = 0.5: the isolated record is the anomaly)."""
    from privanomaly.paper_a import records

    X = [[0.0], [0.1], [0.2], [5.0]]
    rec = records.record_table(pd.DataFrame(X).to_numpy(), [0, 0, 0, 1], 1, 0.5, cap=None)
    rec.insert(0, "dataset", "toy")
    path = tmp_path / "toy.parquet"
    rec.to_parquet(path)
    return path


def test_records_table_read_back_intact(tmp_path):
    from privanomaly.paper_a import records

    rec = records.read_records(_records(tmp_path))
    assert rec["anomaly"].tolist() == [False, False, False, True] and rec["B"].tolist() == [3, 3, 3, 1]


@pytest.mark.parametrize("column", ["anomaly", "x_i", "cap"])
def test_records_table_that_lost_a_column_names_file_column_and_rule(tmp_path, column):
    from privanomaly.paper_a import records

    path = _records(tmp_path)
    pd.read_parquet(path).drop(columns=column).to_parquet(path)
    with pytest.raises(ValueError) as exc:
        records.read_records(path)  # was: a bare KeyError inside the errors/detection/toy computations
    msg = str(exc.value)
    assert msg.startswith(f"{path}: no column {column!r} (expected the per-record table"), msg
    assert "delete it and rerun the workflow, whose rule paper_a_records rebuilds it" in msg, msg


def test_table1_stops_on_a_records_table_that_lost_a_column(tmp_path):
    from privanomaly.report import figures

    path = _records(tmp_path)
    pd.read_parquet(path).drop(columns="anomaly").to_parquet(path)
    prov, choice = tmp_path / "toy.json", tmp_path / "toy_choice.json"
    prov.write_text(json.dumps({"dims": 1, "steps": []}))
    choice.write_text(json.dumps({"dataset": "toy", "beta": 1, "r": 0.5}))
    inp = {"provenance": [str(prov)], "records": [str(path)], "choices": [str(choice)]}
    with pytest.raises(ValueError, match=r"toy\.parquet: no column 'anomaly'"):  # was: KeyError: 'anomaly'
        figures.get("paper_a.table1")(inp, {"datasets": ["toy"], "missing": {}})


def test_read_table_names_every_missing_column(tmp_path):
    path = tmp_path / "growth.csv"
    pd.DataFrame({"dataset": ["toy"], "eps": [1.0]}).to_csv(path, index=False)
    assert experiment.read_table(path, ["dataset", "eps"], "a table", "r")["eps"].tolist() == [1.0]
    with pytest.raises(ValueError) as exc:
        experiment.read_table(path, ["dataset", "k", "eps", "n"], "paper A's growth table", "paper_a_growth")
    msg = str(exc.value)
    assert msg.startswith(f"{path}: no column 'k', 'n' (expected paper A's growth table with columns "
                          "['dataset', 'k', 'eps', 'n']; it has ['dataset', 'eps'])"), msg


def test_sweep_counts_that_lost_a_column_name_file_column_and_rule(tmp_path):
    import numpy as np

    from privanomaly.sweeps import chunks, spec

    X = np.array([[0.0], [0.1], [0.2], [5.0]])
    balls = spec.radii("value", [0.5])  # r = 0.5, shared by every β
    table = chunks.count_tables("d", X, np.array([0, 0, 0, 1]), [spec.ball_of(1, r) for r in balls], "euclidean", 50,
                                np.zeros((0, 1)))
    path = tmp_path / "counts.parquet"
    table.to_parquet(path)
    assert chunks.read_counts(path)["B"].tolist() == [3, 3, 3, 1]
    table.drop(columns="B").to_parquet(path)
    with pytest.raises(ValueError) as exc:
        chunks.read_counts(path)  # was: KeyError: 'B' in the chunk's points
    msg = str(exc.value)
    assert msg.startswith(f"{path}: no column 'B' (expected the ball counts of a sweep's dataset"), msg
    assert "whose rule sweep_counts rebuilds it" in msg, msg


def test_growth_table_that_lost_a_column_stops_claim_a4(tmp_path):
    from privanomaly.paper_a import claims

    path = tmp_path / "growth.csv"
    pd.DataFrame({"dataset": ["toy", "toy"], "n_records": [100, 400], "mean_error_sp": [0.3, 0.1]}).to_csv(path,
                                                                                                          index=False)
    assert claims.sp_error_falls_with_size(claims.read_growth(path)).verdict == "PASS"
    pd.read_csv(path).drop(columns="n_records").to_csv(path, index=False)
    with pytest.raises(ValueError) as exc:  # was: claim A4 evaluated on no curve, silently
        claims.read_growth(path)
    msg = str(exc.value)
    assert msg.startswith(f"{path}: no column 'n_records' (expected paper A's growth table (CSV)"), msg
    assert "whose rule paper_a_growth_table rebuilds it" in msg, msg


def test_sweep_table_that_lost_a_column_stops_the_claims_naming_it(tmp_path):
    # was: paper_a_claims read the sweep with pd.read_parquet and stopped on KeyError: 'error_absent_void'
    from privanomaly.sweeps import claims as sweep_claims

    path = tmp_path / "sweep.parquet"
    row = {c: [0.0] for c in sweep_claims.COLUMNS} | {"dataset": ["t"], "mechanism": ["sp"], "r_spec": ["f0.05"]}
    pd.DataFrame(row).to_parquet(path)
    assert list(sweep_claims.read_sweep(path).columns) == list(sweep_claims.COLUMNS)
    pd.read_parquet(path).drop(columns="error_absent_void").to_parquet(path)
    with pytest.raises(ValueError) as exc:
        sweep_claims.read_sweep(path)
    msg = str(exc.value)
    assert msg.startswith(f"{path}: no column 'error_absent_void' (expected a paper-A sweep's tidy table"), msg
    assert "whose rule sweep_collect rebuilds it" in msg, msg
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=r"sweep\.parquet: cannot be read as a paper-A sweep's tidy table"):
        sweep_claims.read_sweep(path)


# ---------------------------------------------------------------- a dataset's provenance JSON, damaged
def _table1_inputs(tmp_path: Path) -> tuple[dict, dict, Path]:
    prov = tmp_path / "toy.json"
    prov.write_text(json.dumps({"dataset": "toy", "rows": 4, "dims": 1, "n_anomalies": 1, "raw_rows": 4,
                                "raw_columns": 1, "source": {"path": "toy.csv", "sha256": "0"}, "steps": []}))
    choice = tmp_path / "toy_choice.json"
    choice.write_text(json.dumps({"dataset": "toy", "beta": 1, "r": 0.5}))
    inp = {"provenance": [str(prov)], "records": [str(_records(tmp_path))], "choices": [str(choice)]}
    return inp, {"datasets": ["toy"], "missing": {}}, prov


def test_table1_and_the_data_summary_name_a_damaged_provenance_json(tmp_path):
    # was: rules paper_a_table1 and data_summary stopped on a bare JSONDecodeError ("Unterminated string starting
    # at: line 10 column 14") naming no file, and on KeyError: 'dims' for a provenance without the key
    from privanomaly.datasets.summary import PROVENANCE_KEYS, summary_table
    from privanomaly.privacy.scope import read_provenance
    from privanomaly.report import figures

    inp, params, prov = _table1_inputs(tmp_path)
    table1 = figures.get("paper_a.table1")
    assert table1(inp, params)["dataset"].tolist() == ["toy"]
    assert summary_table([read_provenance(prov, *PROVENANCE_KEYS)])["rows"].tolist() == [4]
    good = prov.read_text()
    prov.write_text(good[:60])
    for call in (lambda: table1(inp, params), lambda: read_provenance(prov, *PROVENANCE_KEYS)):
        with pytest.raises(ValueError) as exc:
            call()
        msg = str(exc.value)
        assert msg.startswith(f"{prov}: cannot read the dataset's provenance JSON (JSONDecodeError"), msg
        assert msg.endswith("whose rule prepare rebuilds it"), msg
    prov.write_text(json.dumps({k: v for k, v in json.loads(good).items() if k != "dims"}))
    with pytest.raises(ValueError, match=r"toy\.json: the dataset's provenance has no key 'dims'.*rule prepare"):
        table1(inp, params)


# ---------------------------------------------------------------- a CSV cut mid-row
def test_csv_cut_mid_row_stops_its_readers_naming_it(tmp_path):
    # was: a half-truncated CSV (a copy interrupted, a full disk) was read with its cut row as NaN and the job
    # carried on: paper_a_claims, paper_b_comparison, paper_a_fig1, paper_b_plot_tuning ... ended with exit 0
    from privanomaly.report import figures, sentences

    paths = _summaries(tmp_path)
    intact = experiment.concat(paths)
    text = paths[1].read_bytes()
    paths[1].write_bytes(text[: text.rindex(b",") + 2])  # "...,0." : the last row cut inside its last field
    readers = {
        "concat": lambda: experiment.concat(paths),
        "read_table": lambda: experiment.read_table(paths[1], ["mechanism"], "a summary", "paper_a_errors"),
        "a plot's inputs": lambda: figures.read_tables({"summaries": [str(p) for p in paths]}),
        "one plot input": lambda: figures.read_tables({"summary": str(paths[1])}),
    }
    for name, read in readers.items():
        with pytest.raises(ValueError) as exc:
            read()
        msg = str(exc.value)
        assert msg.startswith(f"{paths[1]}: cannot be read as "), (name, msg)
        assert "the file ends in the middle of a row" in msg and "rerun the workflow" in msg, (name, msg)
    table2 = tmp_path / "paper_a" / "tables" / "table2.csv"
    table2.parent.mkdir(parents=True)
    table2.write_text("dataset,eps\nthyroid,1", encoding="utf-8")
    with pytest.raises(ValueError, match=r"table2\.csv: cannot be read as paper A's Table 2 .* middle of a row"):
        sentences.from_files([table2])
    paths[1].write_bytes(text)  # intact again: read as before, nothing else changed
    pd.testing.assert_frame_equal(experiment.concat(paths), intact)
    assert intact["mean_error"].notna().all() and len(intact) == 4


def test_damaged_prepared_parquet_stops_the_dag_naming_it(tmp_path):
    # was: every snakemake command (a dry run too) stopped at DAG time on pyarrow's bare "ArrowInvalid: Parquet
    # magic bytes not found in footer", naming no file (paper B's Scenario-1 outlook reads its metadata)
    from privanomaly.paper_b.released_bound import file_outlook

    path = tmp_path / "adult_b1.parquet"
    pd.DataFrame({"x0": [0.0, 1.0, 2.0], "label": pd.array([0, 0, 1], dtype="int8")}).to_parquet(path)
    assert file_outlook(str(path), 3, 5000, "adult_b1").verdict == "feasible"  # 3 records
    assert file_outlook(str(tmp_path / "absent.parquet"), 3, 5000, "absent") is None  # not prepared yet
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(ValueError) as exc:
        file_outlook(str(path), 3, 5000, "adult_b1")
    msg = str(exc.value)
    assert msg.startswith(f"{path}: cannot be read as a prepared dataset (Parquet) (ArrowInvalid"), msg
    assert msg.endswith("delete it and rerun the workflow, which rebuilds it"), msg


# ---------------------------------------------------------------- a figure's input table that lost a column
def _fig1_inputs(tmp_path: Path) -> dict[str, str]:
    frontier = tmp_path / "frontier.csv"
    pd.DataFrame({"eps": [0.5, 0.5], "error_y": [0.0, 0.5], "min_error_x": [1.0, 0.4]}).to_csv(frontier, index=False)
    minerr = tmp_path / "min_worst_error.csv"
    pd.DataFrame({"eps": [0.0, 1.0], "min_worst_error": [0.5, 0.27]}).to_csv(minerr, index=False)
    return {"frontier": str(frontier), "minerr": str(minerr)}


@pytest.mark.parametrize("function, key, column", [
    ("paper_a.fig1", "frontier", "error_y"),
    ("paper_a.fig1", "minerr", "min_worst_error"),
])
@pytest.mark.slow
def test_figure_input_that_lost_a_column_names_the_file(tmp_path, function, key, column):
    # was: the generic plot rules stopped on a bare KeyError: 'error_y' (paper_a_fig1, paper_a_fig2, the selection
    # surface, ...) or "AttributeError: 'Pandas' object has no attribute 'source'" (paper_a_fig4)
    from privanomaly.report import figures

    inputs = _fig1_inputs(tmp_path)
    out = [str(tmp_path / "fig.png")]
    figures.render(function, inputs, {}, None, out)
    assert Path(out[0]).stat().st_size > 0
    pd.read_csv(inputs[key]).drop(columns=column).to_csv(inputs[key], index=False)
    with pytest.raises(ValueError) as exc:
        figures.render(function, inputs, {}, None, out)
    assert str(exc.value) == (f"{inputs[key]}: no column {column!r}, which figure {function} reads; the file is "
                              "damaged - delete it and rerun the workflow, which rebuilds it")


def test_column_error_blames_no_file_for_other_lookups():
    """A KeyError of a dict (a missing param), or a column every table has, is not a damaged file."""
    table = pd.DataFrame({"a": [1]})
    try:
        {}["a"]
    except KeyError as exc:
        assert experiment.column_error(exc, {"t.csv": pd.DataFrame({"b": [1]})}, "x") is None
    try:
        table["b"]
    except KeyError as exc:
        assert experiment.column_error(exc, {"t.csv": table}, "x").args[0].startswith("t.csv: no column 'b'")
        assert experiment.column_error(exc, {"u.csv": pd.DataFrame({"b": [1]})}, "x") is None
    try:
        next(table.itertuples()).b
    except AttributeError as exc:
        assert experiment.column_error(exc, {"t.csv": table}, "x").args[0].startswith("t.csv: no column 'b'")


def test_sweep_chunk_that_lost_a_column_is_named_not_collected_as_nan(tmp_path):
    # was: rule sweep_collect concatenated the chunks with pd.concat and wrote the sweep table with NaN betas
    from privanomaly.sweeps.collect import collect

    paths = []
    for ds in ("synthetic_a", "thyroid"):
        paths.append(tmp_path / f"{ds}.parquet")
        pd.DataFrame({"dataset": [ds], "mechanism": ["sp"], "eps": [0.5], "k": [1], "beta": [5],
                      "r_spec": ["f0.05"]}).to_parquet(paths[-1])
    assert collect([str(p) for p in paths], "s", "paper_a")["beta"].tolist() == [5, 5]
    pd.read_parquet(paths[0]).drop(columns="beta").to_parquet(paths[0])
    with pytest.raises(ValueError, match=rf"^{paths[0]}: its columns differ from those of {paths[1]} .* lacks \['beta'\]"):
        collect([str(p) for p in paths], "s", "paper_a")
