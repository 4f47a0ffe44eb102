"""privanomaly.sweeps.chunks / .partition: a paper-A sweep computed in chunks (blocks of whole ε values, or
parts of one ε; ball counts of every (β, r) in one table) gives the tidy table that one job per grid point gave,
byte for byte; the chunks partition the grid, and appending an ε leaves every chunk but the last untouched."""

from __future__ import annotations

import io as _io
from itertools import product
from types import SimpleNamespace

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
    """The table as one job per grid point computed it: counts per ball key, one point file per point."""
    files = []
    grid = [SimpleNamespace(beta=str(b), r=t, k=str(k), eps=spec.num_token(e))
            for b, t, k, e in product(sw.beta, sw.r_tokens, sw.k, sw.eps)]
    for row in grid:
        beta, rtok = spec.parse_ball_key(spec.ball_key(sw, row.beta, row.r))
        r_kind, value = spec.parse_r_token(rtok)
        r = counts.resolve_r(X, r_kind, value, beta, sw.metric)
        t = counts.count_table(X, y, r, metric=sw.metric, cap=cap, absent=absent)
        t["r"], t["cap"] = r, cap
        t = pd.read_parquet(_io.BytesIO(t.to_parquet()))  # through the file, as the jobs read it
        rows = points.point_rows(t, int(row.beta), int(row.k), float(row.eps), MECHS, cap)
        grid = {"dataset": "d", "beta": int(row.beta), "r_kind": r_kind, "r_spec": spec.parse_r_token(row.r)[1],
                "r": float(t["r"].iloc[0]), "k": int(row.k), "eps": float(row.eps)}
        for i, (c, v) in enumerate(grid.items()):
            rows.insert(i, c, v)
        files.append(scope.add_sweep_columns(rows, "paper_a", r_kind, spec.parse_r_token(row.r)[1], None))
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
    table = chunks.count_tables("d", X, y, spec.ball_keys(sw), sw.metric, cap, absent)
    table = pd.read_parquet(_io.BytesIO(table.to_parquet()))
    chunked = [chunks.chunk_rows(table, "d", pts, MECHS, cap) for pts in partition.chunks(sw, points_per_job)]
    assert _collect(chunked, tmp_path, "c") == _collect(_per_point_table(X, y, sw, cap, absent), tmp_path, "p")


def test_chunks_partition_the_grid_in_order():
    sw = _sweep({"fraction": [0.01, 0.05, 0.1]}, beta=(2, 5, 10), k=(1, 5), eps=(0.25, 0.5, 1.0, 2.0, 4.0))
    one_eps = partition.eps_grid(sw)
    assert len(one_eps) == 18 and one_eps[0] == (2, "f0.01", 1) and one_eps[-1] == (10, "f0.1", 5)
    grid = [(spec.num_token(e), *p) for e in sw.eps for p in one_eps]
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
    assert all(p[0] == "8" for chunk in new[len(old):] for p in chunk)
    assert (len(new), len(new[-1])) == {4: (30, 4), 18: (6, 18), 36: (3, 36), 54: (2, 54), 90: (2, 18),
                                         108: (1, 108)}[ppj]


def test_a_chunk_without_its_ball_key_says_to_rerun_the_counts():
    X, y = _data()
    table = chunks.count_tables("d", X, y, ["beta~2_r~f0.05"], "euclidean", 50, np.zeros((0, 3)))
    with pytest.raises(ValueError, match="no ball key for beta 5, r f0.05.*rerun its counts"):
        chunks.chunk_rows(table, "d", [("1", 5, "f0.05", 1)], MECHS, 50)
