"""The auditors of paper B's families (``count_gaussian``, ``top_h``; :mod:`privanomaly.mechanisms.paper_b`).

``count_gaussian``: each mechanism's exhaustive grid worlds (:meth:`CountGaussian.audit_rows`, N = 4-7, 1-D and
2-D) at each audit eps, then a Clopper-Pearson audit of its own sampler on the 3-D cube pair and a
Kolmogorov-Smirnov test of the sampler against the exact law. ``top_h``: the exact pure-DP loss of the output set
on every edge of the 5 x 2 grid world, then Clopper-Pearson and a chi-square test of the sampler on the worst
edge. Registered with :func:`.harness.auditor` when :mod:`privanomaly.audit` is imported.
"""

from __future__ import annotations

import itertools

import numpy as np

from privanomaly.mechanisms.base import Mechanism
from privanomaly.mechanisms.paper_b import DEFAULT_DELTA, CountGaussian, GaussianSmooth, TopH
from privanomaly.outliers import audit_worlds as aw
from privanomaly.outliers import enclosing, smooth

from . import float_boundary_worlds
from . import harness as _harness
from . import statistical as _stat

__all__ = ["AUDIT_EPS", "GOF_ALPHA", "audit_count_gaussian", "audit_top_h"]

#: the eps at which paper B's families are audited (``Level.extra["paper_b_eps"]`` overrides). The last is the
#: largest eps at which every count claim is still proven at delta = 0.01 (Theorem 1's condition holds up to eps ~
#: 7.906): Theorem 2's beta is 0.30 there, against 0.02-0.04 at the others, where e^(-beta t) hardly decays and a
#: smooth bound cut short in t (an early stop too soon) still passes S(X) <= e^beta S(X')
AUDIT_EPS = {"fast": (0.5, 7.5), "full": (0.1, 0.9, 7.5)}


def _aggregate(m: Mechanism, rows: list[dict], claim: str, n_worlds: int) -> _harness.AuditRow:
    bad = [r for r in rows if not r["passed"]]
    return _harness.AuditRow(
        "mechanism", m.name, m.paper, m.reference, claim, m.neighbours,
        worlds=n_worlds, edges=int(sum(r["pairs"] for r in rows)), pairs=int(sum(r["pairs"] for r in rows)),
        worst_ratio_over_e_eps=float(max(r["worst_ratio"] for r in rows)),
        worst_delta=float(max(r["worst_delta"] for r in rows)),
        exhaustive_pass=not bad,
        expected="pass" if m.claim(**_harness.AUDIT_ROWS_PARAMS).proven else "unproven",
        note=f"first failure: {bad[0]['world']}" if bad else "",
    )


def _cp_gaussian(m: CountGaussian, level, row: _harness.AuditRow, eps: float, delta: float) -> None:
    """Sample the 3-D cube pair (the edge where a data-dependent bound switch shows) with the
    mechanism's own sampler; Clopper-Pearson lower bound of eps at the claimed delta (threshold events)."""
    X, Xp, k, r = aw.cube_pair()
    (ma, sa), (mb_, sb) = (m.exact_distribution(Y, k=k, r=r, eps=eps, delta=delta) for Y in (X, Xp))
    span = 4 * max(sa, sb)
    events = _stat.threshold_events(np.linspace(min(ma, mb_) - span, max(ma, mb_) + span, 41))
    n = level.cp_n
    res = _stat.audit(
        lambda rng, nn: m.sample(X, k=k, r=r, eps=eps, delta=delta, rng=rng, n_trials=nn),
        lambda rng, nn: m.sample(Xp, k=k, r=r, eps=eps, delta=delta, rng=rng, n_trials=nn),
        events, n, seed=level.seed, label=f"harness/{m.name}", delta=delta)
    row.cp_eps_hat, row.cp_claimed_eps = res.epsilon_lower, eps
    gof = _gof_gaussian(m, level, X, k, r, eps, delta)
    row.cp_detail = (f"3-D cube pair, eps = {eps:g}, delta = {delta:g}, n = {n} per side; "
                     f"sampler vs exact law: Kolmogorov-Smirnov p = {gof:.3g} (n = {n})")
    row.statistical_pass = not res.violates(eps) and gof > GOF_ALPHA


#: a sampler fails its goodness-of-fit check against its exact law below this p-value (fixed seeds: the
#: check is deterministic; a correct sampler is below it with probability 1e-6)
GOF_ALPHA = 1e-6


def _gof_gaussian(m: CountGaussian, level, X, k, r, eps: float, delta: float) -> float:
    """Kolmogorov-Smirnov p-value of ``level.cp_n`` draws of the mechanism's sampler against its exact law
    (:meth:`CountGaussian.release_cdf`)."""
    from scipy import stats

    from privanomaly import seeding

    rng = seeding.rng(level.seed, "harness", "gof", m.name)
    y = m.sample(X, k=k, r=r, eps=eps, delta=delta, rng=rng, n_trials=level.cp_n)
    return float(stats.kstest(y, lambda t: m.release_cdf(t, X, k=k, r=r, eps=eps, delta=delta)).pvalue)


@_harness.auditor("count_gaussian")
def audit_count_gaussian(m: CountGaussian, level) -> _harness.AuditRow:
    """Exhaustive grid worlds (N = 4-7, 1-D and 2-D; :mod:`privanomaly.outliers.audit_worlds`) at each audit eps,
    then a sampled Clopper-Pearson audit on the cube pair."""
    eps_list = level.extra.get("paper_b_eps", AUDIT_EPS.get(level.name, AUDIT_EPS["fast"]))
    fast = level.name != "full"
    with enclosing.memoised(), smooth.reuse_block_bounds():  # shares the harness's memos when called from run()
        rows = [r for eps in eps_list for r in m.audit_rows(fast=fast, eps=eps, delta=DEFAULT_DELTA)]
    n_worlds = len(rows) // len(eps_list)
    if isinstance(m, GaussianSmooth) and m.bound in ("paper", "fast"):  # Theorem 2's premise S >= LS at ties
        boundary = float_boundary_worlds.smooth_rows(m, fast, eps_list[0], DEFAULT_DELTA, seed=level.seed)
        rows, n_worlds = rows + boundary, n_worlds + len(boundary)
    claim = f"(ε, {DEFAULT_DELTA:g})-DP on substitution" + ("" if m.claim(eps=eps_list[0]).proven else " [unproven]")
    row = _aggregate(m, rows, claim, n_worlds)
    _cp_gaussian(m, level, row, eps_list[0], DEFAULT_DELTA)
    return row


@_harness.auditor("top_h")
def audit_top_h(m: TopH, level) -> _harness.AuditRow:
    """Exhaustive exact pure-DP loss of the output set on every edge of the 5 x 2 grid world (N = 3)."""
    eps_list = level.extra.get("paper_b_eps", AUDIT_EPS.get(level.name, AUDIT_EPS["fast"]))
    rows = [r for eps in eps_list for r in m.audit_rows(fast=level.name != "full", eps=eps)]
    factor = m.claim(eps=1.0).epsilon  # 1 for exp_top_h, 2 for the printed exponent (exp_top_h_printed)
    row = _aggregate(m, rows, f"({'' if factor == 1 else f'{factor:g}'}ε, 0)-DP on substitution",
                     len(rows) // len(eps_list))
    # Clopper-Pearson on the sampler: h = 2, the edge with the largest exact loss, events = the output sets
    eps, h = eps_list[0], 2
    util, u, v, n_cand = m.audit_world()
    law = np.array([m.set_law(x, h, eps) for x in util])
    e = int(np.argmax(np.abs(np.log(law[u]) - np.log(law[v])).max(axis=1)))
    codes = [sum(1 << i for i in st) for st in itertools.combinations(range(n_cand), h)]
    weights = 1 << np.arange(n_cand)

    def sampler(state):
        return lambda rng, nn: m.sample(util[state], h=h, eps=eps, rng=rng, n_trials=nn) @ weights

    res = _stat.audit(sampler(u[e]), sampler(v[e]), _stat.point_events(codes), level.cp_n, seed=level.seed,
                      label=f"harness/{m.name}")
    claimed = m.claim(eps=eps).epsilon
    row.cp_eps_hat, row.cp_claimed_eps = res.epsilon_lower, claimed
    # goodness of fit of the sampler against its exact set law (chi-square, cells with expectation < 5 pooled)
    from scipy import stats

    from privanomaly import seeding

    gof = 1.0
    for side, state in (("u", u[e]), ("v", v[e])):  # both databases of the edge (one may be uniform)
        got = sampler(state)(seeding.rng(level.seed, "harness", "gof", m.name, side), level.cp_n)
        obs = np.array([np.count_nonzero(got == c) for c in codes], dtype=float)
        want = law[state] * level.cp_n
        if obs[want == 0].sum():
            gof = 0.0
            continue
        big = want >= 5
        obs_p, want_p = np.append(obs[big], obs[~big].sum()), np.append(want[big], want[~big].sum())
        keep = want_p > 0
        gof = min(gof, float(stats.chisquare(obs_p[keep], want_p[keep] * obs_p[keep].sum() / want_p[keep].sum()).pvalue))
    row.cp_detail = (f"5 x 2 grid world, worst edge, h = {h}, eps = {eps:g}, n = {level.cp_n} per side; sampler vs "
                     f"exact law: chi-square p = {gof:.3g} (smaller of the two sides)")
    row.statistical_pass = not res.violates(claimed) and gof > GOF_ALPHA
    return row
