"""The end-to-end private releases as registered mechanisms, checked exactly on small worlds by the audit.

* ``end_to_end_sp`` (paper A): (β, r) chosen from a public candidate grid by the exponential mechanism
  (:mod:`.private_selection`, ε_sel = ε/2 here) on the utility "records whose (β, r)-anomaly status matches
  their label", then SP (Construction 1) answers the query at the chosen (β, r) with ε - ε_sel; the
  release is the pair (candidate, answer). Basic composition (:mod:`.accountant`) gives ε. The relation:
  SP is private on G_S(k), which depends on (β, r), so the composed claim holds on the add/remove edges that
  are G_S(k) edges for *every* candidate (the selection alone is ε_sel-DP on all of G).
* ``exp_select_r`` (paper B): r chosen from a public grid by the exponential mechanism on the eq. (53)
  correct count, ε-DP on substitution; it composes with the Gaussian release of q_count (``gaussian_gs_upper``,
  audited on its own) by basic composition.

Audit (``audit_rows``, run by :func:`privanomaly.audit.run`): small worlds of labelled records on a line
(positions 0..P-1, labels 0/1, multiplicities up to 1 or 2); on every edge, the utility moves by at most the
Δu the claim uses, and the *exact* composed law satisfies Pr[o | D] <= e^ε Pr[o | D'] for every output o
(:func:`privanomaly.mechanisms.exact.edge_holds`, no float decides it). The negative controls tune on the
private part - the deterministic argmax of the same utility, i.e. what both papers do - under the same
claim, and must be caught.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from privanomaly.mechanisms import exact, registry
from privanomaly.mechanisms.base import Claim, Mechanism
from privanomaly.outliers.global_sensitivity import gs_upper, kissing_upper
from privanomaly.sp.mdd import is_anomaly, is_k_sensitive

from . import private_selection, scope
from .accountant import Accountant

__all__ = ["EndToEndSP", "ExpSelectR", "negative_controls", "compose", "argmax_law"]

SHARE = Fraction(1, 2)  # ε_sel / ε of the audited composition (rational: the exact laws stay small)


def _scale(q: exact.QRat, n: int) -> exact.QRat:
    return exact.QRat.make({e * n: c for e, c in q.num}, {e * n: c for e, c in q.den})


def _common(thetas: list[Fraction]) -> Fraction:
    """The largest θ0 with every θ an integer multiple of it (θ = 0 entries ignored)."""
    nz = [t for t in thetas if t != 0]
    if not nz:
        return Fraction(0)
    num = math.gcd(*(t.numerator for t in nz))
    den = math.lcm(*(t.denominator for t in nz))
    return Fraction(num, den)


def compose(first: exact.ExactDist, then: list[exact.ExactDist]) -> exact.ExactDist:
    """The exact law of (c, o): c ~ ``first``, then o ~ ``then[c]`` (sequential composition, outputs (c, o))."""
    base = _common([first.theta, *(d.theta for d in then)])
    def lift(d: exact.ExactDist, f: exact.QRat) -> exact.QRat:
        if d.theta == 0:
            return f.at_one()
        return _scale(f, int(d.theta / base))
    probs, outs = [], []
    for c, (pc, d) in enumerate(zip(first.probs, then)):
        for o, po in zip(d.outputs, d.probs):
            probs.append(lift(first, pc) * lift(d, po))
            outs.append((c, o))
    return exact.ExactDist(base, tuple(probs), tuple(outs))


def argmax_law(utility, theta: Fraction) -> exact.ExactDist:
    """The deterministic choice of the largest utility (first on ties), as a law: what tuning on the private
    part releases (the negative control)."""
    u = np.asarray(utility)
    best = int(np.argmax(u))
    return exact.ExactDist(theta, tuple(exact.QRat.const(int(i == best)) for i in range(u.size)),
                           tuple(range(u.size)))


# ------------------------------------------------------------------------------------------- small worlds
def _worlds(n_pos: int, max_mult: int, max_total: int) -> list[tuple[int, ...]]:
    """Multiplicity vectors over the labelled types (position p, label l) -> index 2p + l."""
    return [m for m in itertools.product(range(max_mult + 1), repeat=2 * n_pos) if sum(m) <= max_total]


def _counts(m: tuple[int, ...], n_pos: int) -> np.ndarray:
    """x_p: records at each position (both labels)."""
    a = np.asarray(m).reshape(n_pos, 2)
    return a.sum(axis=1)


def _ball(x: np.ndarray, r: int) -> np.ndarray:
    """B(p, r) = #records within |p - q| <= r of position p."""
    n = len(x)
    return np.array([x[max(0, p - r): p + r + 1].sum() for p in range(n)], dtype=np.int64)


def _correct(m: tuple[int, ...], n_pos: int, outlier_at: np.ndarray) -> int:
    """Records whose status (outlier/anomaly at their position) matches their label."""
    a = np.asarray(m).reshape(n_pos, 2)
    return int(sum(a[p, int(bool(outlier_at[p]))] for p in range(n_pos)))


class _Audited(Mechanism):
    family = "end_to_end"
    tuned_on_private = False  # True: the negative control (deterministic argmax on the private part)
    selection = private_selection  # the selection method (:mod:`.selection_methods`): claim and exact law

    def selection_law(self, utility, eps_sel, du: int) -> exact.ExactDist:
        if self.tuned_on_private:
            return argmax_law(utility, self.selection.exact_law(utility, eps_sel, du).theta)
        return self.selection.exact_law(utility, eps_sel, du)


class EndToEndSP(_Audited):
    """Paper A end to end (module docstring): exponential-mechanism (β, r), then Construction 1."""

    label = "SP with (β, r) chosen by the exponential mechanism"
    paper = "A"
    reference = ("exponential mechanism over (β, r) + Construction 1, basic composition, on the G_S(k) edges of every "
                 "candidate (β, r)")
    neighbours = "sensitive_k"
    CANDIDATES = ((1, 0), (1, 1), (2, 0), (2, 1))  # (β, r) on the line
    K = 1

    def sensitivity(self) -> int:
        return max(b for b, _ in self.CANDIDATES) * kissing_upper(1) + 1  # price.paper_a_sensitivity, d = 1

    def claim(self, *, eps, delta=0.0, **_) -> Claim:
        from privanomaly import mechanisms

        acc = Accountant(self.neighbours)
        acc.spend("selection of (β, r)", self.selection.claim(float(SHARE * Fraction(eps)), self.sensitivity(),
                                                              "add_remove"))
        acc.spend("SP answer", mechanisms.get("sp").claim(eps=acc.remaining(eps), k=self.K))
        return acc.total((scope.PAPER_A_PUBLIC, "candidate grid of (β, r)", f"Δu = {self.sensitivity()}",
                          scope.CANDIDATES_RELATION))

    def audit_rows(self, fast: bool = True, eps: float = 1.0, **_) -> list[dict]:
        from privanomaly import mechanisms

        sp = mechanisms.get("sp")
        n_pos, max_mult, max_total = (3, 1, 6) if fast else (4, 2, 5)
        eps_total = Fraction(eps)
        eps_sel = SHARE * eps_total
        du = self.sensitivity()
        acc = Accountant(self.neighbours)
        acc.spend("selection of (β, r)", self.selection.claim(float(eps_sel), du, "add_remove"))
        eps_rel = acc.remaining(eps)  # what claim() asks the SP answer for
        claim = self.claim(eps=float(eps_total))
        worlds = _worlds(n_pos, max_mult, max_total)
        index = {m: i for i, m in enumerate(worlds)}
        cache: dict = {}

        def laws(m):
            if m not in cache:
                x = _counts(m, n_pos)
                balls = {r: _ball(x, r) for _, r in self.CANDIDATES}
                u = np.array([_correct(m, n_pos, is_anomaly(x, balls[r], b)) for b, r in self.CANDIDATES])
                sel = self.selection_law(u, float(eps_sel), du)
                per_query = [compose(sel, [sp.exact_distribution(int(x[q]), int(balls[r][q]), beta=b, k=self.K,
                                                                 eps=float(eps_rel)) for b, r in self.CANDIDATES])
                             for q in range(n_pos)]
                cache[m] = (x, balls, u, per_query)
            return cache[m]

        edges = pairs = 0
        jump, ok = 0, True
        worst = 0.0
        for m in worlds:
            for t in range(2 * n_pos):
                bigger = tuple(v + (i == t) for i, v in enumerate(m))
                if bigger not in index:
                    continue
                edges += 1
                x, _, u, law = laws(m)
                xb, balls_b, ub, law_b = laws(bigger)
                jump = max(jump, int(np.abs(u - ub).max()))
                p = t // 2  # the added record's position: the edge is in G_S(k) iff it is k-sensitive there
                if not all(bool(is_k_sensitive(balls_b[r][p], b, self.K)) for b, r in self.CANDIDATES):
                    continue
                for q in range(n_pos):
                    pairs += 1
                    if not exact.edge_holds(law[q], law_b[q], claim.epsilon_exact):
                        ok = False
                    worst = max(worst, exact.edge_log_ratio(law[q], law_b[q]) / float(claim.epsilon_exact))
        return [{"mechanism": self.name, "claim": claim.describe(), "world": f"line{n_pos}_labelled_m{max_mult}",
                 "datasets": len(worlds), "pairs": pairs, "worst_ratio": worst, "worst_delta": 0.0 if ok else 1.0,
                 "utility_jump": jump, "passed": bool(ok and jump <= du)}]


class ExpSelectR(_Audited):
    """Paper B: r from a public grid by the exponential mechanism on the eq. (53) correct count."""

    label = "r chosen by the exponential mechanism (eq. (53) correct count)"
    paper = "B"
    reference = "exponential mechanism over r (McSherry-Talwar; paper B Thm 3 form), before Theorem 1 or 2"
    neighbours = "substitution"
    RADII = (0, 1, 2)
    K = (1, 2)

    def claim(self, *, eps, delta=0.0, k=1, N=4, **_) -> Claim:
        du = min(int(N), 2 * gs_upper(None, 1, int(k)))
        return self.selection.claim(eps, du, self.neighbours, "eq. (53) correct count").scoped(
            ("ε, k, N (bounded DP)", "r grid (config)", f"Δu = {du}"))

    def audit_rows(self, fast: bool = True, eps: float = 0.5, **_) -> list[dict]:
        n_pos, sizes = (3, (3, 4)) if fast else (4, (3, 4, 5))
        rows = []
        for k in self.K:
            for N in sizes:
                worlds = _worlds(n_pos, N, N)
                worlds = [m for m in worlds if sum(m) == N]
                du = min(N, 2 * gs_upper(None, 1, k))
                eps_f = Fraction(eps)
                law, util = {}, {}
                for m in worlds:
                    x = _counts(m, n_pos)
                    # paper B's outlier: fewer than k *other* records within r
                    u = np.array([_correct(m, n_pos, _ball(x, r) - 1 < k) for r in self.RADII])
                    util[m], law[m] = u, self.selection_law(u, float(eps_f), du)
                pairs, jump, ok, worst = 0, 0, True, 0.0
                rate = self.selection.claim(float(eps_f), du, self.neighbours).epsilon_exact
                for m in worlds:
                    for a, b in itertools.permutations(range(2 * n_pos), 2):
                        if m[a] == 0:
                            continue
                        other = tuple(v - (i == a) + (i == b) for i, v in enumerate(m))
                        if other <= m:  # each unordered substitution once
                            continue
                        pairs += 1
                        jump = max(jump, int(np.abs(util[m] - util[other]).max()))
                        if not exact.edge_holds(law[m], law[other], rate):
                            ok = False
                        worst = max(worst, exact.edge_log_ratio(law[m], law[other]) / float(rate))
                rows.append({"mechanism": self.name, "claim": self.claim(eps=eps, k=k, N=N).describe(),
                             "world": f"line{n_pos}_labelled_N{N}_k{k}", "datasets": len(worlds), "pairs": pairs,
                             "worst_ratio": worst, "worst_delta": 0.0 if ok else 1.0, "utility_jump": jump,
                             "passed": bool(ok and jump <= du)})
        return rows


registry.register("end_to_end_sp")(EndToEndSP)
registry.register("exp_select_r")(ExpSelectR)


def negative_controls() -> dict[str, Mechanism]:
    """The same releases tuned on the private part (deterministic argmax, as both papers tune): must fail."""
    out = {}
    for name, cls in (("end_to_end_sp_tuned_on_private", EndToEndSP), ("exp_select_r_tuned_on_private", ExpSelectR)):
        m = cls()
        m.tuned_on_private = True
        m.label = f"{cls.label}, tuned on the private part (broken)"
        m.reference = "negative control (argmax of the utility on the released records)"
        out[name] = m
    return out
