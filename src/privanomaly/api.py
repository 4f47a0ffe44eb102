"""Use the mechanisms without Snakemake: load your data, choose the parameters, release, read the claim.

Paper A (Asif et al., CCS'19): answer the anomaly identification query g(i, x) of Def. 2.2 - "is record i a
(β, r)-anomaly?" - for every record with a registered mechanism (``sp``: Construction 1 on the sensitive
graph, ε-SP; ``optimal_dp``: the Pareto-optimal ε-DP mechanism; Laplace baselines)::

    from privanomaly import api
    data = api.load("mine.csv", label="class", anomaly_values=["yes"])   # or .npz / .parquet (format=)
    beta, r = api.choose_beta_r(data)                     # F1 against the labels: NOT private (as in the paper)
    rel = api.release_anomalies(data, beta=beta, r=r, eps=1.0, mechanism="sp", k=1, seed=7)
    print(rel.summary())                                   # the claim actually spent, and what it rests on
    flagged = data.frame[rel.values]                       # a bool mask: selects the released anomalies

Paper B (Okada et al.): release the outlier count q_count(X, k, r) with the Gaussian mechanism (global
sensitivity, Theorem 1, or a smooth upper bound, Theorem 2)::

    r = api.choose_r(data, k=3)                            # accuracy against the labels: NOT private
    rel = api.release_outlier_count(data, k=3, r=r, eps=0.5, mechanism="gaussian_smooth_fast", seed=7)

Every release draws through a numpy Generator seeded by :mod:`privanomaly.seeding` from ``seed`` and the
mechanism's name, with the mechanism's exact integer sampler. ``Release.claim`` carries its scope
(:mod:`privanomaly.privacy.scope`): parameters tuned on the data (the default assumption, and always so for a
value :func:`choose_beta_r` / :func:`choose_r` chose on the same ``Data`` - β and r each on its own, a radius
within 1 % of a chosen one too), features z-scored on the data
(``load_csv``'s default) and, for paper A, the query set (one answer per record of the data: each answer is
private per query, paper A Def. 2.2; the whole vector is not, Claim 5) are ``data_dependent``, so
``claim.proven_end_to_end`` is True only when nothing was read off the released records. The same from the shell:
``python -m privanomaly paper-a mine.csv --label class --anomaly-values yes --eps 1`` (``--help``).

Arguments: every numeric one (``eps``, ``r``, ``delta``, ``beta``, ``k``, ``seed``) takes a number - an int, a float
or a numpy number -, never text (``eps="1"`` is refused as ``beta="5"`` is; the CLI converts its options); ε lies in
[:data:`EPS_MIN`, :data:`EPS_MAX`], the bounds of the pipeline's ε grids. A wrong type (an array for ``data``, an int
for ``path``) is a ``TypeError`` naming the argument and what was expected; a wrong value a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privanomaly import mechanisms, seeding
from privanomaly.datasets.user_file import FORMATS, Data, load, load_csv  # noqa: F401 - part of the API
from privanomaly.privacy import scope

# Default candidate grids: those of config.yaml (paper_a.selection, paper_b.tuning)
BETAS = (1, 2, 3, 5, 8, 10, 15, 20, 30, 40, 50)
FRACTIONS = (0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2)
R_GRID = {"min": 0.005, "max": 5.0, "num": 466, "scale": "log"}

EPS_MIN, EPS_MAX = 1e-9, 700.0
"""The bounds of ε, as the pipeline's ε grids (``sweeps.<name>.eps`` in workflow/schemas/config.schema.yaml)."""
EPS_BOUNDS_WHY = ("at least 1e-9: the exact samplers take rational rates down to 2^-50, and below 1e-9 every mechanism "
                  "is a coin flip; at most 700: the exact delta of Theorems 1-2 needs e^eps as a float64")
"""Why, in the words of the pipeline's schema (its ε grids' description)."""

NOT_PRIVATE_TUNING = ("the parameters were chosen on the labels of the released data (as both papers do), which "
                      "the claim does not account for")


@dataclass(frozen=True)
class Release:
    """What a mechanism released: ``values`` (paper A: one bool per record, True = answered "anomaly";
    paper B: the released count), the exact ``truth`` it randomises (not private), the ``claim`` actually
    spent, and the public ``params``."""

    mechanism: str
    values: Any
    truth: Any
    claim: mechanisms.Claim
    params: dict = field(default_factory=dict)
    tuned_on_data: bool = False
    noise_sd: float | None = None
    """Paper B: the standard deviation σ of the Gaussian noise added to the count (a function of the data for the
    smooth bounds: not private, as ``truth``)."""

    def summary(self) -> str:
        """A few lines in words: the mechanism, its parameters, the claim and what it does not cover."""
        m = mechanisms.get(self.mechanism)
        params = ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in self.params.items())
        lines = [f"{m.label} ({self.mechanism}; paper {m.paper}: {m.reference})", f"parameters: {params}",
                 f"claim: {self.claim.describe()}" + (f" - {self.claim.note}" if self.claim.note else ""),
                 f"proven end to end: {'yes' if self.claim.proven_end_to_end else 'no'}"
                 + (f" (public inputs: {'; '.join(self.claim.public_inputs)})" if self.claim.public_inputs else "")]
        if isinstance(self.values, np.ndarray) and self.values.dtype == bool:
            lines.append(f"released: {int(self.values.sum())} of {len(self.values)} records answered 'anomaly' "
                         f"(true (β, r)-anomalies: {int(np.sum(self.truth))})")
        else:
            lines += self._count_lines()
        if self.tuned_on_data:
            lines.append(f"note: {NOT_PRIVATE_TUNING}")
        return "\n".join(lines)

    def _count_lines(self) -> list[str]:
        """Paper B's released count with its noise σ, and a plain warning when σ exceeds the number of records
        (then the release says next to nothing about the count)."""
        value, n = float(self.values), self.params.get("N")
        sd = "" if self.noise_sd is None else f"; noise σ = {_amount(self.noise_sd)}, not private"
        lines = [f"released: {value:.6g} (true count, not private: {self.truth}{sd})"]
        if self.noise_sd is not None and n is not None and self.noise_sd > n:
            spread = _amount(1.96 * self.noise_sd)
            lines.append(f"warning: the noise σ = {_amount(self.noise_sd)} exceeds the data's size N = {n:,}: the "
                         f"count lies in [0, {n:,}], about 95 % of releases fall within ± {spread} of it, so this "
                         "release says next to nothing about the count - raise eps (or delta), or use a mechanism "
                         "with less noise")
        elif n is not None and not 0 <= value <= n:
            lines.append(f"note: the release is the count plus noise, not clipped to [0, N = {n:,}]")
        return lines


def _amount(x: float) -> str:
    """A noise scale in words: 5,012.3 or 0.4213 (grouped digits up to 1e9, else 1.2e+12)."""
    return f"{x:,.1f}" if 1 <= abs(x) < 1e9 else f"{x:.4g}"


def _scoped(claim: mechanisms.Claim, data: Data, public: Sequence[str], params: Sequence[tuple[str, bool]],
            extra: Sequence[str] = ()) -> mechanisms.Claim:
    """``claim`` with its scope (:mod:`privanomaly.privacy.scope`): the ``public`` inputs; the parameters
    (``params``: (text, tuned) each) public unless tuned on the labels; the preprocessing fitted on ``data``;
    the ``extra`` data-dependent choices."""
    prep = scope.preprocessing({"steps": [{"step": scope.PREPROCESSING_STEP_OF[f], "fitted_on": scope.FITTED_ON_DATA}
                                          for f in data.fitted_on_data]})
    chosen = scope.Scope(tuple(t for t, tuned in params if not tuned),
                         tuple(f"{t} tuned on the labels of the data" for t, tuned in params if tuned))
    sc = scope.Scope(tuple(public), tuple(extra)) + chosen + prep
    return claim.scoped(sc.public_inputs, sc.data_dependent)


CHOSEN_RTOL = 0.01
"""A radius within this relative distance of one a chooser read off the same ``Data`` counts as that one (a tuned r
rounded for a report is still tuned)."""


def _chosen_r(data: Data, r: float) -> str | None:
    """How ``r`` relates to a radius :func:`choose_beta_r` or :func:`choose_r` read off ``data``: "" (that
    value), a note (within :data:`CHOSEN_RTOL` of one), or None (no chooser returned anything near it)."""
    rs = {float(v) for _, v in data.chosen.get("beta_r", set())} | set(data.chosen.get("r", set()))
    if float(r) in rs:
        return ""
    near = [v for v in rs if abs(float(r) - v) <= CHOSEN_RTOL * abs(v)]
    return f" (within {CHOSEN_RTOL:.0%} of r = {near[0]:.6g})" if near else None


def _chosen_beta(data: Data, beta: int) -> bool:
    """Whether :func:`choose_beta_r` returned ``beta`` on ``data``."""
    return int(beta) in {int(b) for b, _ in data.chosen.get("beta_r", set())}


def _number(name: str, value: Any, expected: str) -> float:
    """``value`` as a float when it is a number (an int, a float, a numpy number; never text or a bool), else a
    ``ValueError`` naming ``name`` and what was ``expected`` - one rule for every numeric argument."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        text = " (text: pass the number itself)" if isinstance(value, str) else ""
        raise ValueError(f"{name} must be {expected}, got {value!r}{text}")
    return float(value)


def _check_number(name: str, value: Any, *, zero: bool = False) -> float:
    """``value`` as a float; not a finite number > 0 (>= 0 with ``zero``) is a ``ValueError`` naming ``name``
    (before any mechanism runs)."""
    bound = ">= 0" if zero else "> 0"
    v = _number(name, value, f"a finite number {bound}")
    if not (np.isfinite(v) and (v >= 0 if zero else v > 0)):
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return v


def _check_eps(eps: Any) -> float:
    """``eps`` as a float in [:data:`EPS_MIN`, :data:`EPS_MAX`] (the pipeline's bounds), else a ``ValueError``."""
    expected = f"a number in [{EPS_MIN:.0e}, {EPS_MAX:g}]".replace("e-0", "e-")  # [1e-9, 700]
    v = _number("eps", eps, expected)
    if not EPS_MIN <= v <= EPS_MAX:
        raise ValueError(f"eps must be {expected}, got {eps!r} ({EPS_BOUNDS_WHY})")
    return v


def _check_whole(name: str, value: Any, least: int = 1) -> int:
    """``value`` as an int: a whole number >= ``least`` (an int, or a float such as 5.0); anything else - 2.5,
    True, nan, text, one below ``least`` - is a ``ValueError`` naming it, never a silent cut to an int."""
    expected = f"a whole number >= {least}"
    v = _number(name, value, expected)
    if not (np.isfinite(v) and v.is_integer()) or v < least:
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return int(value)


def _check_delta(delta: Any) -> float:
    """``delta`` as a float; not a number in (0, 1) is a ``ValueError`` naming it."""
    v = _number("delta", delta, "a number in (0, 1)")
    if not 0 < v < 1:
        raise ValueError(f"delta must be a number in (0, 1), got {delta!r}")
    return v


def _check_data(data: Any) -> Data:
    """``data`` itself when it is a :class:`Data`; anything else (an array, a DataFrame) is a ``TypeError``."""
    if not isinstance(data, Data):
        raise TypeError(f"data must be a privanomaly.api.Data (from api.load(path, label=...), or Data(X, y, features, "
                        f"frame, name)), got {type(data).__module__}.{type(data).__qualname__}")
    return data


# ------------------------------------------------------------------------------------------- paper A
def choose_beta_r(data: Data, betas: Sequence[int] = BETAS, fractions: Sequence[float] = FRACTIONS,
                  metric: str = "euclidean") -> tuple[int, float]:
    """(β, r) maximising the F1 of the (β, r)-anomalies against the labels over the grids (the pipeline's
    selection protocol, :mod:`privanomaly.paper_a.selection`). Not private: it reads the labels."""
    from privanomaly import sp
    from privanomaly.paper_a import selection

    data = _check_data(data)
    surface = selection.selection_surface(data.X, data.y, list(betas), list(fractions), p=sp.minkowski_p(metric))
    best = selection.choose(surface)
    data.chosen.setdefault("beta_r", set()).add((int(best.beta), float(best.r)))
    return best.beta, best.r


def release_anomalies(data: Data, *, beta: int, r: float, eps: float, mechanism: str = "sp", k: int = 1,
                      seed: int = 0, metric: str = "euclidean", tuned_on_data: bool = True) -> Release:
    """One run of paper-A ``mechanism`` (a registered name of family ``aiq``) on every record: for each record
    the randomised answer to "is it a (β, r)-anomaly?" (bool), drawn by the mechanism's exact sampler.

    The claim is the mechanism's per query (one answer, paper A Def. 2.2 / Def. 3.2); its scope says what it
    does not cover: (β, r) tuned on the data (``tuned_on_data``, the default; a (β, r) that
    :func:`choose_beta_r` chose on ``data`` is tuned whatever it says - each of β and r on its own, an r within
    1 % of a chosen one too), z-scores fitted on the data, and the
    query set - every record of the data, so the vector of answers is not private as a whole (its length and
    rows are the records; paper A's Claim 5 charges m·ε for m queries within a ball of radius r)."""
    from privanomaly.paper_a.records import record_table

    data, eps, seed = _check_data(data), _check_eps(eps), _check_whole("seed", seed, 0)
    # r = 0 is a closed ball holding a record's own copies (paper A's balls, privanomaly.sp.balls: r >= 0)
    beta, k, r = _check_whole("beta", beta), _check_whole("k", k), _check_number("r", r, zero=True)
    mech = mechanisms.get(mechanism)
    if mech.family != "aiq":
        raise ValueError(f"mechanism {mechanism!r} is not a paper-A mechanism (paper-A names: "
                         f"{', '.join(mechanisms.names('aiq'))})")
    rec = record_table(data.X, data.y.astype(np.int8), int(beta), float(r), cap=None, metric=metric)
    x_i, B = rec["x_i"].to_numpy(), rec["B"].to_numpy()
    rng = seeding.rng(seed, "api", "paper_a", mechanism)
    answers = mech.sample(x_i, B, beta=int(beta), k=int(k), eps=float(eps), rng=rng, n_trials=1)[0]
    near_r = _chosen_r(data, r)
    beta_tuned, r_tuned = bool(tuned_on_data) or _chosen_beta(data, beta), bool(tuned_on_data) or near_r is not None
    both = f"(β, r) = ({int(beta)}, {float(r):.6g})"
    if beta_tuned == r_tuned:  # one phrase for the pair, as the paper tunes it
        params = [(both + (near_r or ""), r_tuned)]  # near_r is None unless r was chosen near it
    else:  # β fixed by hand with a tuned r, or the reverse: say which one was read off the data
        params = [(f"β = {int(beta)}", beta_tuned), (f"r = {float(r):.6g}" + (near_r or ""), r_tuned)]
    tuned = beta_tuned or r_tuned
    claim = _scoped(mech.claim(eps=float(eps), beta=int(beta), k=int(k)), data, (scope.PAPER_A_PUBLIC,), params,
                    ("the queried records: one answer per record of the data (the claim is per query; the answers "
                     "as a whole are indexed by the records themselves)",))
    return Release(mechanism, np.asarray(answers).astype(bool), rec["anomaly"].to_numpy(dtype=bool), claim,
                   {"beta": int(beta), "r": float(r), "eps": float(eps), "k": int(k), "seed": int(seed)}, tuned)


# ------------------------------------------------------------------------------------------- paper B
def choose_r(data: Data, k: int = 3, r_grid: dict | None = None) -> float:
    """The r maximising the accuracy of non-private outlier detection (eq. 53) against the labels, smallest
    of ties (:mod:`privanomaly.paper_b.tuning`). Not private: it reads the labels."""
    from privanomaly.paper_b import tuning

    data, k = _check_data(data), _check_whole("k", k)
    curve = tuning.accuracy_curve(data.X, data.y.astype(np.int64), int(k), tuning.r_grid(r_grid or R_GRID), "full")
    r = tuning.select_r(curve, "smallest").r
    data.chosen.setdefault("r", set()).add(float(r))
    return r


def release_outlier_count(data: Data, *, k: int, r: float, eps: float, delta: float = 0.01,
                          mechanism: str = "gaussian_smooth_fast", seed: int = 0,
                          tuned_on_data: bool = True, max_work: int | None = 5000) -> Release:
    """One Gaussian release of q_count(X, k, r) by paper-B ``mechanism`` (``gaussian_gs_upper``: Theorem 1
    with the proven global bound; ``gaussian_smooth_fast`` / ``gaussian_smooth_paper``: Theorem 2 with the
    fast bound / Algorithm 2), exact normal rounded to the public grid 2^-32.

    ``max_work`` (as the pipeline's ``paper_b.scenario1.max_work``): data whose shape predicts Algorithm 2
    (exponential) past it are refused before it starts, naming the fast bound (None: no limit).

    The claim's scope: r tuned on the data (``tuned_on_data``, the default; an r that :func:`choose_r` or
    :func:`choose_beta_r` chose on ``data``, or one within 1 % of it, is tuned whatever it says) and z-scores
    fitted on the data are ``data_dependent``."""
    data, eps, seed = _check_data(data), _check_eps(eps), _check_whole("seed", seed, 0)
    k, r, delta = _check_whole("k", k), _check_number("r", r), _check_delta(delta)  # paper B: r > 0
    mech = mechanisms.get(mechanism)
    if mech.family != "count_gaussian":
        raise ValueError(f"mechanism {mechanism!r} does not release the outlier count (names: "
                         f"{', '.join(mechanisms.names('count_gaussian'))})")
    if mechanism == "gaussian_smooth_paper" and max_work is not None:
        from privanomaly.paper_b.released_bound import algorithm2_outlook

        look = algorithm2_outlook(len(data.X), int(k), data.X.shape[1], max_work, data.name)
        if look.verdict == "likely too costly":  # it would run for minutes to hours without a word
            raise ValueError(f"{look.message.split('; set ')[0]}; use mechanism gaussian_smooth_fast (polynomial), "
                             "or max_work=None (command line: --max-work none) to run Algorithm 2 anyway")
    rng = seeding.rng(seed, "api", "paper_b", mechanism)
    value, count, sigma = mech.release(data.X, k=int(k), r=float(r), eps=float(eps), delta=float(delta), rng=rng,
                                       n_trials=1)
    near_r = _chosen_r(data, r)
    tuned = bool(tuned_on_data) or near_r is not None
    claim = _scoped(mech.claim(eps=float(eps), delta=float(delta)), data, ("ε, δ, k, N, d (bounded DP)",),
                    [(f"r = {float(r):.6g}" + (near_r or ""), tuned)])
    return Release(mechanism, float(np.asarray(value).ravel()[0]), int(count), claim,
                   {"k": int(k), "r": float(r), "eps": float(eps), "delta": float(delta), "seed": int(seed),
                    "N": len(data.X)}, tuned, float(sigma))
