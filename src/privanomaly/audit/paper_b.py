"""The auditors of paper B's families (``count_gaussian``, ``top_h``; :mod:`privanomaly.mechanisms.paper_b`).

``count_gaussian``: each mechanism's exhaustive grid worlds (:meth:`CountGaussian.audit_rows`, N = 4-7, 1-D and
2-D, plus the 2-D pentagon and 3-D icosahedron pairs where Theorem 4's bound is attained) at each audit eps,
then a Clopper-Pearson audit of its own sampler on the 3-D cube pair and a Kolmogorov-Smirnov test of the
sampler against the exact law. Theorems 1-2 are checked at the audit's own reading of their constants
(:func:`theorem1_factor`, :func:`theorem2_constants`), not at the library's: a wrong constant in
:mod:`privanomaly.outliers.gaussian` would otherwise move the check with the release. ``top_h``: the exact
pure-DP loss of the output set and the utility's jump (Theorem 7's Delta u = 1) on every edge of the 5 x 2 grid
world and of two pairs where that bound is attained (1-D and 3-D subspaces), then Clopper-Pearson on the worst
edge and a chi-square test of the sampler against its set law at every audit eps. A sampler whose loop stalls
(:mod:`privanomaly.sp.loop_budget`) fails its row. Registered with :func:`.harness.auditor` when
:mod:`privanomaly.audit` is imported.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from privanomaly.mechanisms.base import Mechanism
from privanomaly.mechanisms.paper_b import DEFAULT_DELTA, CountGaussian, GaussianGlobal, GaussianSmooth, TopH
from privanomaly.outliers import audit_worlds as aw
from privanomaly.outliers import enclosing, smooth

from . import float_boundary_worlds
from . import harness as _harness
from . import statistical as _stat

__all__ = ["AUDIT_EPS", "GOF_ALPHA", "theorem1_factor", "theorem2_constants", "readings_row", "audit_count_gaussian",
           "audit_top_h"]

#: the eps at which paper B's families are audited (``Level.extra["paper_b_eps"]`` overrides). The last is the
#: largest eps at which every count claim is still proven at delta = 0.01 (Theorem 1's condition holds up to eps ~
#: 7.906): Theorem 2's beta is 0.30 there, against 0.02-0.04 at the others, where e^(-beta t) hardly decays and a
#: smooth bound cut short in t (an early stop too soon) still passes S(X) <= e^beta S(X')
AUDIT_EPS = {"fast": (0.5, 7.5), "full": (0.1, 0.9, 7.5)}


def theorem1_factor(delta: float) -> float:
    """Theorem 1 of paper B as printed (eq. 4): sigma = GS sqrt(2 ln(2/delta)) / eps; this returns
    sqrt(2 ln(2/delta)). The audit's own reading of the theorem, kept apart from the mechanisms' constants
    (:mod:`privanomaly.outliers.gaussian`) so that a wrong constant there cannot move the check with it."""
    return math.sqrt(2.0 * math.log(2.0 / delta))


def theorem2_constants(eps: float, delta: float) -> tuple[float, float]:
    """Theorem 2 of paper B as printed (eq. 9, Nissim-Raskhodnikova-Smith Lemma 2.9) for a count (p = 1):
    ``alpha = eps / (5 sqrt(2 ln(2/delta)))``, ``beta = eps / (4 (1 + ln(2/delta)))`` - the audit's own reading
    (see :func:`theorem1_factor`). The smooth Gaussians are checked at this beta (S(X) <= e^beta S(X'),
    S >= the grid's beta-smooth sensitivity) with S = their released sigma times this alpha."""
    log_term = math.log(2.0 / delta)
    return eps / (5.0 * math.sqrt(2.0 * log_term)), eps / (4.0 * (1.0 + log_term))


def _oracle(m: CountGaussian, eps: float, delta: float) -> dict:
    """The audit's constants for a Gaussian's own checks (:meth:`GaussianSmooth.audit_rows`,
    :meth:`GaussianGlobal.audit_rows`); nothing for another count mechanism."""
    if isinstance(m, GaussianSmooth):
        return {"constants": theorem2_constants(eps, delta)}
    if isinstance(m, GaussianGlobal):
        return {"factor": theorem1_factor(delta)}
    return {}


def readings_row(m: CountGaussian, eps_list, delta: float) -> dict:
    """Scenario 1 (Figures 3-4) computes its sigmas through the readings of
    :data:`privanomaly.outliers.conventions.CONVENTIONS`, not through these mechanisms, and states the rows of a
    reading with ``privacy_proven`` proven: every such reading must use Theorem 1's sigma (``sigma_global`` at
    GS = 1 at least the audit's sqrt(2 ln(2/delta)) / eps, or refused) and Theorem 2's alpha and beta (at most the
    audit's; :func:`theorem2_constants`) at every audit eps. One row in ``audit_rows``' keys (``worst_ratio``:
    the largest of the reading's alpha / alpha*, beta / beta* and sigma* / sigma_global)."""
    from privanomaly.outliers.conventions import CONVENTIONS, noise_scales

    smooth = isinstance(m, GaussianSmooth)
    worst, bad = 0.0, []
    proven = [c for c in CONVENTIONS.values() if c.privacy_proven and not (smooth and c.use_ls0)]
    for conv in proven:
        for eps in eps_list:
            sc = noise_scales(conv, 1, eps, delta)
            if smooth:
                a, b = theorem2_constants(eps, delta)
                ratio = max(sc.alpha / a, sc.beta / b)
            else:
                ratio = 0.0 if math.isnan(sc.sigma_global) else theorem1_factor(delta) / eps / sc.sigma_global
            worst = max(worst, ratio)
            if ratio > 1 + 1e-12:
                bad.append(f"{conv.name} at eps = {eps:g}")
    return {"mechanism": m.name, "claim": m.claim(eps=eps_list[0], delta=delta).describe(),
            "world": "scenario1_readings" + (f" (not Theorem {2 if smooth else 1}: {', '.join(bad)})" if bad else ""),
            "datasets": len(proven), "pairs": 0, "worst_ratio": worst, "worst_delta": 0.0,
            "passed": not bad}


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
    where = f"3-D cube pair (k = {k}, r = {r:g}), eps = {eps:g}, delta = {delta:g}"
    with _harness.sampling(where):
        res = _stat.audit(
            lambda rng, nn: m.sample(X, k=k, r=r, eps=eps, delta=delta, rng=rng, n_trials=nn),
            lambda rng, nn: m.sample(Xp, k=k, r=r, eps=eps, delta=delta, rng=rng, n_trials=nn),
            events, n, seed=level.seed, label=f"harness/{m.name}", delta=delta)
    row.cp_eps_hat, row.cp_claimed_eps = res.epsilon_lower, eps
    with _harness.sampling(where + " (goodness of fit)"):
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
        rows = [r for eps in eps_list
                for r in m.audit_rows(fast=fast, eps=eps, delta=DEFAULT_DELTA, **_oracle(m, eps, DEFAULT_DELTA))]
    n_worlds = len(rows) // len(eps_list)
    if isinstance(m, GaussianSmooth) and m.bound in ("paper", "fast"):  # Theorem 2's premise S >= LS at ties
        boundary = float_boundary_worlds.smooth_rows(m, fast, eps_list[0], DEFAULT_DELTA, seed=level.seed)
        rows, n_worlds = rows + boundary, n_worlds + len(boundary)
    if isinstance(m, (GaussianSmooth, GaussianGlobal)):
        rows, n_worlds = rows + [readings_row(m, eps_list, DEFAULT_DELTA)], n_worlds + 1
    claim = f"(ε, {DEFAULT_DELTA:g})-DP on substitution" + ("" if m.claim(eps=eps_list[0]).proven else " [unproven]")
    row = _aggregate(m, rows, claim, n_worlds)
    with _harness.sampled_check(m, row):
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
    with _harness.sampled_check(m, row):
        _sampled_top_h(m, level, row, eps_list)
    return row


#: draws per side of the top-h goodness of fit at an audit eps other than the first (the Clopper-Pearson eps,
#: ``level.cp_n`` draws): at eps = 7.5 a draw's gamma = eps (u_ref - u) / (2 h) passes 1, where the exact
#: Bernoulli(exp(-gamma)) takes its other path (whole part), and the set law is far from uniform
TOP_H_GOF_DRAWS = 20_000


def _set_gof(got: np.ndarray, codes: list[int], law: np.ndarray) -> float:
    """Chi-square p-value of output-set codes against their exact law (cells expecting < 5 pooled); 0 when
    an impossible set was drawn."""
    from scipy import stats

    n = got.size
    obs = np.array([np.count_nonzero(got == c) for c in codes], dtype=float)
    want = law * n
    if obs[want == 0].sum():
        return 0.0
    big = want >= 5
    obs_p, want_p = np.append(obs[big], obs[~big].sum()), np.append(want[big], want[~big].sum())
    keep = want_p > 0
    if keep.sum() < 2:
        return 1.0
    return float(stats.chisquare(obs_p[keep], want_p[keep] * obs_p[keep].sum() / want_p[keep].sum()).pvalue)


def _sampled_top_h(m: TopH, level, row: _harness.AuditRow, eps_list) -> None:
    """Clopper-Pearson on the sampler (h = 2, the edge of the grid world with the largest exact loss, events =
    the output sets, at the first audit eps), then the sampler against its exact set law on both databases of
    that edge at every audit eps (chi-square; Bonferroni over the tests)."""
    from privanomaly import seeding

    eps, h = eps_list[0], 2
    util, u, v, n_cand = m.audit_world()
    law = m.set_laws(util, h, eps)
    e = int(np.argmax(np.abs(np.log(law[u]) - np.log(law[v])).max(axis=1)))
    codes = [sum(1 << i for i in st) for st in itertools.combinations(range(n_cand), h)]
    weights = 1 << np.arange(n_cand)

    def sampler(state, at):
        return lambda rng, nn: m.sample(util[state], h=h, eps=at, rng=rng, n_trials=nn) @ weights

    with _harness.sampling(f"5 x 2 grid world, worst edge, h = {h}, eps = {eps:g}"):
        res = _stat.audit(sampler(u[e], eps), sampler(v[e], eps), _stat.point_events(codes), level.cp_n,
                          seed=level.seed, label=f"harness/{m.name}")
    claimed = m.claim(eps=eps).epsilon
    row.cp_eps_hat, row.cp_claimed_eps = res.epsilon_lower, claimed
    gof, tests = 1.0, 0
    for at in eps_list:
        n = level.cp_n if at == eps else min(level.cp_n, TOP_H_GOF_DRAWS)
        key = () if at == eps else (f"eps={at!r}",)
        for side, state in (("u", u[e]), ("v", v[e])):  # both databases of the edge (one may be uniform)
            with _harness.sampling(f"5 x 2 grid world, database {side} of the worst edge, h = {h}, eps = {at:g}"):
                got = sampler(state, at)(seeding.rng(level.seed, "harness", "gof", m.name, side, *key), n)
            gof = min(gof, _set_gof(got, codes, m.set_law(util[state], h, at)))
            tests += 1
    gof = min(1.0, gof * tests)
    row.cp_detail = (f"5 x 2 grid world, worst edge, h = {h}, eps = {eps:g}, n = {level.cp_n} per side; sampler vs "
                     f"exact law on both sides at eps = {', '.join(f'{x:g}' for x in eps_list)} (at most "
                     f"{TOP_H_GOF_DRAWS} draws after the first): chi-square p = {gof:.3g} (smallest, Bonferroni)")
    row.statistical_pass = not res.violates(claimed) and gof > GOF_ALPHA
