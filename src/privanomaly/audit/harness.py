"""The one privacy-audit harness: every registered mechanism, exhaustively and statistically.

For each mechanism of :mod:`privanomaly.mechanisms` the harness calls the *auditor* of its family
(:func:`auditor` registers one: paper A's family "aiq" in :mod:`privanomaly.audit.paper_a`, paper B's
families in :mod:`privanomaly.audit.paper_b`) and collects one :class:`AuditRow`:
claim, worlds, edges and distinct pairs checked, the worst ratio / e^eps, the worst delta, a
Clopper–Pearson estimate from the mechanism's own sampler, and pass/fail. Negative controls — deliberately
broken mechanisms (:mod:`.controls`; more with :func:`negative_control`) — go through the same auditor and
must fail.

The released path of every row kind that can say ``proven_end_to_end`` (:data:`RELEASED_PATHS`, filled by
:mod:`.released_path`) is audited after the registered mechanisms, kind "released path".


Every sampled check runs inside :func:`sampled_check`: a sampler whose loop runs past the budget its own law
allows (:class:`privanomaly.sp.loop_budget.SamplerStalled`, false alarm below 2^-60 per loop run) fails the
row's statistical check with a message naming the world (:func:`sampling`), the loop and the acceptance
probability it promised - the audit fails in seconds instead of hanging.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Callable

import pandas as pd

from privanomaly import mechanisms as mech_registry
from privanomaly.mechanisms.base import Mechanism
from privanomaly.outliers import enclosing, smooth
from privanomaly.sp.loop_budget import SamplerStalled

from . import controls as builtin_controls
from . import parallel
from .worlds import DOMAINS

__all__ = [
    "Level",
    "LEVELS",
    "AuditRow",
    "auditor",
    "negative_control",
    "AUDITORS",
    "NEGATIVE_CONTROLS",
    "audit_mechanism",
    "run",
    "audit_aiq",
    "claim_text",
    "sampling",
    "sampled_check",
    "table",
    "TABLE_COLUMNS",
]


@dataclass(frozen=True)
class Level:
    """How much of the grid the harness covers. ``fast`` runs inside the test suite; ``full`` is `make audit`."""

    name: str
    domains: tuple[str, ...]
    metrics: tuple[str, ...]
    radii: tuple[float, ...]
    betas: tuple[int, ...]
    ks: tuple[int, ...]
    cap_offsets: tuple[int | None, ...]  # count cap = beta + offset (None = uncapped)
    eps: tuple[float, ...]
    cp_n: int
    gof_n: int = 50_000  # draws per (x_i, B) cell of a paper-A sampler against its exact law (:func:`_gof_aiq`)
    seed: int = 20191111
    extra: dict = field(default_factory=dict, compare=False, hash=False)  # family-specific settings (paper B)
    controls_level: str = ""  # the level the negative controls are audited at ("": this one; see run())


LEVELS = {
    "fast": Level("fast", ("line4", "grid2x2"), ("manhattan", "euclidean", "chebyshev"), (1.0, 1.5),
                  (2, 3), (1, 2), (None, 1), (0.003, 1.0, 30.0), 200_000, gof_n=5_000),
    "full": Level("full", tuple(DOMAINS), ("manhattan", "euclidean", "chebyshev"), (0.0, 1.0, 1.5, 2.0),
                  (1, 2, 3, 5), (1, 2, 3), (None, 1, 3), (0.003, 0.01, 0.1, 0.5, 1.0, 2.5, 10.0, 30.0), 1_000_000,
                  controls_level="fast"),
}


@dataclass
class AuditRow:
    """One line of the "Privacy audit" table."""

    kind: str  # "mechanism", "released path" or "negative control"
    mechanism: str
    paper: str
    reference: str
    claim: str
    neighbours: str
    worlds: int = 0
    edges: int = 0
    pairs: int = 0
    worst_ratio_over_e_eps: float = float("nan")
    worst_delta: float = float("nan")
    cp_eps_hat: float = float("nan")
    cp_claimed_eps: float = float("nan")
    cp_detail: str = ""
    exhaustive_pass: bool | None = None
    statistical_pass: bool | None = None
    law_pass: bool | None = None  # paper A: ``probs`` (the law every table reports) is the exact law
    expected: str = "pass"  # "pass", "fail" (negative control) or "unproven" (claim.proven is False)
    note: str = ""
    error: str = ""  # the exception the mechanism's audit raised: neither a pass nor a catch (run())

    @property
    def checks(self) -> tuple[bool | None, ...]:
        return self.exhaustive_pass, self.statistical_pass, self.law_pass

    @property
    def passed(self) -> bool:
        checks = [c for c in self.checks if c is not None]
        return bool(checks) and all(checks)

    @property
    def ok(self) -> bool:
        """Pass for a mechanism; caught (some check fails) for a negative control; always for an unproven
        claim (a mechanism kept for the paper's figure whose premises do not hold: nothing is claimed); never
        when its audit raised (``error``)."""
        if self.error:
            return False
        if self.expected == "pass":
            return self.passed
        if self.expected == "unproven":
            return True
        return any(c is False for c in self.checks)

    @property
    def result(self) -> str:
        if self.error:
            return "ERROR"
        if self.expected == "pass":
            return "pass" if self.passed else "FAIL"
        if self.expected == "unproven":
            return "unproven (violation found)" if not self.passed else "unproven (no violation in these worlds)"
        return "caught" if self.ok else "NOT CAUGHT"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["result"] = self.result
        d["ok"] = self.ok
        return d


AuditFn = Callable[[Mechanism, Level], AuditRow]
AUDITORS: dict[str, AuditFn] = {}
NEGATIVE_CONTROLS: dict[str, tuple[Callable[[], Mechanism], str]] = dict(builtin_controls.PAPER_A)
"""Negative controls by name: (zero-argument factory, what must be seen); paper A's built in, more by
:func:`negative_control`. Paper B's (:func:`.controls.paper_b_controls`) run after these."""
RELEASED_PATHS: dict[str, Callable[[], Mechanism]] = {}
"""The released paths by name (zero-argument factories, :mod:`.released_path`): one row per kind of row that can
say ``proven_end_to_end``, audited after the registered mechanisms (kind "released path")."""
RUN_MEMOS: list[Callable[[], AbstractContextManager]] = [enclosing.memoised, smooth.reuse_block_bounds]
"""Memos opened around every :func:`run` (pure results that several rows recompute otherwise): the small worlds'
subsets recur across datasets, eps and bounds, a world's fast-bound B_t across eps; more by :func:`run_memo`."""


def auditor(family: str) -> Callable[[AuditFn], AuditFn]:
    """Register the auditor of a mechanism family (``fn(mechanism, level) -> AuditRow``)."""

    def deco(fn: AuditFn) -> AuditFn:
        AUDITORS[family] = fn
        return fn

    return deco


def negative_control(name: str, what: str) -> Callable:
    """Register a deliberately broken mechanism (zero-argument factory) that the harness must catch."""

    def deco(factory):
        NEGATIVE_CONTROLS[name] = (factory, what)
        return factory

    return deco


def run_memo(memo: Callable[[], AbstractContextManager]) -> Callable[[], AbstractContextManager]:
    """Register a memo (a context manager factory) that :func:`run` opens around its rows."""
    RUN_MEMOS.append(memo)
    return memo


def claim_text(m: Mechanism, **params) -> str:
    """The claim as a function of eps, e.g. "(1·eps, 0)-DP on add_remove" (from the claim at eps = 1)."""
    c = m.claim(eps=1.0, **params)
    kind = "SP" if c.neighbours == "sensitive_k" else "DP"
    delta = f"{c.delta:g}" if c.delta else "0"
    return f"({c.epsilon:.6g}·ε, {delta})-{kind} on {c.neighbours}" + ("" if c.proven else " [unproven]")


def audit_mechanism(m: Mechanism, level: Level, kind: str = "mechanism", expected: str = "pass",
                    note: str = "") -> AuditRow:
    """One row: the family's auditor, else the mechanism's own ``audit_rows`` hook, else "no auditor".

    Without a family auditor nothing samples the mechanism: its own ``audit_rows`` check the law it states, not
    its draws, so a mechanism with a sampler (``sample``) expected to pass gets ``statistical_pass = False``
    ("sampler not audited") - a sampler that does not sample its law would pass otherwise. One without a sampler
    (the end-to-end releases: exact laws only) and a negative control keep their own checks only."""
    fn = AUDITORS.get(m.family)
    if fn is None and hasattr(m, "audit_rows"):
        fn = audit_rows_adapter
    if fn is None:
        return AuditRow(kind, m.name, m.paper, m.reference, "", m.neighbours, expected=expected,
                        note=f"no auditor registered for family {m.family!r}")
    try:
        row = fn(m, level)
    except SamplerStalled as e:  # an auditor that does not catch it itself (sampled_check): the row fails
        row = AuditRow(kind, m.name, m.paper, m.reference, "", m.neighbours, statistical_pass=False,
                       cp_detail=f"sampler of {m.name} stalled: {e}", note=f"sampler stalled: {e}")
    row.kind = kind
    if expected == "pass" and row.expected == "unproven":
        expected = "unproven"
    row.expected = expected
    if fn is audit_rows_adapter and expected != "fail" and callable(getattr(m, "sample", None)):
        row.statistical_pass = False
        row.note = "; ".join([row.note, f"sampler not audited: no auditor registered for family {m.family!r} "
                                        "(register one with privanomaly.audit.auditor)"])
    row.note = "; ".join(x for x in (note, row.note) if x)
    return row


@contextmanager
def sampling(where: str) -> Iterator[None]:
    """Name the world a sampler is drawn on: a :class:`~privanomaly.sp.loop_budget.SamplerStalled` raised inside
    is raised again with ``where`` in front of its message (which names the loop and its law)."""
    try:
        yield
    except SamplerStalled as e:
        raise SamplerStalled(f"{where}: {e}") from e


@contextmanager
def sampled_check(m: Mechanism, row: AuditRow) -> Iterator[None]:
    """Run an auditor's sampled checks: a sampler that stalls (its loop ran past the budget its law allows,
    :mod:`privanomaly.sp.loop_budget`) fails the row's statistical check with the loop's message - the audit
    fails in seconds instead of hanging."""
    try:
        yield
    except SamplerStalled as e:
        row.statistical_pass = False
        row.cp_detail = f"sampler of {m.name} stalled: {e}"
        row.note = "; ".join(x for x in (row.note, f"sampler stalled: {e}") if x)


AUDIT_ROWS_PARAMS = dict(eps=0.5, delta=0.01)
"""(eps, delta) at which a mechanism with its own ``audit_rows`` hook (paper B) is asked whether its claim is
proven (``Claim.proven``); the checks themselves run at the hook's own defaults."""


def audit_rows_adapter(m: Mechanism, level: Level) -> AuditRow:
    """Mechanisms carrying their own exhaustive checks (paper B: ``m.audit_rows(fast) -> list[dict]`` with
    ``world``, ``datasets``, ``pairs``, ``worst_ratio``, ``worst_delta``, ``passed``): one aggregated row.
    A claim whose premises do not all hold (``Claim.proven`` False) is reported as "unproven", not as a pass."""
    rows = m.audit_rows(fast=level.name == "fast")  # at the hook's own (eps, delta)
    claim = m.claim(**AUDIT_ROWS_PARAMS)
    failing = [r["world"] for r in rows if not r["passed"]]
    note = f"own exhaustive checks (audit_rows): {len(rows)} worlds, {sum(int(r['datasets']) for r in rows)} datasets"
    if failing:
        note += f"; failing worlds: {', '.join(map(str, failing[:4]))}"
    moved = sum(int(r.get("moved", 0)) for r in rows)
    if moved:  # a released path: a public quantity differed between neighbours
        note += f"; public quantities moved on {moved} edges"
    return AuditRow("mechanism", m.name, m.paper, m.reference, rows[0]["claim"] if rows else claim.describe(),
                    m.neighbours, worlds=len(rows), edges=sum(int(r.get("edges", r["pairs"])) for r in rows),
                    pairs=sum(int(r["pairs"]) for r in rows),
                    worst_ratio_over_e_eps=max((float(r["worst_ratio"]) for r in rows), default=float("nan")),
                    worst_delta=max((float(r["worst_delta"]) for r in rows), default=float("nan")),
                    exhaustive_pass=not failing and bool(rows), expected="pass" if claim.proven else "unproven",
                    note=note)


def run(level: str | Level = "fast", names: list[str] | None = None, controls: bool = True,
        log: Callable[[str], None] | None = None, seed: int | None = None, workers: int = 1) -> pd.DataFrame:
    """Audit every registered mechanism (or ``names``) and every negative control; one row each.

    ``seed`` (the config's master seed) replaces the level's default seed of the sampled audits. The negative
    controls run at ``controls_level`` (the full level's: fast): a control is there to show that each check
    catches what it is for - the exact edges, the law, the sampled audits (tests/test_audit_paper_a.py reads
    which check caught which control) - and the fast level's worlds and draws already do; the full level's
    coverage goes to the registered mechanisms. Their rows name the level (``note``).

    ``workers`` > 1 audits that many rows at a time in forked processes (:mod:`.parallel`). A row depends on
    its mechanism, level and seed alone (every draw is seeded by mechanism and cell, the memo caches hold pure
    results), so the table is the same, row for row, whatever ``workers``.
    """
    lv = LEVELS[level] if isinstance(level, str) else level
    if seed is not None:
        lv = replace(lv, seed=int(seed))
    with ExitStack() as memos:
        for memo in RUN_MEMOS:
            memos.enter_context(memo())
        rows = parallel.run_tasks(_tasks(lv, names, controls), workers, log)
    return pd.DataFrame([r.as_dict() for r in rows])


def _audited(name: str, make: Callable[[], Mechanism], lv: Level, kind: str = "mechanism", expected: str = "pass",
             note: str = "") -> AuditRow:
    """:func:`audit_mechanism`, or an ERROR row naming the exception when the mechanism's audit raises: one
    broken mechanism fails its own row (never counted as a pass or a catch) and the others are still audited."""
    m = None
    try:
        m = make()
        m.name = name
        return audit_mechanism(m, lv, kind, expected, note)
    except Exception as e:  # noqa: BLE001 - any error of one audit is reported in its row
        return AuditRow(kind, name, getattr(m, "paper", ""), getattr(m, "reference", ""), "",
                        getattr(m, "neighbours", ""), expected=expected, error=f"{type(e).__name__}: {e}",
                        note="; ".join(x for x in (note, f"the audit raised {type(e).__name__}: {e}") if x))


def _tasks(lv: Level, names: list[str] | None, controls: bool) -> list[tuple[str, Callable[[], AuditRow]]]:
    """(log label, the call that audits it) of every row, in the table's order."""
    tasks = [(f"audit {lv.name}: {n}", lambda n=n: _audited(n, lambda: mech_registry.get(n), lv))
             for n in (names if names is not None else mech_registry.names())]
    if names is None:
        tasks += [(f"audit {lv.name}: released path {n}", lambda n=n, f=f: _audited(n, f, lv, "released path"))
                  for n, f in RELEASED_PATHS.items()]
    if controls:
        todo = [(n, factory, what) for n, (factory, what) in NEGATIVE_CONTROLS.items()]
        todo += [(n, (lambda m=m: m), f"{m.label}: must fail") for n, m in builtin_controls.paper_b_controls().items()]
        clv = replace(LEVELS[lv.controls_level], seed=lv.seed) if lv.controls_level else lv
        tasks += [(f"audit {lv.name}: negative control {n} ({clv.name} level)",
                   lambda n=n, factory=factory, what=what: _audit_control(n, factory, what, clv, lv))
                  for n, factory, what in todo]
    return tasks


def _audit_control(name: str, factory: Callable[[], Mechanism], what: str, clv: Level, lv: Level) -> AuditRow:
    row = _audited(name, factory, clv, "negative control", "fail", what)
    if clv is not lv:
        row.note = "; ".join(x for x in (row.note, f"audited at the {clv.name} level") if x)
    return row


TABLE_COLUMNS = ["kind", "mechanism", "paper", "reference", "claim", "neighbours", "worlds", "edges", "pairs",
                 "worst_ratio_over_e_eps", "worst_delta", "cp_eps_hat", "cp_claimed_eps", "result", "ok",
                 "exhaustive_pass", "statistical_pass", "law_pass", "expected", "cp_detail", "note"]


def table(df: pd.DataFrame) -> pd.DataFrame:
    """The "Privacy audit" table: the columns of :data:`TABLE_COLUMNS`, in that order."""
    return df.reindex(columns=TABLE_COLUMNS)


# ------------------------------------------------------------------------------------------- paper A
