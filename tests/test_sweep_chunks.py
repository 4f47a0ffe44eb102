"""privanomaly.sweeps.chunks / .partition: a paper-A sweep computed in chunks (blocks of whole ε values, or
parts of one ε; ball counts of every (β, r) in one table) gives the tidy table that one job per grid point gave,
byte for byte; the chunks partition the grid, and appending an ε leaves every chunk but the last untouched."""

from __future__ import annotations

import io as _io
from itertools import product

import numpy as np
import pandas as pd
import pytest

from privanomaly import seeding
from privanomaly.privacy import scope
from privanomaly.sweeps import chunks, collect, counts, partition, points, spec

MECHS = ["sp", "optimal_dp", "compiler", "laplace_count", "laplace_noisy_threshold"]


def _sweep(r: dict, beta=(2, 5), k=(1, 3), eps=(0.25, 1.0)) -> spec.Sweep:
    return spec.parse("s", {"kind": "paper_a", "datasets": ["d"], "mechanisms": MECHS, "eps": list(eps),
                            "k": list(k), "beta": list(beta), "r": r, "n_absent": 40})


def _data(seed: int = 3):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(300, 3)), 1)  # rounded: duplicates and ties at the radius
    X[:20] += 6.0
    y = np.zeros(len(X), np.int8)
    y[:20] = 1
    return X, y


def _per_point_table(X, y, sw: spec.Sweep, cap: int, absent) -> pd.DataFrame:
    """The table as one job per grid point computed it: counts per (β, r) table, one point file per point."""
    files = []
    for beta, radius, k, eps in product(sw.beta, sw.radii, sw.k, sw.eps):
        ball = spec.ball_of(beta, radius)  # β None when r is a value: the table every β shares
        r = counts.resolve_r(X, ball["r_kind"], ball["r_spec"], ball["beta"], sw.metric)
        t = counts.count_table(X, y, r, metric=sw.metric, cap=cap, absent=absent)
        t["r"], t["cap"] = r, cap
        t = pd.read_parquet(_io.BytesIO(t.to_parquet()))  # through the file, as the jobs read it
        rows = points.point_rows(t, beta, k, eps, MECHS, cap)
        grid = {"dataset": "d", "beta": beta, "r_kind": radius["r_kind"], "r_spec": radius["r_spec"],
                "r": float(t["r"].iloc[0]), "k": k, "eps": eps}
        for i, (c, v) in enumerate(grid.items()):
            rows.insert(i, c, v)
        files.append(scope.add_sweep_columns(rows, "paper_a", radius["r_kind"], radius["r_spec"], None))
    return files


def _collect(tables: list[pd.DataFrame], tmp_path, tag: str) -> bytes:
    paths = []
    for i, t in enumerate(tables):
        p = tmp_path / f"{tag}{i}.parquet"
        t.to_parquet(p)
        paths.append(str(p))
    out = collect.collect(paths, "s", "paper_a")
    return out.to_csv(index=False).encode()


@pytest.mark.slow
@pytest.mark.parametrize("r", [{"fraction": [0.05, 0.1]}, {"value": [0.5, 0.9]}, {"quantile": [0.9]}])
@pytest.mark.parametrize("points_per_job", [1, 3, 8, 9, 64])
def test_chunked_sweep_table_is_byte_identical_to_one_job_per_point(tmp_path, r, points_per_job):
    X, y = _data()
    sw = _sweep(r)
    cap = counts.sweep_cap(sw.beta, sw.eps)
    absent = counts.absent_points(X, sw.n_absent, seeding.rng(1, "sweep_counts", "s", "d"))
    table = chunks.count_tables("d", X, y, spec.balls(sw), sw.metric, cap, absent)
    table = pd.read_parquet(_io.BytesIO(table.to_parquet()))
    chunked = [chunks.chunk_rows(table, "d", pts, MECHS, cap) for pts in partition.chunks(sw, points_per_job)]
    assert _collect(chunked, tmp_path, "c") == _collect(_per_point_table(X, y, sw, cap, absent), tmp_path, "p")


def test_chunks_partition_the_grid_in_order():
    sw = _sweep({"fraction": [0.01, 0.05, 0.1]}, beta=(2, 5, 10), k=(1, 5), eps=(0.25, 0.5, 1.0, 2.0, 4.0))
    one_eps = partition.eps_grid(sw)
    assert len(one_eps) == 18 and one_eps[0] == {"beta": 2, "r_kind": "fraction", "r_spec": 0.01, "k": 1}
    assert one_eps[-1] == {"beta": 10, "r_kind": "fraction", "r_spec": 0.1, "k": 5}
    grid = [{"eps": e, **p} for e in sw.eps for p in one_eps]
    for ppj in (1, 4, 5, 17, 18, 19, 36, 53, 54, 90, 1000):
        parts = partition.chunks(sw, ppj)
        assert [x for part in parts for x in part] == grid
        assert max(len(p) for p in parts) <= ppj and min(len(p) for p in parts) >= 1
        assert partition.chunk(sw, len(parts) - 1, ppj) == parts[-1]
    # whole ε blocks when one ε fits: 18 points per ε, 54 per job -> 3 ε per chunk -> 2 chunks (3 + 2 ε)
    assert [len(p) for p in partition.chunks(sw, 54)] == [54, 36]
    assert [len(p) for p in partition.chunks(sw, 53)] == [36, 36, 18]  # 2 ε per chunk
    assert len(partition.chunks(sw, 1000)) == 1
    # one ε split into near-equal parts when it does not fit: 18 points, 4 per job -> 5 parts per ε
    assert [len(p) for p in partition.chunks(sw, 4)[:5]] == [4, 3, 4, 3, 4]
    assert len(partition.chunks(sw, 4)) == 25
    with pytest.raises(ValueError, match="no chunk part 25"):
        partition.chunk(sw, 25, 4)
    with pytest.raises(ValueError, match="points_per_job must be >= 1"):
        partition.chunks(sw, 0)


@pytest.mark.parametrize("ppj", [4, 18, 36, 54, 90, 108])
def test_appending_an_eps_changes_only_the_last_chunk(ppj):
    """The jobs of the old chunks keep their point lists (so Snakemake does not rerun them)."""
    kw = dict(r={"fraction": [0.01, 0.05, 0.1]}, beta=(2, 5, 10), k=(1, 5))
    old = partition.chunks(_sweep(eps=(0.25, 0.5, 1.0, 2.0, 4.0), **kw), ppj)
    new = partition.chunks(_sweep(eps=(0.25, 0.5, 1.0, 2.0, 4.0, 8.0), **kw), ppj)
    assert new[: len(old) - 1] == old[:-1]
    assert new[len(old) - 1][: len(old[-1])] == old[-1]  # the last block: the same, or grown by the new ε
    assert all(p["eps"] == 8.0 for chunk in new[len(old):] for p in chunk)
    assert (len(new), len(new[-1])) == {4: (30, 4), 18: (6, 18), 36: (3, 36), 54: (2, 54), 90: (2, 18),
                                         108: (1, 108)}[ppj]


def test_a_chunk_without_its_count_table_says_to_rerun_the_counts():
    X, y = _data()
    ball = spec.Ball(beta=2, r_kind="fraction", r_spec=0.05)
    table = chunks.count_tables("d", X, y, [ball], "euclidean", 50, np.zeros((0, 3)))
    point = spec.GridPoint(eps=1.0, beta=5, r_kind="fraction", r_spec=0.05, k=1)
    with pytest.raises(ValueError, match=r"no table beta~5_r~f0.05 for beta 5, r \(fraction\) 0.05.*rerun its counts"):
        chunks.chunk_rows(table, "d", [point], MECHS, 50)
