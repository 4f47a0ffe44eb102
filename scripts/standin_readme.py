"""Rule `standin_readme`: STAND-IN-DATA.md, the label at the top of a scale run's results directory."""

from privanomaly import io, runlog

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    lines = [
        "# Stand-in data: this results directory is a scale run, not a reproduction",
        "",
        "The datasets below were read from files *generated* by `privanomaly.datasets.standins` (seed "
        f"{p.seed}) in the exact format and at the real size of the public files, to measure the pipeline "
        "at scale offline. Their numbers are not results on the real data and must never be reported as such.",
        "",
        *[f"- `{name}`: {note}" for name, note in p.notes.items()],
        "",
        "Generated files (stand-in mirror): " + ", ".join(f"`{rel}` ({gen})" for rel, gen in p.files.items()),
        "",
    ]
    io.write_text(snakemake.output[0], "\n".join(lines))
