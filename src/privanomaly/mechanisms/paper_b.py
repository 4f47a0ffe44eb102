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
decided by the data. The known-broken variants the audit must catch (the data-dependent budget switch, samplers
that do not sample their law) are negative controls of :mod:`privanomaly.audit.controls`, not registered here.

Audit hook: every mechanism here has ``audit_rows(fast: bool) -> list[dict]`` - exhaustive small-world checks
kept next to the mechanism (:mod:`privanomaly.outliers.audit_worlds` for the smooth bounds); each row has at
least ``mechanism``, ``claim``, ``world``, ``datasets``, ``pairs``, ``worst_ratio`` (worst e^loss / e^eps, or
S ratio / e^beta), ``worst_delta`` and ``passed``.

Sampling is exact, from uniform integers of a ``numpy.random.Generator`` only: top-h by
:func:`privanomaly.outliers.exponential.top_h_draws` (uniform proposals accepted by exact Bernoulli(exp(-gamma))
draws, rational rate <= eps; the claim reports that rate); the Gaussian releases by
:func:`privanomaly.outliers.exact_normal.gaussian_release_exact` (Karney's exact normal, ``q + sigma Z`` rounded
to the public grid 2^-32: post-processing, so Theorems 1-2 cover the release as they cover ``q + sigma Z``).
The harness checks each sampler against its exact law (Kolmogorov-Smirnov / chi-square) besides the
Clopper-Pearson audit (:mod:`privanomaly.audit.paper_b`, the auditors of these families).
"""

from __future__ import annotations

import functools
import itertools
import math
from functools import partial

import numpy as np

from privanomaly import outliers as ol  # its modules (scipy) load on first use of a name

from .base import Claim, Mechanism, check_rng, check_trials
from .registry import register

__all__ = ["CountGaussian", "GaussianGlobal", "GaussianSmooth", "TopH", "DEFAULT_DELTA", "pentagon_pair"]

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

    def noise_sd(self, X: np.ndarray, *, k: int, r: float, eps: float, delta: float) -> float:
        """Standard deviation of the noise the release adds to ``q_count`` (sigma): what a paper-B sweep
        reports for a count mechanism it names (``sweeps.<name>.mechanisms``; any paper-B mechanism with this
        method can be named there)."""
        return self.sigma(X, k=k, r=r, eps=eps, delta=delta)

    def sample(self, X, *, k, r, eps, delta, rng: np.random.Generator, n_trials: int) -> np.ndarray:
        """Exact draws of N(mean, sigma^2) rounded to the public grid 2^-32 (post-processing:
        :mod:`privanomaly.outliers.exact_normal`); no float variate is drawn."""
        return self.release(X, k=k, r=r, eps=eps, delta=delta, rng=rng, n_trials=n_trials)[0]

    def release(self, X, *, k, r, eps, delta, rng: np.random.Generator,
                n_trials: int) -> tuple[np.ndarray, float, float]:
        """:meth:`sample`'s draws with the law they come from: (draws, q_count, sigma) - the count and the noise's
        standard deviation are the data's (not private), for a report beside the release."""
        mean, sigma = self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta)
        return ol.gaussian_release(mean, sigma, check_rng(rng), check_trials(n_trials)), mean, sigma

    def release_cdf(self, t, X, *, k, r, eps, delta) -> np.ndarray:
        """Exact law of :meth:`sample`: ``P(release <= t)`` (the Gaussian rounded to the grid)."""
        mean, sigma = self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta)
        return ol.exact_normal.rounded_normal_cdf(t, mean, sigma)


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

    def audit_rows(self, fast: bool = True, eps: float = 0.5, delta: float = 0.01,
                   factor: float | None = None) -> list[dict]:
        """On every grid world, on :func:`pentagon_pair` (2-D) and on the icosahedron pair
        (:func:`privanomaly.outliers.audit_worlds.icosahedron_pair`, 3-D; both attain Theorem 4's bound for
        their d): the largest |q(X) - q(X')| over edges is <= GS (of Theorem 4 for the world's N, d, k), every
        *released* sigma is at least Theorem 1's for that jump (``jump * factor / eps``, ``factor`` =
        sqrt(2 ln(2/delta)), :func:`privanomaly.outliers.theorem1_factor` unless given), and the exact
        delta(eps) between the released laws (:meth:`exact_distribution` of each dataset, as sampled) on every
        edge is <= delta."""
        c = ol.theorem1_factor(delta) if factor is None else float(factor)
        worlds = [(w.name, np.asarray(w.grid, dtype=float), w.N, w.k, w.r)
                  for w in (ol.audit_worlds.FAST_WORLDS if fast else ol.audit_worlds.DEFAULT_WORLDS)]
        rows = []
        for name, grid, N, k, r in worlds:
            states, u, v = ol.audit_worlds.grid_world(len(grid), N)
            rows.append(self._law_row(name, [grid[list(s)] for s in states], u, v, grid.shape[1], k, r, eps, delta,
                                      c))
        one, two = np.array([0]), np.array([1])
        for name, (X, Xp, k, r) in (("2d_pentagon_pair", pentagon_pair()),
                                    ("3d_icosahedron_pair", ol.audit_worlds.icosahedron_pair())):
            rows.append(self._law_row(name, [X, Xp], one, two, X.shape[1], k, r, eps, delta, c))
        return rows

    def _law_row(self, world: str, data: list, u: np.ndarray, v: np.ndarray, d: int, k: int, r: float, eps: float,
                 delta: float, factor: float) -> dict:
        laws = [self.exact_distribution(X, k=k, r=r, eps=eps, delta=delta) for X in data]
        q = np.array([m for m, _ in laws])
        jump = float(np.abs(q[u] - q[v]).max())
        # Theorem 1 needs sigma >= GS sqrt(2 ln(2/delta)) / eps, and GS >= the world's largest jump
        sigma_ok = min(s for _, s in laws) >= jump * factor / eps * (1.0 - 1e-12)
        gs = self.gs(len(data[0]), d, k)
        cache: dict = {}
        for a, b in zip(u.tolist(), v.tolist()):
            key = (laws[a], laws[b])
            if key not in cache:
                (ma, sa), (mb, sb) = key
                cache[key] = max(ol.gaussian_hockey_stick(ma, sa, mb, sb, eps), ol.gaussian_hockey_stick(mb, sb, ma, sa, eps))
        worst = max(cache.values())
        return {"mechanism": self.name, "claim": self.claim(eps=eps, delta=delta).describe(), "world": world,
                "datasets": len(data), "pairs": len(u), "worst_ratio": jump / gs if gs else math.inf,
                "worst_delta": worst, "sigma_at_least_theorem1": bool(sigma_ok),
                "passed": bool(jump <= gs and sigma_ok and worst <= delta)}


def pentagon_pair() -> tuple[np.ndarray, np.ndarray, int, float]:
    """(X, X', k, r): the edge of the pentagon world (:func:`privanomaly.outliers.audit_worlds.pentagon`) whose
    count jumps by 5k + 1 = 6 (k = 1, r = 1, N = 6): x0 at the centre of a regular pentagon (each vertex's only
    neighbour) moved to the far point in X'. Above the 1-D bound 2k + 1 and Theorem 4's lower bound 2dk + 1 = 5
    (paper B, Sec. 4.1); raw coordinates (dist_S divides by sqrt(2))."""
    pts = np.array(ol.audit_worlds.pentagon())  # centre, 5 vertices, far point
    return pts[:6], pts[1:], 1, 1.0


class GaussianSmooth(CountGaussian):
    """Theorem 2 with a named beta-smooth upper bound S (``paper``: Algorithm 2; ``fast``: block bound)."""

    #: the named bounds: a public choice, never made by the data
    BOUNDS = {"paper": "Algorithm 2 (Propositions 1-2, Algorithm 1)", "fast": "the block bound (beyond the paper)"}

    def __init__(self, bound: str):
        self.bound = bound
        if bound not in self.BOUNDS:
            raise ValueError(f"GaussianSmooth: bound must be one of {sorted(self.BOUNDS)}, got {bound!r}")
        self.label = f"Gaussian (smooth sensitivity, {bound})"
        self.reference = f"Theorem 2 with {self.BOUNDS[bound]}"

    def smooth_bound(self, X, k, r, beta) -> float:
        """S_beta(X) of this mechanism's named bound: Algorithm 2 to completion, or the block bound with
        ``exact_max = 0`` (the bounds :func:`privanomaly.paper_b.released_bound.smooth_bound` releases). No work
        guard here: the pipeline's guard (``paper_b.scenario1.max_work``, ``AlgorithmTooCostly``) is applied
        where it computes the bound it releases (``released_bound.smooth_bound``), not through this class."""
        if self.bound == "paper":
            return float(ol.algorithm2(X, k, r, beta).value)
        return float(ol.block_smooth_bound(X, k, r, beta, exact_max=0).value)

    def theorem2(self, eps: float, delta: float) -> tuple[float, float]:
        """Theorem 2's (alpha, beta) this mechanism releases with (:func:`privanomaly.outliers.smooth_parameters`)."""
        return ol.smooth_parameters(eps, delta)

    def sigma(self, X, *, k, r, eps, delta) -> float:
        """Theorem 2 (eq. 9): S_beta(X) / alpha."""
        alpha, beta = self.theorem2(eps, delta)
        return float(self.smooth_bound(X, k, r, beta)) / alpha

    def claim(self, *, eps, delta=DEFAULT_DELTA, **_) -> Claim:
        worst = ol.theorem2_worst_delta(eps, delta)
        if worst > delta:
            return Claim(eps, delta, self.neighbours, proven=False,
                         note=f"Theorem 2 condition fails: worst exact delta {worst:.3g} > delta")
        return Claim(eps, delta, self.neighbours, note=self.reference)

    def released_bound(self, X, k, r, *, eps: float, delta: float,
                       constants: tuple[float, float] | None = None) -> float:
        """The S(X) this mechanism's release uses: its released sigma times Theorem 2's alpha (``constants``'
        alpha, else its own; what the audit checks, so that a release computing its bound at another beta or
        with another alpha than Theorem 2's cannot pass)."""
        alpha = self.theorem2(eps, delta)[0] if constants is None else float(constants[0])
        return self.sigma(X, k=k, r=r, eps=eps, delta=delta) * alpha

    def audit_rows(self, fast: bool = True, eps: float = 0.5, delta: float = 0.01,
                   constants: tuple[float, float] | None = None) -> list[dict]:
        """The checks of :func:`privanomaly.outliers.audit_worlds.smooth_audit_rows` (S >= the grid's smooth
        sensitivity, S(X) <= e^beta S(X') on every edge at Theorem 2's beta, exact delta <= delta) on the bound the
        release uses: its released sigma times Theorem 2's alpha. ``constants``: the (alpha, beta) of Theorem 2
        the checks use (the audit passes its own reading of the theorem), else :meth:`theorem2`."""
        constants = self.theorem2(eps, delta) if constants is None else constants
        released = partial(self.released_bound, eps=eps, delta=delta, constants=constants)
        rows = ol.audit_worlds.smooth_audit_rows({self.name or self.bound: lambda X, k, r, beta: released(X, k, r)},
                                                 fast, eps, delta, constants)
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
    @functools.cache
    def audit_world() -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Every database of N = 3 records on the 5 x 2 grid, candidates {0}, {1}, {0, 1}: (utility per
        state, edges u, v, number of candidates); computed once per process (read-only arrays)."""
        cells = np.array([(a, b) for a in range(5) for b in range(2)], dtype=float)
        subspaces, N, k, r = [(0,), (1,), (0, 1)], 3, 1, 1.0
        states, u, v = ol.audit_worlds.grid_world(len(cells), N)
        dims = np.array([len(S) for S in subspaces])
        util = np.array([ol.subspace_utility(np.array([ol.q_count(cells[list(s)], k, r, S) for S in subspaces]),
                                             N, dims, k) for s in states])
        for a in (util, u, v):
            a.setflags(write=False)
        return util, u, v, len(subspaces)

    #: candidates (1-D subspaces) of :meth:`tight_pair`
    TIGHT_COLUMNS = 12

    @classmethod
    def tight_pair(cls, h: int = 1) -> np.ndarray:
        """Utilities (eq. 51, from q_count on the data) of a neighbouring pair on which Theorem 7's Delta u <= 1 is
        attained by every candidate at once, the first h against all others: records (0, ...), (2, ...),
        (9, ..., 9, 1, ..., 1) -> (1, ..., 1, 9, ..., 9) (h nines first), k = 1, r = 1, N = 3 (GS^UB = 3): the first
        h columns' three 1-D outliers become inliers, every other column's inliers outliers; u goes from
        (1, .., 1, 0, ..., 0) to (0, ..., 0, 1, ..., 1). With :data:`TIGHT_COLUMNS` candidates the set of the
        first h loses most of the bound of h draws at eps/h each (0.96 of it for h = 1; the grid world of
        :meth:`audit_world` at most 0.72): shape (2, m)."""
        m, k, r = cls.TIGHT_COLUMNS, 1, 1.0
        last = np.ones(m)
        last[:h] = 9.0
        X = np.vstack([np.zeros(m), np.full(m, 2.0), last])
        Xp = X.copy()
        Xp[2] = 10.0 - last
        subspaces = [(j,) for j in range(m)]
        return np.array([ol.subspace_utility(ol.q_count_subspaces(D, k, r, subspaces), len(D), np.ones(m, int), k)
                         for D in (X, Xp)])

    def set_law(self, utility, h: int, eps: float) -> np.ndarray:
        """Exact law of the output *set* over the C(n, h) sets in lexicographic order (this mechanism's law:
        subclasses such as the printed exponent, ``exp_top_h_printed``, bring their own)."""
        seq = self.exact_distribution(utility, h=h, eps=eps)
        sets = list(itertools.combinations(range(len(utility)), h))
        return np.array([sum(seq[o] for o in itertools.permutations(st)) for st in sets])

    def set_laws(self, utilities: np.ndarray, h: int, eps: float) -> np.ndarray:
        """:meth:`set_law` of every row of ``utilities`` (shape (rows, C(n, h))), computed once per distinct row
        (equal rows have the same law): a world's databases share few utility vectors."""
        rows, which = np.unique(np.asarray(utilities), axis=0, return_inverse=True)
        return np.array([self.set_law(row, h, eps) for row in rows])[which.reshape(-1)]

    #: every subspace of the 3-D icosahedron pair (:meth:`icosahedron_utilities`)
    ICOSAHEDRON_SUBSPACES = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2))

    @classmethod
    def icosahedron_utilities(cls) -> np.ndarray:
        """Utilities (eq. 51) of every subspace of :func:`privanomaly.outliers.audit_worlds.icosahedron_pair` on
        its two databases, shape (2, 7): the 3-D subspace's count jumps by k K_3 + 1 = GS^UB_3 = 13, so its
        utility by exactly Theorem 7's Delta u = 1 (by more if K_3 were taken too small)."""
        X, Xp, k, r = ol.audit_worlds.icosahedron_pair()
        S = cls.ICOSAHEDRON_SUBSPACES
        dims = np.array([len(s) for s in S])
        return np.array([ol.subspace_utility(ol.q_count_subspaces(D, k, r, S), len(D), dims, k) for D in (X, Xp)])

    def audit_rows(self, fast: bool = True, eps: float = 0.5) -> list[dict]:
        """On every edge of :meth:`audit_world`, on :meth:`tight_pair` (where Delta u = 1 is attained) and on the
        icosahedron pair (:meth:`icosahedron_utilities`, 3-D subspaces): the utility moves by at most Theorem 7's
        Delta u = 1 (:data:`privanomaly.outliers.exponential.UTILITY_SENSITIVITY`, the sensitivity the claim
        uses) and the exact pure-DP loss of the output set is <= the claimed epsilon (eps here; 2 eps for the
        printed exponent)."""
        util, u, v, n = self.audit_world()
        claimed = self.claim(eps=eps).epsilon
        du = ol.exponential.UTILITY_SENSITIVITY
        ico = self.icosahedron_utilities()
        rows = []
        for h in (1, 2) if fast else (1, 2, 3):
            for world, U, a, b in ((f"2d_5x2_N3_h{h}", util, u, v),
                                   (f"theorem7_pair_h{h}", self.tight_pair(h), [0], [1]),
                                   (f"3d_icosahedron_pair_h{h}", ico, [0], [1])):
                law = self.set_laws(U, h, eps)
                loss = np.abs(np.log(law[a]) - np.log(law[b])).max()
                jump = float(np.abs(U[a] - U[b]).max())
                rows.append({"mechanism": self.name, "claim": self.claim(eps=eps).describe(), "world": world,
                             "datasets": len(U), "pairs": len(a), "worst_ratio": math.exp(loss - claimed),
                             "worst_delta": 0.0, "utility_jump": jump,
                             "passed": bool(loss <= claimed * (1 + 1e-9) and jump <= du * (1 + 1e-12))})
        return rows


register("gaussian_gs_upper")(partial(GaussianGlobal, "upper"))
register("gaussian_gs_lower")(partial(GaussianGlobal, "lower"))
register("gaussian_smooth_paper")(partial(GaussianSmooth, "paper"))
register("gaussian_smooth_fast")(partial(GaussianSmooth, "fast"))
register("exp_top_h")(TopH)
