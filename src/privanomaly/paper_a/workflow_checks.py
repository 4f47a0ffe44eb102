"""Config checks for workflow/rules/paper_a.smk (kept out of the Snakefile, testable). Paper A's targets are
the files of its items in workflow/report/catalogue.yaml (privanomaly.report.catalogue.paper_files)."""

from __future__ import annotations

from collections.abc import Mapping

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
                                 f"mechanism (registered: {known})")
    for need in ("sp", "optimal_dp"):
        if need not in mech["errors"]:
            raise ValueError(f"config paper_a.mechanisms.errors must contain {need!r} (Figures 2-3 and claims.md "
                             f"compare SP with the optimal DP mechanism); got {list(mech['errors'])}")
