"""The auditor of paper A's family "aiq" (registered with :func:`privanomaly.audit.harness.auditor`).

Paper A ("aiq"): exhaustive small worlds (:mod:`.worlds`: 1-D lines and 2-D grids, l1/l2/l_inf, several r)
x beta x k x count cap x eps; on every edge of the mechanism's *own* neighbour relation (G, or G_S(k) for
SP mechanisms) the claim P(o | x) <= e^eps P(o | y) is decided exactly
(:func:`privanomaly.mechanisms.exact.edge_holds`: no tolerance; a tight mechanism attains equality as a
polynomial identity). Then the worst detectable edge of one world is sampled ``cp_n`` times per side with
the mechanism's sampler and the Clopper–Pearson lower bound of the loss (:mod:`.statistical`) must not
exceed the claim.
The float law ``probs`` is checked against the exact law on every audited record, and the sampler against
the exact law by a binomial goodness-of-fit test on every (x_i, B) of one world.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from privanomaly import seeding
from privanomaly.mechanisms import exact
from privanomaly.mechanisms.base import Mechanism

from . import exact_loss, statistical
from .harness import AuditRow, Level, auditor, claim_text, sampled_check, sampling
from .worlds import DOMAINS, decode_pair, decode_sig, make_worlds


def _pairs_union(worlds, relation: str, beta: int, k: int, cache: dict) -> tuple[np.ndarray, int]:
    key = (relation, beta if relation == "sensitive_k" else None, k if relation == "sensitive_k" else None)
    if key not in cache:
        parts, edges = [], 0
        for w in worlds:
            codes, e = w.pairs(relation, beta, k)
            parts.append(codes)
            edges += e
        cache[key] = (np.unique(np.concatenate(parts)), edges)
    return cache[key]


def _hockey(lx: tuple[float, ...], ly: tuple[float, ...], eps: float) -> float:
    """max over directions of sum_o max(0, P(o|x) - e^eps P(o|y)) (float, from log-probabilities)."""
    px, py = np.exp(np.array(lx)), np.exp(np.array(ly))
    return float(max(np.maximum(0, px - math.exp(eps) * py).sum(), np.maximum(0, py - math.exp(eps) * px).sum()))


LAW_TOL = 1e-9
"""Largest |ln P_float - ln P_exact| allowed between a paper-A mechanism's ``probs`` and its exact law (the
built-in mechanisms agree to 3e-14; :func:`privanomaly.mechanisms.exact.log_value` is good to ~1e-12)."""


def law_deviation(p_float: np.ndarray, log_exact: np.ndarray) -> np.ndarray:
    """|ln p_float - ln p_exact| elementwise; 0 where both are 0 (or the exact value underflows a float,
    below e^-700, and the float is at most 1e-300); inf where exactly one of them is 0."""
    p = np.asarray(p_float, dtype=float)
    le = np.asarray(log_exact, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        dev = np.abs(np.log(np.where(p > 0, p, 1.0)) - le)
    dev = np.where(le == -np.inf, np.where(p == 0, 0.0, np.inf), dev)
    tiny = (le < -700) & (le > -np.inf)
    dev = np.where(tiny & (p <= 1e-300), 0.0, dev)
    return np.where(~tiny & (le > -np.inf) & ~(p > 0), np.inf, dev)


def _as_given(B, cap):
    """The ball counts as the pipeline hands them to a mechanism run with ``cap``: min(B, cap)
    (:func:`privanomaly.sp.ball_counts` with ``cap``), so the audit proves the claim on the inputs the released
    numbers come from. A mechanism must be private on capped counts: one that caps B but not its distance
    (a present normal record at Delta = cap - beta, its absent neighbour at cap + 2 - beta) is not."""
    return B if cap is None else np.minimum(B, cap)


@dataclass
class _AiqTally:
    """What :func:`audit_aiq` gathers over its settings: counts, the worst excess over e^ε, the worst δ and law
    deviation, the first failure of each kind."""

    n_pairs: int = 0
    n_edges: int = 0
    worst_excess: float = -math.inf
    worst_delta: float = 0.0
    exhaustive_ok: bool = True
    worst_law: float = 0.0
    first_failure: str = ""
    law_failure: str = ""
    relation_failure: str = ""


def _exact_laws(m: Mechanism, sigs: np.ndarray, beta: int, k: int, eps: float, cap: int | None):
    """(dist_id: {signature: law id}, the distinct exact laws, their log-probabilities) at signatures ``sigs``."""
    dist_id, dists, logs = {}, [], []
    key_id: dict = {}
    for s in sigs.tolist():
        x, b = decode_sig(s)
        d = m.exact_distribution(int(x), int(_as_given(b, cap)), beta=beta, k=k, eps=eps, cap=cap)
        key = d.key()
        if key not in key_id:
            key_id[key] = len(dists)
            dists.append(d)
            logs.append(tuple(exact.log_value(f, d.theta) for f in d.probs))
        dist_id[s] = key_id[key]
    return dist_id, dists, logs


def _check_law(m: Mechanism, t: _AiqTally, sigs: np.ndarray, dist_id: dict, logs: list, beta: int, k: int,
               eps: float, cap: int | None) -> None:
    """The mechanism's float law ``probs`` against its exact law at every signature (within :data:`LAW_TOL`)."""
    xs, bs = decode_sig(sigs)
    floats = np.stack(m.probs(xs, _as_given(bs, cap), beta=beta, k=k, eps=eps, cap=cap), axis=1)
    dev = law_deviation(floats, np.array([logs[dist_id[s]] for s in sigs.tolist()]))
    if dev.size and float(dev.max()) > t.worst_law:
        t.worst_law = float(dev.max())
        if t.worst_law > LAW_TOL and not t.law_failure:
            i = int(np.argmax(dev.max(axis=1)))
            t.law_failure = (f"probs is not the exact law: P(output) {floats[i].tolist()} vs exact "
                             f"{np.exp(logs[dist_id[int(sigs[i])]]).tolist()} at (x_i, B) = "
                             f"({int(xs[i])}, {int(bs[i])}), beta={beta} k={k} cap={cap} eps={eps:g}")


def _check_edges(t: _AiqTally, su: np.ndarray, sv: np.ndarray, dist_id: dict, dists: list, logs: list,
                 eps_c: Fraction, where: str) -> None:
    """Every pair of distinct laws on a world edge holds ε (exact arithmetic); the worst ratio and δ kept."""
    id_pairs = {tuple(sorted((dist_id[a], dist_id[b]))) for a, b in zip(su.tolist(), sv.tolist())}
    id_pairs = {p for p in id_pairs if p[0] != p[1]}
    t.n_pairs += len(id_pairs)
    for a, b in sorted(id_pairs):
        la, lb = logs[a], logs[b]
        lr = max((abs(p - q) for p, q in zip(la, lb) if not (p == q == -math.inf)), default=0.0)
        t.worst_excess = max(t.worst_excess, lr - float(eps_c))
        if not exact.edge_holds(dists[a], dists[b], eps_c):
            t.exhaustive_ok = False
            t.worst_delta = max(t.worst_delta, _hockey(la, lb, float(eps_c)))
            if not t.first_failure:
                t.first_failure = f"first violation: {where}"


def _check_setting(m: Mechanism, t: _AiqTally, worlds, cache: dict, beta: int, k: int, cap: int | None,
                   eps: float) -> None:
    """One (β, k, cap, ε): the claim's relation, the float law and every edge of the worlds."""
    c = m.claim(eps=eps, beta=beta, k=k, cap=cap)
    if c.neighbours != m.neighbours and not t.relation_failure:  # the table shows m.neighbours
        t.exhaustive_ok = False
        t.relation_failure = (f"the class declares neighbours = {m.neighbours!r} but its claim is on "
                              f"{c.neighbours!r} (beta={beta} k={k} eps={eps:g}): only the claim's "
                              "relation is checked, so the declared one is not")
    eps_c = c.epsilon_exact if c.epsilon_exact is not None else Fraction(c.epsilon)
    codes, edges = _pairs_union(worlds, c.neighbours, beta, k, cache)
    t.n_edges += edges
    su, sv = decode_pair(codes)
    sigs = np.unique(np.concatenate([su, sv]))
    dist_id, dists, logs = _exact_laws(m, sigs, beta, k, eps, cap)
    _check_law(m, t, sigs, dist_id, logs, beta, k, eps, cap)
    _check_edges(t, su, sv, dist_id, dists, logs, eps_c, f"beta={beta} k={k} cap={cap} eps={eps:g}")


@auditor("aiq")
def audit_aiq(m: Mechanism, level: Level) -> AuditRow:
    """Exhaustive exact check on every world edge of the mechanism's own relation, then a sampled CP audit.

    On the same records and parameters, the mechanism's float law ``probs`` - the one Tables 2-3, the error
    sweeps and the claims report - must be its exact law (within :data:`LAW_TOL` in log): a claim proven on
    ``exact_distribution`` says nothing about numbers computed from a ``probs`` that differs from it."""
    worlds = make_worlds(level.domains, level.metrics, level.radii)
    cache: dict = {}
    t = _AiqTally()
    for beta in level.betas:
        for k in level.ks:
            for off in level.cap_offsets:
                for eps in level.eps:
                    _check_setting(m, t, worlds, cache, beta, k, None if off is None else beta + off, eps)
    n_worlds = sum(len(DOMAINS[w.domain][0]) for w in worlds)  # (world, queried record) combinations
    row = AuditRow("mechanism", m.name, m.paper, m.reference, claim_text(m), m.neighbours,
                   worlds=n_worlds, edges=t.n_edges, pairs=t.n_pairs,
                   worst_ratio_over_e_eps=math.exp(t.worst_excess) if t.worst_excess > -math.inf else float("nan"),
                   worst_delta=t.worst_delta, exhaustive_pass=t.exhaustive_ok, law_pass=t.worst_law <= LAW_TOL,
                   note="; ".join(x for x in (t.relation_failure, t.first_failure, t.law_failure) if x))
    with sampled_check(m, row):
        _cp_aiq(m, level, row)
    return row


CP_WORLD = ("line4", "manhattan", 1.0)
CP_PARAMS = dict(beta=3, k=1, eps=1.0, cap=None)


def _cp_aiq(m: Mechanism, level: Level, row: AuditRow) -> None:
    """Sample the most detectable edge of one world (beta = 3, k = 1, eps = 1) with the mechanism's sampler."""
    (w,) = make_worlds([CP_WORLD[0]], [CP_WORLD[1]], [CP_WORLD[2]])
    c = m.claim(**CP_PARAMS)
    codes, _ = w.pairs(c.neighbours, CP_PARAMS["beta"], CP_PARAMS["k"])
    su, sv = decode_pair(codes)
    sigs, inv = np.unique(np.concatenate([su, sv]), return_inverse=True)
    x, b = decode_sig(sigs)
    p1 = np.asarray(m.prob_one(x, b, **CP_PARAMS), float)
    u, v = inv[: len(su)], inv[len(su):]
    n = level.cp_n
    e, _ = exact_loss.worst_binary_edge(p1, u, v, n=n)
    ends = [(int(x[i]), int(b[i])) for i in (u[e], v[e])]

    def sampler(xi: int, bi: int):
        return lambda rng, nn: m.sample(np.array([xi]), np.array([bi]), rng=rng, n_trials=nn, **CP_PARAMS)[:, 0]

    with sampling(f"world {'/'.join(map(str, CP_WORLD))}, (x_i, B) = {ends[0]} vs {ends[1]}, "
                  + ", ".join(f"{key} = {v}" for key, v in CP_PARAMS.items())):
        res = statistical.audit(sampler(*ends[0]), sampler(*ends[1]), statistical.point_events([0, 1]), n,
                                seed=level.seed, label=f"harness/{m.name}")
    row.cp_eps_hat = res.epsilon_lower
    row.cp_claimed_eps = c.epsilon
    gof, where = _gof_aiq(m, level, x, b)
    row.cp_detail = (f"(x_i, B) = {ends[0]} vs {ends[1]}, n = {n} per side; sampler vs exact law on all "
                     f"{len(x)} (x_i, B) of the world, capped and not, eps = 1 and 4: binomial p = {gof:.3g}{where}")
    row.statistical_pass = not res.violates(c.epsilon) and gof > GOF_ALPHA


GOF_ALPHA = 1e-6
"""Smallest Bonferroni-corrected binomial p-value accepted for a paper-A sampler against its exact law."""
GOF_EPS = (1.0, 4.0)
"""The eps of the goodness-of-fit draws: the CP audit's, and one where a rate times a distance passes 1 (the
compiler keeps an error with Bernoulli(exp(-a delta / 4)), a delta / 4 = 2 at delta = 2: exact samplers take
another path beyond 1) while the error probabilities stay large enough to be seen."""
GOF_MAX_DRAWS = {4.0: 10_000}
"""At most this many goodness-of-fit draws per cell at an eps of :data:`GOF_EPS` (``level.gof_n`` where not
listed). The draws at eps = 4 are there to run the samplers' other path (exp(-gamma) with gamma > 1); the fast
level's 5,000 already catch a mistake there (tests/test_audit_paper_a.py), the full level draws twice that
instead of 50,000 (sees ~4.5 % in P(1)), which keeps the audit's time."""


def _gof_aiq(m: Mechanism, level: Level, x: np.ndarray, b: np.ndarray) -> tuple[float, str]:
    """Each (x_i, B) of the CP world, uncapped and capped at beta + 1, at each eps of :data:`GOF_EPS`:
    ``level.gof_n`` draws (full: 50,000, which sees a sampler off by ~2 % in P(1) at the corrected level; fast,
    inside ``make test``: 5,000, ~6 %; at eps = 4 at most :data:`GOF_MAX_DRAWS`) of the mechanism's own sampler
    against the exact law's P(1) (two-sided binomial test, Bonferroni over the cells).
    The CP audit samples one edge; this sees a sampler that strays from its law anywhere else (absent points,
    capped counts). Returns (the corrected smallest p-value, where it was if below :data:`GOF_ALPHA`)."""
    from scipy import stats

    p_min, where, cells = 1.0, "", 0
    for eps, cap in itertools.product(GOF_EPS, (None, CP_PARAMS["beta"] + 1)):
        n = max(1, min(int(level.gof_n), GOF_MAX_DRAWS.get(eps, level.gof_n)))
        params = {**CP_PARAMS, "cap": cap, "eps": eps}
        key = (str(cap),) if eps == CP_PARAMS["eps"] else (str(cap), eps)
        given = _as_given(b, cap)
        with sampling(f"world {'/'.join(map(str, CP_WORLD))}, every (x_i, B), beta = {params['beta']}, "
                      f"k = {params['k']}, cap = {cap}, eps = {eps:g}"):
            ones = m.sample(x, given, rng=seeding.rng(level.seed, "audit", "gof", m.name, *key), n_trials=n,
                            **params).sum(axis=0)
        laws = [m.exact_distribution(int(xi), int(bi), **params) for xi, bi in zip(x, given)]
        want = np.array([math.exp(exact.log_value(d.probs[1], d.theta)) for d in laws])
        lo = stats.binom.cdf(ones, n, want)
        hi = stats.binom.sf(ones - 1, n, want)
        p = np.minimum(1.0, 2 * np.minimum(lo, hi))
        cells += len(x)
        i = int(np.argmin(p))
        if p[i] < p_min:
            p_min = float(p[i])
            where = (f" at (x_i, B) = ({int(x[i])}, {int(b[i])}), cap = {cap}, eps = {eps:g}: {int(ones[i])}/{n} ones, exact "
                     f"P(1) = {want[i]:.4g}")
    corrected = min(1.0, p_min * cells)
    return corrected, (where if corrected <= GOF_ALPHA else "")
