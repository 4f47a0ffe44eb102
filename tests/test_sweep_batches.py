"""Batches of a paper-A sweep (config ``sweeps.<name>.batches``): datasets computed in the same counts and chunk
jobs give the rows they give in jobs of their own; the batch names, the plan's chunks and the config's
errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privanomaly import seeding
from privanomaly.sweeps import chunks, collect, counts, partition, spec
from privanomaly.sweeps.plan import SweepPlan

MECHS = ["sp", "optimal_dp", "laplace_count"]
ENTRY = {"kind": "paper_a", "datasets": ["a", "b", "c", "d"], "mechanisms": MECHS, "eps": [0.5, 1.0, 2.0],
         "k": [1, 3], "beta": [2, 4], "r": {"fraction": [0.05, 0.1]}, "n_absent": 30}


def _sweep(**over) -> spec.Sweep:
    return spec.parse("s", {**ENTRY, **over})


def _data(seed: int, n: int, d: int):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 1)  # rounded: duplicates and ties at the radius
    X[:8] += 5.0
    y = np.zeros(n, np.int8)
    y[:8] = 1
    return X, y


def test_batches_name_their_jobs_in_the_sweeps_order_and_follow_the_available_datasets():
    sw = _sweep(batches=[["d", "b"]])
    assert sw.batches == (("d", "b"),)
    # a batch lists its datasets in the order the batch gives; it comes where its first available one is
    assert partition.dataset_batches(sw, ["a", "b", "c", "d"]) == {"a": ["a"], "d+b": ["d", "b"], "c": ["c"]}
    assert partition.dataset_batches(sw, ["a", "c", "d"]) == {"a": ["a"], "c": ["c"], "d": ["d"]}
    assert partition.dataset_batches(_sweep(), ["a", "b"]) == {"a": ["a"], "b": ["b"]}


@pytest.mark.parametrize("bad, says", [
    ([["a"], ["a", "b"]], "['a'] in more than one place"),
    ([["a", "a"]], "['a'] in more than one place"),
    ([[]], "expected a list of non-empty lists"),
    (["a"], "expected a list of non-empty lists"),
    ("a", "expected a list of non-empty lists"),
])
def test_a_wrong_batches_entry_is_refused_naming_the_key(bad, says):
    with pytest.raises(ValueError) as exc:
        _sweep(batches=bad)
    assert str(exc.value).startswith("sweeps.s.batches: ") and says in str(exc.value), str(exc.value)


def test_batches_are_a_paper_a_option():
    with pytest.raises(ValueError, match=r"sweeps\.s\.batches: an option of paper_a sweeps only"):
        spec.parse("s", {"kind": "paper_b", "datasets": ["a"], "eps": [1], "k": [1], "r": {"value": [1]},
                         "batches": [["a"]]})


def test_a_batch_keeps_the_datasets_the_sweep_runs_on_and_names_must_be_configured():
    sw = _sweep(datasets=["a", "b"], batches=[["b", "e", "a"]])  # an overlay narrowed datasets: e is left out
    assert partition.dataset_batches(sw, ["a", "b"]) == {"b+a": ["b", "a"]}

    def check(names, key):
        bad = [n for n in names if n not in "abcde"]
        if bad:
            raise ValueError(f"{key}: unknown dataset {bad[0]!r}")
        return names

    with pytest.raises(ValueError, match=r"sweeps\.s\.batches: unknown dataset 'zz'"):
        SweepPlan({"s": {**ENTRY, "batches": [["a", "zz"]]}}, check, lambda names: names)


def test_the_plan_has_one_chunk_list_per_batch():
    cfg = {"s": {**ENTRY, "batches": [["b", "c"]]}}
    plan = SweepPlan(cfg, lambda names, key: names, lambda names: [n for n in names if n != "d"],
                     points_per_job=8)  # the 8 (β, r, k) points of one ε: one chunk per ε
    assert plan.batches["s"] == {"a": ["a"], "b+c": ["b", "c"]}
    assert plan.chunks("s") == [("a", 0), ("a", 1), ("a", 2), ("b+c", 0), ("b+c", 1), ("b+c", 2)]
    assert plan.batch_datasets("s", "b+c") == ["b", "c"]
    with pytest.raises(ValueError, match=r"sweep s: no job batch 'b' \(it has \['a', 'b\+c'\]\)"):
        plan.batch_datasets("s", "b")


def _counts(sw: spec.Sweep, name: str, X, y, cap: int) -> pd.DataFrame:
    absent = counts.absent_points(X, sw.n_absent, seeding.rng(7, "sweep_counts", sw.name, name))
    return chunks.count_tables(name, X, y, spec.balls(sw), sw.metric, cap, absent)


def _table(files: list[pd.DataFrame], tmp_path, tag: str) -> bytes:
    paths = []
    for i, t in enumerate(files):
        paths.append(tmp_path / f"{tag}{i}.parquet")
        t.to_parquet(paths[-1])
    out = tmp_path / f"{tag}.parquet"
    collect.collect([str(p) for p in paths], "s", "paper_a").to_parquet(out)
    return out.read_bytes()


@pytest.mark.slow
def test_a_batch_gives_the_rows_of_its_datasets_jobs_byte_for_byte(tmp_path):
    sw = _sweep(datasets=["a", "b", "c"], batches=[["c", "a"]])
    cap = counts.sweep_cap(sw.beta, sw.eps)
    data = {"a": _data(1, 120, 2), "b": _data(2, 90, 3), "c": _data(3, 150, 1)}
    one = {d: _counts(sw, d, *data[d], cap) for d in data}
    provs = {d: {"steps": [{"step": "standardize"}]} if d == "b" else None for d in data}  # each its own scope
    alone = [chunks.batch_rows(one[d], [d], pts, MECHS, cap, [provs[d]])
             for d in data for pts in partition.chunks(sw, 12)]
    jobs = partition.dataset_batches(sw, list(data))
    assert jobs == {"c+a": ["c", "a"], "b": ["b"]}
    batched = []
    for members in jobs.values():
        # the counts file of the batch, through Parquet as the jobs read it
        path = tmp_path / f"counts_{'+'.join(members)}.parquet"
        pd.concat([one[d] for d in members], ignore_index=True).to_parquet(path)
        table = chunks.read_counts(path)
        batched += [chunks.batch_rows(table, members, pts, MECHS, cap, [provs[d] for d in members])
                    for pts in partition.chunks(sw, 12)]
    assert len(batched) < len(alone)
    assert _table(batched, tmp_path, "batched") == _table(alone, tmp_path, "alone")
    rows = pd.read_parquet(tmp_path / "batched.parquet")
    assert sorted(rows["dataset"].unique()) == ["a", "b", "c"]
    assert len(rows) == 3 * len(MECHS) * 2 * 2 * 2 * 3  # datasets x mechanisms x β x r x k x ε
    scope_of = rows.drop_duplicates("dataset").set_index("dataset")["data_dependent"]  # each dataset's own
    assert "standardisation fitted on the data" in scope_of["b"], scope_of["b"]
    assert all("no dataset provenance" in scope_of[d] and "standardisation" not in scope_of[d] for d in "ac")


def test_a_batch_whose_counts_lack_a_dataset_is_an_error_naming_it():
    sw = _sweep(datasets=["a", "b"])
    cap = counts.sweep_cap(sw.beta, sw.eps)
    table = _counts(sw, "a", *_data(1, 60, 2), cap)
    with pytest.raises(ValueError, match=r"the counts have no rows of dataset\(s\) \['b'\] \(they have \['a'\]\)"):
        chunks.batch_rows(table, ["a", "b"], partition.chunks(sw, 12)[0], MECHS, cap, [None, None])
    with pytest.raises(ValueError):  # one provenance per dataset
        chunks.batch_rows(table, ["a"], partition.chunks(sw, 12)[0], MECHS, cap, [None, None])
