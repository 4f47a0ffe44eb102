"""Statistical privacy audit: a high-confidence *lower* bound on a mechanism's privacy loss from samples.

A mechanism M is (ε, δ)-DP on a neighbouring pair (x, y) iff for every output event E

    P(M(x) ∈ E) ≤ e^ε · P(M(y) ∈ E) + δ      (and the same with x and y swapped).

Given n samples of M(x) and n of M(y) and a *fixed* (chosen before sampling) family of m events, the audit
computes for every event and direction a one-sided Clopper–Pearson lower bound p̲_x on P(M(x) ∈ E) and an
upper bound p̄_y on P(M(y) ∈ E), and reports

    ε̂ = max_{E, direction} ln( (p̲_x − δ) / p̄_y ).

Every bound is taken at level α / (2·m·directions) (Bonferroni over all bounds), so with probability at
least 1 − α every interval holds simultaneously, and then ε̂ ≤ the true privacy loss of M on (x, y) for
that event family. Hence, if M really is (ε, δ)-DP, P(ε̂ > ε) ≤ α: an audit that finds ε̂ > ε is evidence
(at level α) that the privacy claim is false. The default α = 1e-3 keeps a fixed-seed test of a correct
mechanism from failing by bad luck; the power lost to it is small (see tests/test_audit_machinery.py). The converse does not hold: ε̂ ≤ ε only says that these
samples on this pair found no violation, which is why the pair is chosen as the worst edge of an
exhaustively enumerated small neighbourhood graph (:func:`privanomaly.audit.exact_loss.worst_edge`, using the mechanisms' closed-form
output distributions), and why the tests also check the audit has *power* (ε̂ close to ε for mechanisms
that attain ε, and ε̂ > ε for a deliberately broken mechanism).

This is the standard black-box auditing recipe (e.g. Ding et al., "Detecting Violations of Differential
Privacy", CCS 2018; Jagielski et al., NeurIPS 2020, use the same Clopper–Pearson construction).

Randomness: samplers get ``numpy.random.Generator`` objects from :func:`privanomaly.seeding.rng`, so an
audit is reproducible bit for bit from its seed and label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np
from scipy import stats

from privanomaly import seeding

__all__ = [
    "Sampler",
    "Event",
    "cp_lower",
    "cp_upper",
    "point_events",
    "row_events",
    "threshold_events",
    "interval_events",
    "AuditResult",
    "epsilon_lower_bound",
    "count_events",
    "audit",
    "detectable_loss",
    "bernoulli_sampler",
]

Sampler = Callable[[np.random.Generator, int], np.ndarray]
"""``sampler(rng, n)`` returns ``n`` independent outputs of the mechanism on one fixed database."""

Event = Callable[[np.ndarray], np.ndarray]
"""``event(outputs)`` returns a boolean array: which outputs lie in the event."""


# --------------------------------------------------------------------------------------------------
# Clopper–Pearson bounds
# --------------------------------------------------------------------------------------------------
def cp_lower(k: np.ndarray | int, n: int, alpha: float) -> np.ndarray:
    """One-sided Clopper–Pearson lower bound: P(p < bound) ≤ α for k successes out of n (0 when k = 0)."""
    _check_alpha(alpha)
    k = np.asarray(k, dtype=float)
    _check_counts(k, n)
    with np.errstate(invalid="ignore"):
        lo = stats.beta.ppf(alpha, k, n - k + 1)
    return np.where(k <= 0, 0.0, lo)


def cp_upper(k: np.ndarray | int, n: int, alpha: float) -> np.ndarray:
    """One-sided Clopper–Pearson upper bound: P(p > bound) ≤ α for k successes out of n (1 when k = n)."""
    _check_alpha(alpha)
    k = np.asarray(k, dtype=float)
    _check_counts(k, n)
    with np.errstate(invalid="ignore"):
        hi = stats.beta.ppf(1.0 - alpha, k + 1, n - k)
    return np.where(k >= n, 1.0, hi)


def _check_alpha(alpha: float) -> None:
    if not (0.0 < alpha < 1.0):
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")


def _check_counts(k: np.ndarray, n: int) -> None:
    if int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    if np.any(k < 0) or np.any(k > n):
        raise ValueError(f"counts must lie in [0, n={n}], got min {k.min()} max {k.max()}")


# --------------------------------------------------------------------------------------------------
# Event families (fixed before sampling, so that Bonferroni is valid)
# --------------------------------------------------------------------------------------------------
def point_events(values: Iterable[Hashable]) -> dict[str, Event]:
    """One event {v} per output value ``v`` (for discrete outputs: bits, subspace indices, ...)."""
    events: dict[str, Event] = {}
    for v in values:
        events[f"=={v!r}"] = (lambda out, v=v: np.asarray(out) == v)
    if not events:
        raise ValueError("point_events: empty list of values")
    return events


def row_events(rows: Iterable[Sequence[Any]]) -> dict[str, Event]:
    """One event per output *row* (for mechanisms that output a tuple per draw, e.g. a top-h set)."""
    events: dict[str, Event] = {}
    for row in rows:
        r = np.asarray(row)
        events[f"=={tuple(r.tolist())!r}"] = (lambda out, r=r: np.all(np.asarray(out) == r, axis=-1))
    if not events:
        raise ValueError("row_events: empty list of rows")
    return events


def threshold_events(thresholds: Iterable[float]) -> dict[str, Event]:
    """Both half-lines {o ≤ t} and {o > t} for every threshold (a discretised family for real outputs).

    For two Gaussians (the smooth-sensitivity mechanism) the optimal rejection regions are unions of at most
    two half-lines, so a fine threshold grid together with :func:`interval_events` captures the privacy loss
    up to the discretisation.
    """
    events: dict[str, Event] = {}
    for t in thresholds:
        t = float(t)
        events[f"<={t:.6g}"] = (lambda out, t=t: np.asarray(out) <= t)
        events[f">{t:.6g}"] = (lambda out, t=t: np.asarray(out) > t)
    if not events:
        raise ValueError("threshold_events: empty list of thresholds")
    return events


def interval_events(edges: Sequence[float]) -> dict[str, Event]:
    """Events (a, b] for consecutive ``edges`` a < b, and their complements."""
    edges = [float(e) for e in edges]
    if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:])):
        raise ValueError(f"interval_events: need ≥ 2 strictly increasing edges, got {edges}")
    events: dict[str, Event] = {}
    for a, b in zip(edges, edges[1:]):
        events[f"({a:.6g},{b:.6g}]"] = (lambda out, a=a, b=b: (np.asarray(out) > a) & (np.asarray(out) <= b))
        events[f"not ({a:.6g},{b:.6g}]"] = (lambda out, a=a, b=b: ~((np.asarray(out) > a) & (np.asarray(out) <= b)))
    return events


# --------------------------------------------------------------------------------------------------
# The audit
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AuditResult:
    """Outcome of :func:`audit` / :func:`epsilon_lower_bound`.

    ``epsilon_lower`` is ε̂ (``-inf`` if no event had a positive lower bound); ``event`` and ``direction``
    say where it was attained; ``p_num_lower`` / ``p_den_upper`` are the two Clopper–Pearson bounds there.
    """

    epsilon_lower: float
    event: str
    direction: str
    p_num_lower: float
    p_den_upper: float
    count_x: dict[str, int] = field(repr=False)
    count_y: dict[str, int] = field(repr=False)
    n: int
    alpha: float
    delta: float
    n_bounds: int

    def violates(self, epsilon: float) -> bool:
        """True iff the audit proves (at level α) that the mechanism is not (epsilon, delta)-DP on this pair."""
        return self.epsilon_lower > epsilon


def epsilon_lower_bound(
    count_x: Mapping[str, int],
    count_y: Mapping[str, int],
    n: int,
    *,
    alpha: float = 1e-3,
    delta: float = 0.0,
    symmetric: bool = True,
) -> AuditResult:
    """ε̂ from event counts (``count_x[name]`` of the ``n`` samples of M(x) fell in event ``name``).

    With ``symmetric`` both directions x→y and y→x are bounded (neighbouring is symmetric), and the
    Bonferroni correction counts both.
    """
    if set(count_x) != set(count_y):
        raise ValueError("count_x and count_y must have the same events")
    if not (0.0 <= delta < 1.0):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    names = list(count_x)
    if not names:
        raise ValueError("no events")
    kx = np.array([count_x[e] for e in names], dtype=float)
    ky = np.array([count_y[e] for e in names], dtype=float)
    directions = [("x/y", kx, ky)] + ([("y/x", ky, kx)] if symmetric else [])
    n_bounds = 2 * len(names) * len(directions)
    level = alpha / n_bounds
    best = (-np.inf, names[0], directions[0][0], 0.0, 1.0)
    for label, num, den in directions:
        lo = cp_lower(num, n, level) - delta
        hi = cp_upper(den, n, level)
        with np.errstate(divide="ignore", invalid="ignore"):
            eps = np.where(lo > 0, np.log(np.maximum(lo, 1e-300) / hi), -np.inf)
        j = int(np.argmax(eps))
        if eps[j] > best[0]:
            best = (float(eps[j]), names[j], label, float(lo[j] + delta), float(hi[j]))
    return AuditResult(
        epsilon_lower=best[0],
        event=best[1],
        direction=best[2],
        p_num_lower=best[3],
        p_den_upper=best[4],
        count_x={e: int(c) for e, c in zip(names, kx)},
        count_y={e: int(c) for e, c in zip(names, ky)},
        n=int(n),
        alpha=float(alpha),
        delta=float(delta),
        n_bounds=n_bounds,
    )


def count_events(outputs: np.ndarray, events: Mapping[str, Event]) -> dict[str, int]:
    """How many of ``outputs`` fall in each event."""
    counts = {}
    for name, ev in events.items():
        mask = np.asarray(ev(outputs), dtype=bool)
        if mask.shape[0] != len(outputs):
            raise ValueError(f"event {name!r} returned {mask.shape[0]} flags for {len(outputs)} outputs")
        counts[name] = int(mask.sum())
    return counts


def audit(
    sample_x: Sampler,
    sample_y: Sampler,
    events: Mapping[str, Event],
    n: int,
    *,
    seed: int,
    label: str = "audit",
    alpha: float = 1e-3,
    delta: float = 0.0,
    symmetric: bool = True,
) -> AuditResult:
    """Sample M(x) and M(y) ``n`` times each (independent seeded streams) and return ε̂ (see module doc).

    ``events`` must be fixed independently of the samples (e.g. :func:`point_events` over the known output
    range); choosing events from the same samples would void the Bonferroni guarantee.
    """
    if int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    out_x = np.asarray(sample_x(seeding.rng(seed, "audit", label, "x"), int(n)))
    out_y = np.asarray(sample_y(seeding.rng(seed, "audit", label, "y"), int(n)))
    for name, out in (("sample_x", out_x), ("sample_y", out_y)):
        if len(out) != n:
            raise ValueError(f"{name} returned {len(out)} outputs, expected n={n}")
    return epsilon_lower_bound(
        count_events(out_x, events), count_events(out_y, events), int(n), alpha=alpha, delta=delta, symmetric=symmetric
    )


def detectable_loss(p: np.ndarray, q: np.ndarray, n: int, alpha: float = 1e-3, n_bounds: int = 8) -> np.ndarray:
    """Roughly the ε̂ that :func:`audit` reaches for an event of probability ``p`` under x and ``q`` under y
    with ``n`` samples each (normal approximation of the Clopper–Pearson bounds at level α/n_bounds):
    ln((p − z·sd_p) / (q + z·sd_q)), −inf where the lower bound is ≤ 0."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    z = stats.norm.isf(alpha / n_bounds)
    lo = p - z * np.sqrt(p * (1 - p) / n)
    hi = q + z * np.sqrt(q * (1 - q) / n) + 1.0 / n
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(lo > 0, np.log(np.maximum(lo, 1e-300) / hi), -np.inf)


def bernoulli_sampler(p_one: float) -> Sampler:
    """Sampler of a binary mechanism that outputs 1 with probability ``p_one`` (for hand-built checks)."""
    if not (0.0 <= p_one <= 1.0):
        raise ValueError(f"p_one must be in [0, 1], got {p_one!r}")
    return lambda g, n: (g.random(n) < p_one).astype(np.int8)
