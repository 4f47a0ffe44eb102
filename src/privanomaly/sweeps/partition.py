"""How a paper-A sweep's grid is split into jobs (rule ``sweep_chunk``): chunks of whole ε blocks.

A job start costs ~0.3-0.4 s of CPU (interpreter, imports, Snakemake's script wrapper) and a grid point ~5 ms per
mechanism on a 10,000-record dataset, so a chunk holds many points: at most ``points_per_job`` (β, r, k, ε)
grid points of one dataset, every mechanism inside (config ``sweep_points_per_job``).

* When one ε's (β, r, k) points fit in a chunk, a chunk is a block of consecutive ε values in the order the
  config lists them (``points_per_job // points-per-ε`` of them). Appending an ε to the config's list reruns
  only the last block of each dataset (when it has room) or adds a new one; inserting one in the middle reruns
  the blocks after it; changing β, r or k reruns every chunk (each one's point list changed).
* Otherwise each ε is split into contiguous, near-equal parts of at most ``points_per_job`` points.

``points_per_job`` = the points of one ε gives one chunk per (dataset, ε): adding an ε then reruns nothing.

Datasets are computed one per job unless the sweep lists ``batches`` (:func:`dataset_batches`): the datasets of
a batch share one ``sweep_counts`` job and each chunk job computes the same points on every one of them. Each
job start costs its imports once (pandas, and in a counts job numba's first dispatch and scipy.spatial: ~1 s of
CPU together), so small datasets are cheaper in one batch; a batch reruns as a whole when one of its
datasets changes, so a large dataset is best alone.
Which points or datasets share a job never changes a row (:mod:`.collect` sorts by grid values): tested byte
for byte.
No numerical code is imported here: the workflow plans with it.
"""

from __future__ import annotations

import math

from privanomaly.sweeps.spec import GridPoint, Sweep

DEFAULT_POINTS_PER_JOB = 128
BATCH_JOIN = "+"  # a batch's name: its datasets joined (dataset names are letters, digits and '_')


def eps_grid(sw: Sweep) -> list[dict]:
    """The (β, r, k) points of one ε of a sweep, in grid order: a :class:`~privanomaly.sweeps.spec.GridPoint`
    without its ε."""
    return [{"beta": int(b), **r, "k": int(k)} for b in sw.beta for r in sw.radii for k in sw.k]


def at_eps(eps: float, grid: list[dict]) -> list[GridPoint]:
    """The points of ``grid`` (:func:`eps_grid`) at ``eps``."""
    return [GridPoint(eps=float(eps), **p) for p in grid]


def chunks(sw: Sweep, points_per_job: int) -> list[list[GridPoint]]:
    """Every chunk of one dataset of ``sw``: lists of grid points, in grid order (module doc)."""
    if points_per_job < 1:
        raise ValueError(f"points_per_job must be >= 1, got {points_per_job}")
    grid, eps = eps_grid(sw), list(sw.eps)
    if len(grid) <= points_per_job:
        per = points_per_job // len(grid)  # whole ε values per chunk
        return [[q for e in eps[i : i + per] for q in at_eps(e, grid)] for i in range(0, len(eps), per)]
    parts = math.ceil(len(grid) / points_per_job)
    bounds = [round(j * len(grid) / parts) for j in range(parts + 1)]
    return [at_eps(e, grid[bounds[j] : bounds[j + 1]]) for e in eps for j in range(parts)]


def chunk(sw: Sweep, part: int, points_per_job: int) -> list[GridPoint]:
    """The points of chunk ``part`` (0-based) of every dataset of ``sw``."""
    every = chunks(sw, points_per_job)
    if not 0 <= part < len(every):
        raise ValueError(f"sweep {sw.name}: no chunk part {part} (it has {len(every)})")
    return every[part]


def dataset_batches(sw: Sweep, datasets: list[str]) -> dict[str, list[str]]:
    """The jobs' datasets of ``sw`` among ``datasets`` (those available in this run, in the sweep's order):
    name -> datasets, a batch of ``sw.batches`` under its available datasets joined by :data:`BATCH_JOIN`, every
    other dataset alone under its own name; ordered by each batch's first dataset."""
    batch_of = {d: [m for m in b if m in datasets] for b in sw.batches for d in b}
    out: dict[str, list[str]] = {}
    for d in datasets:
        members = batch_of.get(d, [d])
        out.setdefault(BATCH_JOIN.join(members), members)
    return out
