"""Rows of ``results/index.md`` for the sweeps of a run: one line per sweep with its grid, table and figures."""

from __future__ import annotations

from privanomaly.sweeps.spec import Sweep, num_token

FIGURES = {"paper_a": ("error_vs_eps", "gain"), "paper_b": ("sigma_ratio", "noise_vs_eps", "top_h")}
# a figure drawn only when the sweep sets this key (top-h: `h` with `subspace_dims`; paper B's named mechanisms)
NEEDS = {"top_h": "h", "noise_vs_eps": "mechanisms"}
SP = "sp"  # registry name of the (ε, k)-SP mechanism (Construction 1 with L): the base of the `gain` figure


def _drawn(f: str, sw: Sweep) -> bool:
    if f == "gain":  # SP's gain over the sweep's other mechanisms: needs SP and at least one other
        return SP in sw.mechanisms and len(set(sw.mechanisms)) > 1
    return f not in NEEDS or bool(getattr(sw, NEEDS[f]))


def figures(sw: Sweep) -> tuple[str, ...]:
    """The figures of sweep ``sw``: those of its kind, less the ones it has nothing to draw for (a paper-B
    sweep without ``h`` computes no top-h row, so it has no top-h figure; a paper-A sweep without ``sp``, or
    with ``sp`` alone, has no SP gain to show)."""
    return tuple(f for f in FIGURES[sw.kind] if _drawn(f, sw))


def grid_summary(sw: Sweep, datasets: list[str]) -> str:
    """One line: datasets x mechanisms x ε x k x β x r and the number of grid points."""
    r = f"r ({sw.r_kind}) ∈ {{{', '.join(num_token(v) for v in sw.r_values)}}}"  # in full: the grid's values
    parts = [f"datasets {', '.join(datasets)}"]
    if sw.mechanisms:
        parts.append(f"mechanisms {', '.join(sw.mechanisms)}")
    parts += [f"ε ∈ {{{', '.join(num_token(e) for e in sw.eps)}}}", f"k ∈ {{{', '.join(map(str, sw.k))}}}"]
    if sw.kind == "paper_a":
        parts.append(f"β ∈ {{{', '.join(map(str, sw.beta))}}}")
        n = len(datasets) * len(sw.mechanisms) * len(sw.eps) * len(sw.k) * len(sw.beta) * len(sw.r_values)
    else:
        parts.append(f"δ ∈ {{{', '.join(num_token(x) for x in sw.delta)}}}")
        parts.append(f"h ∈ {{{', '.join(map(str, sw.h))}}}, subspace dim {{{', '.join(map(str, sw.subspace_dims))}}}"
                     if sw.h else "no top-h (no h, subspace_dims)")
        n = len(datasets) * len(sw.k) * len(sw.r_values) * len(sw.eps) * len(sw.delta)
    parts.append(r)
    return "; ".join(parts) + f" ({n} points)"


def entries(sweeps: dict[str, Sweep], datasets: dict[str, list[str]]) -> list[dict]:
    """What :func:`render` needs per sweep that runs (plain dicts: they travel as Snakemake params)."""
    out = []
    for name, sw in sweeps.items():
        if not datasets.get(name):
            continue
        out.append({
            "name": name,
            "kind": sw.kind,
            "description": sw.description,
            "grid": grid_summary(sw, datasets[name]),
            "files": [f"sweeps/{name}/sweep.parquet", f"sweeps/{name}/sweep.csv"]
            + [f"sweeps/{name}/figures/{f}.png" for f in figures(sw)],
        })
    return out


def _figure_cell(png: str) -> str:
    """A figure's link, with the PDF that rule ``sweep_plot`` writes beside every PNG."""
    cell = f"[{png.rsplit('/', 1)[-1]}]({png})"
    if png.endswith(".png"):
        cell += f" (+ [.pdf]({png[:-len('.png')]}.pdf))"
    return cell


def render(entries: list[dict]) -> str:
    """The "Sweeps" section of results/index.md (empty string when the run has no sweep)."""
    if not entries:
        return ""
    lines = [
        "",
        "## Sweeps",
        "",
        "Configured under `sweeps:` (docs/guide.md, \"Sweeps over ε, k, β and r\"); one tidy row per grid point and mechanism in "
        "`sweep.parquet`; rules `sweep_counts` / `sweep_chunk` / `sweep_b_dataset` → `sweep_collect` → `sweep_plot`.",
        "",
        "| Sweep | Kind | What | Grid | Table | Figures |",
        "|---|---|---|---|---|---|",
    ]
    for e in entries:
        table, csv, *figs = e["files"]
        fig_cells = ", ".join(_figure_cell(f) for f in figs)
        desc = (e.get("description") or "").replace("|", "\\|")
        lines.append(f"| `{e['name']}` | {e['kind']} | {desc} | {e['grid']} | [`{table}`]({table}) ([csv]({csv})) | "
                     f"{fig_cells} |")
    return "\n".join(lines) + "\n"
