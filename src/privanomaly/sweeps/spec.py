"""The ``sweeps:`` config block: a named sweep = datasets x mechanisms x a grid over ε, k, β, r.

Two kinds of sweep:

* ``paper_a`` - exact errors of paper A's mechanisms (SP, optimal DP, Laplace baselines, ...) on the
  (β, r)-anomalies, normal records and absent query points, over ε x k x β x r.
* ``paper_b`` - paper B's σ_Global / σ_Smooth of the released q_count over k x r x ε, the noise and claim
  of every named count mechanism (``mechanisms``: registry names, optional) and the exact top-h
  precision/recall of Algorithm 3 over h and the subspace dimension.

r is given in one of three ways (exactly one key under ``r``):

* ``value: [...]``     absolute radii (the same for every dataset and β);
* ``fraction: [...]``  the flagged share f: r is the selection protocol's radius for f
  (:func:`privanomaly.paper_a.selection.radius_for_fraction` of the (β+1)-NN distances: a midpoint between
  two distinct d_β, never a d_β itself), so about a fraction f of the records are (β, r)-anomalies - one grid
  fits datasets of every scale;
* ``quantile: [...]``  r = the q-quantile of the (β+1)-NN distances d_β (numpy's default, linear); where
  that is a d_β itself, the next float up at which the ball counts hold that record's (β+1)-th neighbour
  (:func:`privanomaly.sweeps.counts.closed_at`).

For paper B the (β+1)-NN distance is the (k+1)-NN distance: a record is a distance outlier (Def. 8) iff it
has fewer than k *other* records within r, i.e. its ball count (itself included) is <= k - measured on paper
B's distance dist_S, scaled by 1/sqrt(|S|) (:func:`privanomaly.sweeps.counts.resolve_r_paper_b`), so that
``fraction: f`` flags about f of the records as ``q_count`` counts them.

A grid point reaches its job as a record (:class:`GridPoint`: ε, β, r's kind and value, k; the count tables
a counts job computes as :class:`Ball` records), built by the plan: no job reads its parameters out of a
string. Numbers are written by :func:`num_token` (``1.0`` and ``1`` are the same point: the duplicate check,
labels); a count table is labelled in the counts file by :func:`ball_label` (``beta~5_r~f0.05``, ``r~v0.5``).
Which points share a job is :mod:`privanomaly.sweeps.partition`'s (blocks of whole ε values), so appending an ε
reruns only each dataset's last block, while a new β or r changes every chunk's point list and the counts
(docs/guide.md "Sweeps").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

KINDS = ("paper_a", "paper_b")
# options that mean something for one kind only; on the other kind they would be silently ignored
KIND_ONLY = {"paper_a": ("metric", "n_absent", "batches"),
             "paper_b": ("delta", "methods", "conventions", "h", "subspace_dims", "max_work", "max_subspaces")}
R_KINDS = {"value": "v", "fraction": "f", "quantile": "q"}
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")  # no '_' / '~' / '/': they separate the parts of a file name


def num_token(x: float) -> str:
    """Canonical file-name token of a number: ``0.05`` -> "0.05", ``1.0`` -> "1", ``1e-4`` -> "0.0001"."""
    x = float(x)
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"grid values must be finite and >= 0, got {x!r}")
    return np.format_float_positional(x, trim="-")


def r_token(kind: str, value: float) -> str:
    """``("fraction", 0.05)`` -> "f0.05" (kind letter + number token): r in a label."""
    return R_KINDS[kind] + num_token(value)


def per_beta(r_kind: str) -> bool:
    """Whether r of this kind depends on β: fraction/quantile radii are read off the (β+1)-NN distances, so each β
    has its own r; a value is the same for every β."""
    return r_kind != "value"


class Radius(TypedDict):
    """r of a grid point as the config gives it: its kind (``value``, ``fraction``, ``quantile``) and value."""

    r_kind: str
    r_spec: float


def radii(r_kind: str, values) -> list[Radius]:
    """The records of r given as ``r_kind`` at each of ``values``: ``radii("value", [1, 0.5])``."""
    return [Radius(r_kind=r_kind, r_spec=float(v)) for v in values]


class Ball(Radius):
    """One count table of a paper-A sweep (rule ``sweep_counts``): r, and the β it is read off (``None`` when r is
    a value: one table shared by every β). Claim A4's growth points are Balls with β set."""

    beta: int | None


class GridPoint(Radius):
    """One (ε, β, r, k) point of a paper-A sweep, as rule ``sweep_chunk`` receives it
    (:mod:`privanomaly.sweeps.partition`)."""

    eps: float
    beta: int
    k: int


@dataclass(frozen=True)
class Sweep:
    """One entry of ``sweeps:`` with its defaults filled in (see workflow/schemas/config.schema.yaml)."""

    name: str
    kind: str
    datasets: tuple[str, ...]
    eps: tuple[float, ...]
    k: tuple[int, ...]
    r_kind: str
    r_values: tuple[float, ...]
    beta: tuple[int, ...] = ()
    mechanisms: tuple[str, ...] = ()
    metric: str = "euclidean"
    n_absent: int = 0
    description: str = ""
    delta: tuple[float, ...] = (0.01,)  # paper B: the δ grid of the Gaussian mechanisms (a number = one δ)
    methods: tuple[str, ...] = ("fast",)
    conventions: tuple[str, ...] = ("printed",)
    h: tuple[int, ...] = ()
    subspace_dims: tuple[int, ...] = ()
    max_subspaces: int = 100
    max_work: int | None = None  # paper B: Algorithm 2's feasibility guard per call (None: paper_b.scenario1's)
    batches: tuple[tuple[str, ...], ...] = ()  # paper A: datasets that share their counts and chunk jobs

    @property
    def radii(self) -> list[Radius]:
        """Every r of the grid, as records."""
        return radii(self.r_kind, self.r_values)


def _tuple(v, cast, where: str) -> tuple:
    if v is None:
        return ()
    if not isinstance(v, (list, tuple)):
        v = [v]
    try:
        out = tuple(cast(x) for x in v)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None
    return out


def _opt(entry: dict, key: str, default):
    """``entry[key]``, or ``default`` when it is absent or null (null is how an overlay drops a key)."""
    v = entry.get(key)
    return default if v is None else v


def _distinct_tokens(values, fmt, where: str) -> None:
    toks = [fmt(v) for v in values]
    dup = sorted({t for t in toks if toks.count(t) > 1})
    if dup:
        raise ValueError(f"{where}: duplicate values {dup}")


def _batches(v, where: str) -> tuple[tuple[str, ...], ...]:
    """``batches``: lists of datasets, each computed in one counts job and the same chunk jobs; a dataset in
    none is a batch of its own. A listed dataset the sweep does not run on is left out of its batch (an
    overlay may narrow ``datasets`` alone); that it is a configured dataset is the plan's check."""
    if v is None:
        return ()
    if not isinstance(v, (list, tuple)) or not all(isinstance(b, (list, tuple)) and b for b in v):
        raise ValueError(f"{where}: expected a list of non-empty lists of datasets, e.g. "
                         f"[[thyroid, mammography]], got {v!r}")
    out = tuple(tuple(str(d) for d in b) for b in v)
    seen: set[str] = set()
    for b in out:
        twice = sorted(seen.intersection(b) | {d for d in b if b.count(d) > 1})
        if twice:
            raise ValueError(f"{where}: {twice} in more than one place (a dataset is in one batch at most)")
        seen.update(b)
    return out


def count_mechanisms() -> list[str]:
    """Registry names a paper-B sweep can name: paper-B mechanisms releasing q_count plus noise (``noise_sd``)."""
    from privanomaly import mechanisms

    return [n for n in mechanisms.names() if (m := mechanisms.get(n)).paper == "B" and hasattr(m, "noise_sd")]


def parse(name: str, entry: dict) -> Sweep:
    """Validate one ``sweeps.<name>`` entry (after the schema, which bounds its values); errors name the key and
    what was expected."""
    where = f"sweeps.{name}"
    if not NAME.match(name):
        raise ValueError(f"{where}: sweep names must be letters and digits, starting with a letter (no '_')")
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected a mapping, got {entry!r}")
    sw = _build(name, entry, _kind(where, entry), *_radii(where, entry))
    for key in ("datasets", "eps", "k", "r_values"):
        if not getattr(sw, key):
            raise ValueError(f"{where}.{key.replace('_values', '')}: must be a non-empty list")
    if any(e <= 0 for e in sw.eps):
        raise ValueError(f"{where}.eps: every ε must be > 0, got {list(sw.eps)}")
    if any(k < 1 for k in sw.k):
        raise ValueError(f"{where}.k: every k must be >= 1, got {list(sw.k)}")
    (_check_paper_a if sw.kind == "paper_a" else _check_paper_b)(sw, where)
    _distinct_tokens(sw.eps, num_token, f"{where}.eps")
    _distinct_tokens(sw.k, str, f"{where}.k")
    _distinct_tokens(sw.r_values, num_token, f"{where}.r.{sw.r_kind}")
    return sw


def _kind(where: str, entry: dict) -> str:
    """The sweep's ``kind``; a key of the other kind (not null) is an error: it would be ignored."""
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}.kind: expected one of {KINDS}, got {kind!r}")
    other = next(k for k in KINDS if k != kind)
    for key in KIND_ONLY[other]:
        if entry.get(key) is not None:  # null is how an overlay drops a key of config.yaml's entry
            raise ValueError(f"{where}.{key}: an option of {other} sweeps only, and this sweep is kind {kind} (it "
                             "would be ignored); remove the key")
    return kind


def _radii(where: str, entry: dict) -> tuple[str, tuple[float, ...]]:
    """(kind of r, its values) of ``r``: exactly one non-null kind (the schema bounds fractions and quantiles to
    (0, 1))."""
    r = entry.get("r")
    if isinstance(r, dict):  # an overlay over a sweep of config.yaml merges key by key: null drops a key
        r = {key: v for key, v in r.items() if v is not None}
    if not isinstance(r, dict) or len(r) != 1 or next(iter(r)) not in R_KINDS:
        raise ValueError(
            f"{where}.r: expected exactly one of {sorted(R_KINDS)} with a list, got {r!r} (an overlay changing the "
            "kind of r of a sweep in config.yaml sets the other kind to null, e.g. r: {fraction: null, value: [1]})"
        )
    r_kind, r_vals = next(iter(r.items()))
    return r_kind, _tuple(r_vals, float, f"{where}.r.{r_kind}")


def _build(name: str, entry: dict, kind: str, r_kind: str, r_values: tuple[float, ...]) -> Sweep:
    """The :class:`Sweep` of an entry: every key cast, the defaults of absent or null keys filled."""
    where = f"sweeps.{name}"
    return Sweep(
        name=name,
        kind=kind,
        description=" ".join(str(_opt(entry, "description", "")).split()),  # one line (index.md's table row)
        datasets=_tuple(entry.get("datasets"), str, f"{where}.datasets"),
        eps=_tuple(entry.get("eps"), float, f"{where}.eps"),
        k=_tuple(entry.get("k"), int, f"{where}.k"),
        beta=_tuple(entry.get("beta"), int, f"{where}.beta"),
        r_kind=r_kind,
        r_values=r_values,
        mechanisms=_tuple(entry.get("mechanisms"), str, f"{where}.mechanisms"),
        metric=str(_opt(entry, "metric", "euclidean")),
        n_absent=int(_opt(entry, "n_absent", 0)),
        delta=_tuple(_opt(entry, "delta", 0.01), float, f"{where}.delta"),
        methods=_tuple(_opt(entry, "methods", ["fast"]), str, f"{where}.methods"),
        conventions=_tuple(_opt(entry, "conventions", ["printed"]), str, f"{where}.conventions"),
        h=_tuple(entry.get("h"), int, f"{where}.h"),
        subspace_dims=_tuple(entry.get("subspace_dims"), int, f"{where}.subspace_dims"),
        max_subspaces=int(_opt(entry, "max_subspaces", 100)),
        max_work=None if entry.get("max_work") is None else int(entry["max_work"]),
        batches=_batches(entry.get("batches"), f"{where}.batches"),
    )


def _check_paper_a(sw: Sweep, where: str) -> None:
    """A paper-A sweep: β and registered paper-A mechanisms (family ``aiq``) required."""
    if not sw.beta or any(b < 1 for b in sw.beta):
        raise ValueError(f"{where}.beta: a non-empty list of integers >= 1 is required for kind paper_a")
    if not sw.mechanisms:
        raise ValueError(f"{where}.mechanisms: a non-empty list of mechanism names is required")
    from privanomaly import mechanisms  # the registry (paper A's family "aiq")

    known = mechanisms.names("aiq")
    bad = [m for m in sw.mechanisms if m not in known]
    if bad:
        raise ValueError(f"{where}.mechanisms: unknown {bad}; registered paper-A mechanisms: {known}"
                         f"{mechanisms.not_loaded_hint()}")
    if sw.n_absent < 0:
        raise ValueError(f"{where}.n_absent: must be >= 0")
    _distinct_tokens(sw.beta, str, f"{where}.beta")


def _check_paper_b(sw: Sweep, where: str) -> None:
    """A paper-B sweep: no β, count mechanisms, r > 0 (Def. 8), known conventions and bounds, δ in (0, 1), top-h
    with both h and subspace_dims."""
    if sw.beta:
        raise ValueError(f"{where}.beta: paper B has no β (its threshold is k); remove the key")
    bad = [m for m in sw.mechanisms if m not in count_mechanisms()] if sw.mechanisms else []
    if bad:
        from privanomaly import mechanisms

        raise ValueError(f"{where}.mechanisms: {bad} are not paper-B count mechanisms (registered paper-B "
                         f"mechanisms with noise_sd, the noise their release adds to q_count): {count_mechanisms()}"
                         f"{mechanisms.not_loaded_hint()}")
    if sw.r_kind == "value" and any(v <= 0 for v in sw.r_values):
        raise ValueError(f"{where}.r.value: paper B's radius must be > 0 (its outlier count, Def. 8, and the "
                         f"sensitivity bounds of Theorems 4-6 are for r > 0), got {list(sw.r_values)}")
    from privanomaly.outliers import CONVENTIONS  # the noise conventions' registry

    bad = [c for c in sw.conventions if c not in CONVENTIONS]
    if bad:
        raise ValueError(f"{where}.conventions: unknown {bad}; known: {', '.join(CONVENTIONS)}")
    if any(m not in ("paper", "fast") for m in sw.methods):
        raise ValueError(f"{where}.methods: expected 'paper' and/or 'fast', got {list(sw.methods)}")
    if not sw.delta or not all(0 < x < 1 for x in sw.delta):
        raise ValueError(f"{where}.delta: a number or a non-empty list, each in (0, 1), got {list(sw.delta)}")
    _distinct_tokens(sw.delta, num_token, f"{where}.delta")
    if any(h < 1 for h in sw.h) or any(dm not in (1, 2) for dm in sw.subspace_dims):
        raise ValueError(f"{where}: h must be >= 1 and subspace_dims within [1, 2]")
    if bool(sw.h) != bool(sw.subspace_dims):  # top-h runs over h x subspace dimension: one alone is no row
        have, need = ("h", "subspace_dims") if sw.h else ("subspace_dims", "h")
        raise ValueError(f"{where}.{need}: {where}.{have} is set, so top-h subspace discovery needs "
                         f"{need} too (e.g. h: [1, 2, 3], subspace_dims: [1, 2]); without it the sweep "
                         f"would have no top-h rows. Set both, or remove {have}")


def parse_all(block: dict | None) -> dict[str, Sweep]:
    """Every sweep of the ``sweeps:`` block (``None``/empty: no sweep)."""
    return {name: parse(name, entry) for name, entry in (block or {}).items()}


# ------------------------------------------------------------------------------ the count tables


def ball_of(beta: int, r: Radius) -> Ball:
    """The count table of the (β, r) point: β kept only when r is read off the (β+1)-NN distances (:func:`per_beta`),
    else the table is shared by every β."""
    return Ball(beta=int(beta) if per_beta(r["r_kind"]) else None, r_kind=r["r_kind"], r_spec=float(r["r_spec"]))


def balls(sw: Sweep) -> list[Ball]:
    """The count tables of a paper-A sweep, in grid order, each once."""
    out = [ball_of(b, r) for b in sw.beta for r in sw.radii]
    return list({ball_label(b): b for b in out}.values())


def ball_label(ball: Ball) -> str:
    """The label of a count table in a counts file (its column ``ballkey``): ``beta~5_r~f0.05`` when r is read
    off the (β+1)-NN distances, else ``r~v0.5``; a job finds its table by it, never reads a parameter from it."""
    rtok = r_token(ball["r_kind"], ball["r_spec"])
    return f"r~{rtok}" if ball["beta"] is None else f"beta~{ball['beta']}_r~{rtok}"
