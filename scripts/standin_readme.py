"""Rule `standin_readme`: STAND-IN-DATA.md, the label at the top of a scale run's results directory."""

from privanomaly import io
from privanomaly.run import log as runlog

with runlog.log_to(snakemake.log[0]):
    p = snakemake.params
    if not p.notes:  # scale_all is a target of every run: never label real results as stand-in data
        raise ValueError("no dataset of this run is a stand-in (datasets.<name>.stand_in): STAND-IN-DATA.md labels "
                         "the results of a scale run only - run `make scale` (overlay .scale/config.yaml) for one")
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
