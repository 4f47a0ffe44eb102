"""Paper B's mechanisms for the outlier count and top-h subspace discovery, registered by name.

=========================  =====================================================  ============  ===========================
registry name              paper B                                                neighbours    claim at (eps, delta)
=========================  =====================================================  ============  ===========================
gaussian_gs_upper          Theorem 1 with GS <= min(N, k K_d + 1) (Theorem 4)     substitution  (eps, delta)-DP if the Theorem 1 condition holds
gaussian_gs_lower          Theorem 1 with min(N, 2dk + 1) (Figs. 3-4 as printed)  substitution  unproven: GS lower bound
gaussian_smooth_paper      Theorem 2 with Algorithm 2 (smooth bound, eqs. 29-31)  substitution  (eps, delta)-DP
gaussian_smooth_fast       Theorem 2 with the block bound (beyond the paper)      substitution  (eps, delta)-DP
exp_top_h                  Algorithm 3 (Theorem 7, eq. 51), eps/h per draw        substitution  eps-DP
=========================  =====================================================  ============  ===========================

Which smooth bound a smooth-sensitivity Gaussian releases is part of its *name* (a public choice), never
decided by the data (issue 12, item 1). :func:`negative_controls` returns the known-broken variants the audit
harness must catch (not registered): the data-dependent budget switch of issue 12 item 1.

Audit hook: every mechanism here has ``audit_rows(fast: bool) -> list[dict]`` - exhaustive small-world checks
kept next to the mechanism (:mod:`privanomaly.outliers.audit_worlds` for the smooth bounds); each row has at
least ``mechanism``, ``claim``, ``world``, ``datasets``, ``pairs``, ``worst_ratio`` (worst e^loss / e^eps, or
S ratio / e^beta), ``worst_delta`` and ``passed``.

Sampling is exact (issue 12), from uniform integers of a ``numpy.random.Generator`` only: top-h by
:func:`privanomaly.outliers.exponential.top_h_draws` (uniform proposals accepted by exact Bernoulli(exp(-gamma))
draws, rational rate <= eps; the claim reports that rate); the Gaussian releases by
:func:`privanomaly.outliers.exact_normal.gaussian_release_exact` (Karney's exact normal, ``q + sigma Z`` rounded
to the public grid 2^-32: post-processing, so Theorems 1-2 cover the release as they cover ``q + sigma Z``).
The harness checks each sampler against its exact law (Kolmogorov-Smirnov / chi-square) besides the
Clopper-Pearson audit; :func:`negative_controls` adds a Gaussian sampler with half the claimed sigma.
"""

from __future__ import annotations

import itertools
import math
from functools import partial

import numpy as np

from privanomaly import outliers as ol
from privanomaly.outliers import audit_worlds as aw
from privanomaly.outliers import exact_normal

from .base import Claim, Mechanism, check_rng, check_trials
from .registry import register

__all__ = ["CountGaussian", "GaussianGlobal", "GaussianSmooth", "TopH", "negative_controls", "DEFAULT_DELTA"]

#: delta of a claim when none is given (paper B, Sec. 6.2: "delta was fixed as delta = 0.01")
DEFAULT_DELTA = 0.01


class CountGaussian(Mechanism):
    """Release ``q_count(X, k, r) + sigma(X) Z``, Z ~ N(0, 1) (paper B, eqs. 4 and 9)."""

    paper = "B"
    family = "count_gaussian"
    neighbours = "substitution"

    def sigma(self, X: np.ndarray, *, k: int, r: float, eps: float, delta: float) -> float:  # pragma: no cover
        raise NotImplementedError

    def exact_distribution(self, X: np.ndarray, *, k: int, r: float, eps: float, delta: float) -> tuple[float, float]:
        """The output law N(mean, sigma^2) as (mean, sigma)."""
        return float(ol.q_count(X, k, r)), self.sigma(X, k=k, r=r, eps=eps, delta=delta)

    def sample(self, X, *, k, r, eps, delta, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        """Exact draws of N(mean, sigma^2) rounded to the public grid 2^-32 (post-processing:
        :mod:`privanomaly.outliers.exact_normal`); no float variate is drawn."""
        mean, sigma = self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta)
        return ol.gaussian_release(mean, sigma, check_rng(rng), check_trials(n_trials))

    def release_cdf(self, t, X, *, k, r, eps, delta) -> np.ndarray:
        """Exact law of :meth:`sample`: ``P(release <= t)`` (the Gaussian rounded to the grid)."""
        mean, sigma = self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta)
        return exact_normal.rounded_normal_cdf(t, mean, sigma)


class GaussianGlobal(CountGaussian):
    """Theorem 1 with a global-sensitivity bound ``gs(N, d, k)`` (upper: proven; lower: the paper's figure)."""

    def __init__(self, which: str):
        if which not in ("upper", "lower"):
            raise ValueError(f"GaussianGlobal: which must be 'upper' or 'lower', got {which!r}")
        self.which = which
        self.gs = ol.gs_upper if which == "upper" else ol.gs_lower
        self.label = f"Gaussian (GS {which} bound)"
        self.reference = (
            "Theorem 1 with GS <= min(N, k K_d + 1) (Theorem 4, eq. 18)" if which == "upper"
            else "Theorem 1 with the lower bound min(N, 2dk + 1) of eq. (18) (Figs. 3-4 as printed)"
        )

    def sigma(self, X, *, k, r, eps, delta) -> float:
        X = np.asarray(X, dtype=float)
        N, d = (len(X), 1) if X.ndim == 1 else X.shape
        return ol.sigma_global(self.gs(N, d, k), eps, delta)

    def claim(self, *, eps, delta=DEFAULT_DELTA, **_) -> Claim:
        ok = ol.theorem1_exact_delta(eps, delta) <= delta
        if self.which == "lower":
            return Claim(eps, delta, self.neighbours, proven=False,
                         note="a GS lower bound proves nothing (2-D pentagon: 16 > 13; 7-D: 49 > 43)")
        note = self.reference if ok else (
            f"Theorem 1 condition fails: exact delta {ol.theorem1_exact_delta(eps, delta):.3g} > delta "
            f"(eps <= {ol.theorem1_max_epsilon(delta):.4g} needed)")
        return Claim(eps, delta, self.neighbours, proven=ok, note=note)

    def audit_rows(self, fast: bool = True, eps: float = 0.5, delta: float = 0.01) -> list[dict]:
        """On every grid world: the largest |q(X) - q(X')| over edges is <= GS, and the exact delta(eps) of
        the released Gaussians (equal sigma) on the worst edge is <= delta."""
        from privanomaly.audit import gaussian_hockey_stick

        rows = []
        for w in aw.FAST_WORLDS if fast else aw.DEFAULT_WORLDS:
            grid = np.asarray(w.grid, dtype=float)
            states, u, v = aw.grid_world(len(grid), w.N)
            q = np.array([ol.q_count(grid[list(s)], w.k, w.r) for s in states], dtype=float)
            jump = float(np.abs(q[u] - q[v]).max())
            gs = self.gs(w.N, grid.shape[1], w.k)
            sigma = ol.sigma_global(gs, eps, delta)
            worst = gaussian_hockey_stick(0.0, sigma, jump, sigma, eps)
            rows.append({"mechanism": self.name, "claim": self.claim(eps=eps, delta=delta).describe(),
                         "world": w.name, "datasets": len(states), "pairs": len(u),
                         "worst_ratio": jump / gs if gs else math.inf, "worst_delta": worst,
                         "passed": bool(jump <= gs and worst <= delta)})
        return rows


class GaussianSmooth(CountGaussian):
    """Theorem 2 with a named beta-smooth upper bound S (``paper``: Algorithm 2; ``fast``: block bound)."""

    def __init__(self, bound: str, max_work: int | None = None):
        self.bound = bound
        self.max_work = max_work
        names = {"paper": "Algorithm 2 (Propositions 1-2, Algorithm 1)", "fast": "the block bound (beyond the paper)",
                 "budget_switch": "Algorithm 2 within a work budget, else the block bound (NOT smooth)"}
        if bound not in names:
            raise ValueError(f"GaussianSmooth: bound must be one of {sorted(names)}, got {bound!r}")
        self.label = f"Gaussian (smooth sensitivity, {bound})"
        self.reference = f"Theorem 2 with {names[bound]}"

    def smooth_bound(self, X, k, r, beta) -> float:
        """S_beta(X) of this mechanism's named bound."""
        from privanomaly.paper_b import released_bound as pbs

        if self.bound == "budget_switch":
            return pbs.budget_switch_bound(X, k, r, beta, self.max_work if self.max_work is not None else 50)
        return float(pbs.smooth_bound(X, k, r, beta, self.bound)["value"])

    def sigma(self, X, *, k, r, eps, delta) -> float:
        _, beta = ol.smooth_parameters(eps, delta)
        return ol.sigma_smooth(self.smooth_bound(X, k, r, beta), eps, delta)

    def claim(self, *, eps, delta=DEFAULT_DELTA, **_) -> Claim:
        if self.bound == "budget_switch":
            return Claim(eps, delta, self.neighbours, proven=False, note="data-dependent choice of bound: not DP")
        worst = ol.theorem2_worst_delta(eps, delta)
        if worst > delta:
            return Claim(eps, delta, self.neighbours, proven=False,
                         note=f"Theorem 2 condition fails: worst exact delta {worst:.3g} > delta")
        return Claim(eps, delta, self.neighbours, note=self.reference)

    def audit_rows(self, fast: bool = True, eps: float = 0.5, delta: float = 0.01) -> list[dict]:
        rows = aw.smooth_audit_rows({self.name or self.bound: self.smooth_bound}, fast, eps, delta)
        if self.bound in ("paper", "fast"):  # Theorem 2's premise S >= LS at the float boundary of the radius
            from privanomaly.audit import float_boundary_worlds

            rows += float_boundary_worlds.smooth_rows(self, fast, eps, delta)
        claim = self.claim(eps=eps, delta=delta).describe()
        return [{"mechanism": self.name or f"smooth_{self.bound}", "claim": claim, "world": r["world"],
                 "datasets": r["datasets"], "pairs": r["pairs"], "worst_ratio": r["worst_smooth_ratio"],
                 "min_s_over_grid_smooth": r["min_s_over_grid_smooth"], "worst_delta": r["worst_delta"],
                 "passed": r["passed"]} for r in rows]


class TopH(Mechanism):
    """Algorithm 3: h draws of the exponential mechanism (eps/h each, Pr ∝ exp(eps u / (2 h Δu))), without
    replacement, on u_subspace = q_count / GS^UB (eq. 51, Δu <= 1 by Theorem 7). eps-DP."""

    paper = "B"
    family = "top_h"
    neighbours = "substitution"
    label = "exponential top-h"
    reference = "Algorithm 3 (Theorem 7, eq. 51)"

    def claim(self, *, eps, **_) -> Claim:
        """eps-DP at the rate actually used: ``rational_rate(eps) <= eps`` (h draws of rate/h each)."""
        rate = ol.exponential.draw_rate(eps)
        return Claim(float(rate), 0.0, self.neighbours, epsilon_exact=rate,
                     note="McSherry-Talwar with Δu <= 1, rational_rate(eps)/h per draw")

    def exact_distribution(self, utility, *, h: int, eps: float) -> dict[tuple[int, ...], float]:
        """Probability of every ordered output (:func:`privanomaly.outliers.top_h_sequence_probs`)."""
        return ol.top_h_sequence_probs(utility, h, eps)

    def sample(self, utility, *, h, eps, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        """Bool (n_trials, n_candidates), h True per row (exact rejection sampler of Algorithm 3)."""
        return ol.top_h_trials(utility, h, eps, check_rng(rng), check_trials(n_trials))

    @staticmethod
    def audit_world() -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Every database of N = 3 records on the 5 x 2 grid, candidates {0}, {1}, {0, 1}: (utility per
        state, edges u, v, number of candidates)."""
        cells = np.array([(a, b) for a in range(5) for b in range(2)], dtype=float)
        subspaces, N, k, r = [(0,), (1,), (0, 1)], 3, 1, 1.0
        states, u, v = aw.grid_world(len(cells), N)
        dims = np.array([len(S) for S in subspaces])
        util = np.array([ol.subspace_utility(np.array([ol.q_count(cells[list(s)], k, r, S) for S in subspaces]),
                                             N, dims, k) for s in states])
        return util, u, v, len(subspaces)

    def set_law(self, utility, h: int, eps: float) -> np.ndarray:
        """Exact law of the output *set* over the C(n, h) sets in lexicographic order (this mechanism's law:
        subclasses such as the printed exponent, ``exp_top_h_printed``, bring their own)."""
        seq = self.exact_distribution(utility, h=h, eps=eps)
        sets = list(itertools.combinations(range(len(utility)), h))
        return np.array([sum(seq[o] for o in itertools.permutations(st)) for st in sets])

    def audit_rows(self, fast: bool = True, eps: float = 0.5) -> list[dict]:
        """The exact pure-DP loss of the output set on every edge of :meth:`audit_world` is <= the claimed
        epsilon (eps here; 2 eps for the printed exponent)."""
        util, u, v, n = self.audit_world()
        rows = []
        for h in (1, 2) if fast else (1, 2, 3):
            law = np.array([self.set_law(row, h, eps) for row in util])
            loss = np.abs(np.log(law[u]) - np.log(law[v])).max()
            claimed = self.claim(eps=eps).epsilon
            rows.append({"mechanism": self.name, "claim": self.claim(eps=eps).describe(), "world": f"2d_5x2_N3_h{h}",
                         "datasets": len(util), "pairs": len(u), "worst_ratio": math.exp(loss - claimed),
                         "worst_delta": 0.0, "passed": bool(loss <= claimed * (1 + 1e-9))})
        return rows


register("gaussian_gs_upper")(partial(GaussianGlobal, "upper"))
register("gaussian_gs_lower")(partial(GaussianGlobal, "lower"))
register("gaussian_smooth_paper")(partial(GaussianSmooth, "paper"))
register("gaussian_smooth_fast")(partial(GaussianSmooth, "fast"))
register("exp_top_h")(TopH)


class GaussianHalfSigmaSampler(GaussianGlobal):
    """Negative control: Theorem 1 with the GS upper bound whose *sampler* draws with sigma / 2 while its law
    and claim say sigma (a sampler that does not sample its stated law; only the goodness-of-fit check on the
    sampler can see it - the exhaustive checks use the stated sigma)."""

    def __init__(self):
        super().__init__("upper")
        self.label = "Gaussian (GS upper bound), sampler with sigma / 2 (broken)"
        self.reference = "negative control (Theorem 1, sampler with half the stated sigma)"

    def sample(self, X, *, k, r, eps, delta, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        mean, sigma = self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta)
        return ol.gaussian_release(mean, sigma / 2, check_rng(rng), check_trials(n_trials))


class TopHDoubleRateSampler(TopH):
    """Negative control: Algorithm 3 whose sampler draws at 2 eps while its law and claim say eps."""

    label = "exponential top-h, sampler at 2 eps (broken)"
    reference = "negative control (Algorithm 3, sampler at twice the stated eps)"

    def sample(self, utility, *, h, eps, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        return super().sample(utility, h=h, eps=2 * eps, rng=rng, n_trials=n_trials)


def negative_controls() -> dict[str, Mechanism]:
    """Known-broken mechanisms the harness must catch (never registered; the harness collects them from here):
    issue 12 item 1's data-dependent switch, Algorithm 2 within a work budget (50), else the fast bound; and a
    Gaussian whose sampler uses half its stated sigma; a top-h whose sampler runs at twice its stated eps."""
    m = GaussianSmooth("budget_switch", max_work=50)
    m.name = "gaussian_smooth_budget_switch"
    half = GaussianHalfSigmaSampler()
    half.name = "gaussian_gs_upper_half_sigma_sampler"
    double = TopHDoubleRateSampler()
    double.name = "exp_top_h_double_rate_sampler"
    from privanomaly.audit import float_boundary_worlds  # the code before the float-boundary fixes

    return {m.name: m, half.name: half, double.name: double, **float_boundary_worlds.negative_controls()}


# ------------------------------------------------------------------------ hooks of the audit harness
from privanomaly.audit import harness as _harness  # noqa: E402 - after the registrations (import order)
from privanomaly.audit import statistical as _stat  # noqa: E402

#: the eps at which paper B's families are audited (``Level.extra["paper_b_eps"]`` overrides)
AUDIT_EPS = {"fast": (0.5,), "full": (0.1, 0.9)}


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
    """Sample the cube pair of issue 12 item 1 (the edge where a data-dependent bound switch shows) with the
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
    row.cp_detail = (f"3-D cube pair (issue 12 item 1), eps = {eps:g}, delta = {delta:g}, n = {n} per side; "
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
    rows = [r for eps in eps_list for r in m.audit_rows(fast=fast, eps=eps, delta=DEFAULT_DELTA)]
    claim = f"(ε, {DEFAULT_DELTA:g})-DP on substitution" + ("" if m.claim(eps=eps_list[0]).proven else " [unproven]")
    row = _aggregate(m, rows, claim, len(rows) // len(eps_list))
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
