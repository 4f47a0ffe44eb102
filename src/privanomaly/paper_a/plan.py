"""Config checks, dataset sets and per-dataset settings of paper A for the workflow (workflow/rules/paper_a.smk
and the get_* functions of workflow/rules/common.smk). Paper A's targets are the files of its items in workflow/report/catalogue.yaml."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

def check_config(pa: Mapping, unavailable: Mapping[str, str]) -> None:
    """Cross-key checks of ``config['paper_a']`` that the JSON schema cannot express; errors name the key."""
    if not any(abs(e - pa["eps_ref"]) < 1e-12 for e in pa["eps_grid"]):
        raise ValueError(f"config paper_a.eps_ref={pa['eps_ref']} must be one of paper_a.eps_grid {pa['eps_grid']}")
    if pa["k_main"] not in pa["k_grid"]:
        raise ValueError(f"config paper_a.k_main={pa['k_main']} must be one of paper_a.k_grid {pa['k_grid']}")
    check_mechanisms(pa["mechanisms"])
    for i, name in enumerate(pa["growth"]["datasets"]):
        if name not in pa["datasets"]:
            raise ValueError(f"config paper_a.growth.datasets[{i}]: {name!r} is not in paper_a.datasets")
    if pa["fig2"]["dataset"] in pa["datasets"]:
        raise ValueError(f"config paper_a.fig2.dataset: {pa['fig2']['dataset']!r} is also in paper_a.datasets; its "
                         "selection uses paper_a.fig2.betas, so use a dataset of its own for Figures 2-3")
    for key in ("fig2", "compiler"):
        name = pa[key]["dataset"]
        if name in unavailable:
            raise ValueError(f"config paper_a.{key}.dataset: dataset {name!r} is unavailable in this run "
                             f"({unavailable[name]}); choose a mirrored or synthetic one")


def check_mechanisms(mech: Mapping) -> None:
    """``paper_a.mechanisms``: every name registered and answering paper A's query; SP and DP in ``errors``
    (the figures and claims compare them)."""
    from privanomaly import mechanisms

    known = mechanisms.names("aiq")
    for key, names in mech.items():
        for i, name in enumerate(names):
            if name not in known:
                raise ValueError(f"config paper_a.mechanisms.{key}[{i}]: {name!r} is not a registered paper-A "
                                 f"mechanism (registered: {known}){mechanisms.not_loaded_hint()}")
    for need in ("sp", "optimal_dp"):
        if need not in mech["errors"]:
            raise ValueError(f"config paper_a.mechanisms.errors must contain {need!r} (Figures 2-3 and claims.md "
                             f"compare SP with the optimal DP mechanism); got {list(mech['errors'])}")


@dataclass(frozen=True)
class PaperASets:
    """The dataset sets of paper A in this run (:func:`sets`); the catalogue names them ``paper_a.<field>``
    (:meth:`named`).

    ``tables``: the table datasets built in this run; ``missing``: {left out: why}; ``paper_datasets``: the
    paper's own; ``yours``: table datasets that are not the paper's (claims give numbers, no verdict);
    ``growth``: the listed growth datasets and every one of the user's (claim A4 must reach it);
    ``compiler_sets``: Construction 2 (claim A8) on the compiler figure's dataset and every table one;
    ``compiler``: the compiler figure's dataset; ``selected``: every dataset whose (β, r) is selected (tables,
    Figure 2, the compiler figure).
    """

    tables: list[str]
    missing: dict[str, str]
    paper_datasets: list[str]
    yours: list[str]
    growth: list[str]
    compiler_sets: list[str]
    compiler: list[str]
    selected: list[str]

    def named(self) -> dict[str, list[str]]:
        """{``paper_a.<field>``: datasets}: the names the catalogue's ``datasets``/``sets`` use (``missing``: its
        names)."""
        return {f"paper_a.{f.name}": list(getattr(self, f.name)) for f in fields(self)}


def sets(pa: Mapping, available: list[str], unavailable: Mapping[str, str]) -> PaperASets:
    """The dataset sets of paper A (:class:`PaperASets`) from config ``paper_a``, the datasets ``available`` in
    this run and the reasons of the ``unavailable``."""
    tables = [n for n in pa["datasets"] if n in available]
    paper = pa["claims"].get("paper_datasets", pa["datasets"])
    yours = [n for n in tables if n not in paper]
    fig2, compiler = pa["fig2"]["dataset"], pa["compiler"]["dataset"]
    return PaperASets(
        tables=tables,
        missing={n: unavailable.get(n, "unavailable") for n in pa["datasets"] if n not in tables},
        paper_datasets=paper,
        yours=yours,
        growth=[n for n in pa["growth"]["datasets"] if n in tables]
        + [n for n in yours if n not in pa["growth"]["datasets"]],
        compiler_sets=list(dict.fromkeys([compiler, *tables])),
        compiler=[compiler],
        selected=list(dict.fromkeys([*tables, fig2, compiler])),
    )


def betas(pa: Mapping, dataset: str) -> list:
    """The β grid of ``dataset``'s selection: Figures 2-3's dataset has its own (``paper_a.fig2.betas``)."""
    return pa["fig2"]["betas"] if dataset == pa["fig2"]["dataset"] else pa["selection"]["betas"]


def eps_min(pa: Mapping, dataset: str | None = None) -> float:
    """The smallest ε any mechanism of paper A runs its noise at on the record tables: where ball counts may be
    capped. The error mechanisms run at every ε of ``eps_grid``, the detection ones at ``eps_ref``, each at its
    ``noise_share`` of it (1/2 for the noisy threshold, 1/4 for the compiler); Figures 2-3 run SP and DP at
    ``fig2.eps``, the compiler figure its constant input at ``compiler.eps``.

    ``dataset``: the cap of that dataset's record table (rule paper_a_records's param). A dataset of
    ``paper_a.datasets`` never runs at Figure 2's ε (Figures 2-3 have a dataset of their own), so ``fig2.eps``
    is left out of its min: Figure 2's ε does not recompute the tables. Any other dataset (Figure 2's, the
    compiler figure's) keeps the min over every ε."""
    from privanomaly import mechanisms

    mech = pa.get("mechanisms", {})
    out = [min(pa["eps_grid"]) * mechanisms.smallest_noise_share(mech.get("errors", [])), pa["compiler"]["eps"]]
    if "eps_ref" in pa:
        out.append(pa["eps_ref"] * mechanisms.smallest_noise_share(mech.get("detection", [])))
    if dataset is None or dataset not in pa["datasets"] or dataset == pa["fig2"]["dataset"]:
        out.append(pa["fig2"]["eps"])
    return min(out)


def claims_settings(pa: Mapping) -> dict:
    """The keys of config ``paper_a`` that the claims read (:data:`privanomaly.paper_a.claims.CLAIMS`, the
    sweep's claims and the header of claims.md): rule paper_a_claims's params, so that it reruns when one of
    them changes and not when another key of the section does (Figure 1 or 4, PyOD, ...)."""
    return {"eps_ref": pa["eps_ref"], "k_main": pa["k_main"], "eps_grid": list(pa["eps_grid"]),
            "ci_level": pa["ci_level"], "claims": dict(pa["claims"]), "fig2": {"dataset": pa["fig2"]["dataset"]}}


def k_sensitive(pa: Mapping) -> list[int]:
    """Every k of the error grid and of Figure 3: the k-sensitive sets rule paper_a_errors writes."""
    return sorted(set(pa["k_grid"]) | set(pa["fig3"]["k_values"]))


def not_evaluated(sets: PaperASets, sweep: str = "", sweep_datasets: list[str] | None = None
                  ) -> dict[str, dict[str, str]]:
    """{claim: {dataset: why}} of the claims a table dataset is not evaluated for: A4 without a growth curve;
    A3, A6, A8, A10 (read off the claim sweep ``sweep``) for a dataset the sweep does not run on."""
    why = "not in paper_a.growth.datasets (no growth curve in this run)"
    out = {"A4": {n: why for n in sets.tables if n not in sets.growth}}
    if sweep and sweep_datasets is not None:
        off = f"not in the claim sweep {sweep!r} (it runs on the datasets of paper_a.datasets it lists)"
        for claim in ("A3", "A6", "A8", "A10"):
            out[claim] = {n: off for n in sets.tables if n not in sweep_datasets}
    return out
