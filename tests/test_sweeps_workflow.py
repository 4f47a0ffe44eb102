"""A sweep defined only in an overlay YAML runs end to end, shows up in the report and the index, gives the
exact values known in closed form, and adding one ε value reruns only that value's jobs.

In a temporary copy of the workflow (the files git knows), ``my.yaml`` adds one tiny CSV dataset and one
sweep; ``snakemake --cores 2 --configfile my.yaml <the sweep's files>`` runs it. The data: 300 records in a
tight cube (side 0.4) and 6 records alone, ≥ 10 apart from everything, so at the sweep's radii (0.5 to 1.5)
and β ≥ 2 the (β, r)-anomalies are exactly the 6 singletons (x_i = B = 1). Closed forms (paper A):
the optimal DP mechanism errs on each with probability 1/(1+e^ε) (Fig. 1; Δ_G = 1); SP errs no more
(L >= Δ_G); on absent points with an empty ball the Laplace count errs with probability P(Z <= β) >= 1/2,
SP and DP with at most 1/(1+e^ε) < 1/2.

Marked slow (runs Snakemake).
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from workflow_copy import MIRROR, SNAKEMAKE, copy_workflow, env_for

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

SWEEP, DATA = "mysweep", "tinysweep"
OUT = f"results/sweeps/{SWEEP}"
TARGETS = [f"{OUT}/sweep.parquet", f"{OUT}/figures/error_vs_eps.png", f"{OUT}/figures/gain.png"]
EPS = [0.25, 2.0]  # two values (not more): every grid dimension has two values, so the job count proves the product


def tiny_csv(path: Path, seed: int = 11) -> None:
    rng = np.random.default_rng(seed)
    cloud = rng.uniform(-0.2, 0.2, size=(300, 2))
    alone = np.array([[10.0, 10.0], [-10.0, 10.0], [10.0, -10.0], [-10.0, -10.0], [0.0, 10.0], [10.0, 0.0]])
    df = pd.DataFrame(np.vstack([cloud, alone]), columns=["a", "b"])
    df["kind"] = ["normal"] * 300 + ["odd"] * 6
    path.parent.mkdir(parents=True, exist_ok=True)
    df.sample(frac=1.0, random_state=2).to_csv(path, index=False)


def overlay(eps: list[float], sha: str) -> dict:
    return {
        "sweep_points_per_job": 8,  # the 8 (beta, r, k) points of one eps: one chunk per eps
        "datasets": {
            DATA: {
                "description": "tiny CSV for the sweep workflow test",
                "files": [{"path": "mydata/tiny.csv", "sha256": sha}],
                "format": "csv",
                "label": {"column": "kind", "anomaly_values": ["odd"], "normal_values": ["normal"]},
                "preprocess": {"missing": "error", "standardize": False},
            }
        },
        "sweeps": {
            SWEEP: {
                "kind": "paper_a",
                "description": "overlay-only test sweep",
                "datasets": [DATA],
                "mechanisms": ["sp", "optimal_dp", "laplace_count", "laplace_noisy_threshold"],
                "eps": eps,
                "k": [1, 2],
                "beta": [2, 4],
                "r": {"value": [0.5, 1.5]},
                "n_absent": 200,
            }
        },
    }


def snakemake(copy: Path, *args: str, timeout: float = 900, configfile: str = "my.yaml") -> str:
    cmd = [SNAKEMAKE, *args, "--configfile", configfile, "--config", f"data_mirror={MIRROR}"]
    proc = subprocess.run(cmd, cwd=copy, env=env_for(copy), capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return proc.stdout + proc.stderr


def job_counts(log: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", log, re.M) if m.group(1) != "total"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    copy = copy_workflow(tmp_path_factory.mktemp("sweep-overlay"))
    tiny_csv(copy / "mydata" / "tiny.csv")
    sha = hashlib.sha256((copy / "mydata" / "tiny.csv").read_bytes()).hexdigest()
    (copy / "my.yaml").write_text(yaml.safe_dump(overlay(EPS, sha)), encoding="utf-8")
    log = snakemake(copy, *TARGETS, "--cores", "2")
    return {"copy": copy, "log": log, "sha": sha, "table": pd.read_parquet(copy / TARGETS[0])}


def test_overlay_sweep_runs_one_chunk_per_eps_on_one_counts_job(run):
    jobs = job_counts(run["log"])
    assert jobs["sweep_chunk"] == 1 * len(EPS)  # dataset x eps (sweep_points_per_job 8); its 8 points inside
    assert jobs["sweep_counts"] == 1  # the dataset's counts at both r (absolute radii: shared by both beta)
    t = run["table"]
    assert len(t) == 1 * 2 * 2 * 2 * len(EPS) * 4 and set(t["sweep"]) == {SWEEP}


def test_exact_values_at_every_grid_point(run):
    t = run["table"]
    assert (t["n_anomalies"] == 6).all() and (t["n_labelled"] == 6).all()
    dp = t[t["mechanism"] == "optimal_dp"]
    assert np.allclose(dp["error_anomaly"], 1 / (1 + np.exp(dp["eps"])), rtol=1e-12, atol=0)
    key = ["beta", "r_spec", "k", "eps"]
    wide = t.pivot_table(index=key, columns="mechanism", values=["error_anomaly", "error_normal", "error_absent"])
    for col in ("error_anomaly", "error_normal", "error_absent"):
        assert (wide[(col, "sp")] <= wide[(col, "optimal_dp")] * (1 + 1e-12)).all(), col
    void = t.pivot_table(index=key, columns="mechanism", values="error_absent_void")
    assert (t["n_absent_void"] > 0).all()
    assert (void["laplace_count"] >= 0.5).all()
    assert (void["sp"] < 0.5).all() and (void["optimal_dp"] < 0.5).all()
    claims = t.drop_duplicates("mechanism").set_index("mechanism")
    assert claims.loc["laplace_noisy_threshold", "claim_eps"] == claims.loc["laplace_noisy_threshold", "eps"] / 2


def test_sweep_in_report_and_index(run):
    copy = run["copy"]
    snakemake(copy, *TARGETS, "--report", "report.zip")
    import zipfile

    with zipfile.ZipFile(copy / "report.zip") as z:
        text = "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith((".html", ".js")))
    assert SWEEP in text and "overlay-only test sweep" in text and "Sweeps" in text
    assert "0.25, 2.0" in text  # the caption is generated from the sweep's own config
    dry = snakemake(copy, "results/index.md", "-n")
    block = dry[dry.index("rule report_index:"):]
    assert f"{OUT}/sweep.parquet" in block.split("output:")[0]  # the index reads the sweep's table


def test_adding_one_eps_reruns_only_that_value(run):
    copy = run["copy"]
    (copy / "my.yaml").write_text(yaml.safe_dump(overlay(EPS + [0.5], run["sha"])), encoding="utf-8")
    dry = snakemake(copy, *TARGETS, "-n")
    jobs = job_counts(dry)
    assert jobs.get("sweep_counts", 0) == 0 and jobs.get("prepare", 0) == 0
    assert jobs["sweep_chunk"] == 1  # the new ε's chunk (every (beta, r, k) of the dataset), nothing else
    outs = re.findall(r"rule sweep_chunk:\n(?:.*\n)*?\s+output: (\S+)", dry)
    assert len(outs) == 1 and all(o.endswith(f"{DATA}/part~{len(EPS)}.parquet") for o in outs)
    assert set(jobs) <= {"sweep_chunk", "sweep_collect", "sweep_plot"}


def test_a_sweeps_only_run_records_its_configuration(run):
    """`snakemake sweeps_all` writes the run's effective configuration, so the report made after it has the
    sweeps (the report reads the recorded configuration)."""
    dry = snakemake(run["copy"], "sweeps_all", "-n", "--forceall")
    assert "results/effective_config.yaml" in dry and "rule effective_config:" in dry


def test_datasets_in_one_batch_give_the_table_of_their_own_jobs(run):
    """`batches: [[tinysweep2, tinysweep]]` computes both datasets in one sweep_counts job and one chunk job per
    ε; the tidy table (Parquet and CSV) is byte-identical to the one of a job per dataset."""
    copy, data2 = run["copy"], "tinysweep2"
    tiny_csv(copy / "mydata" / "tiny2.csv", seed=12)
    sha2 = hashlib.sha256((copy / "mydata" / "tiny2.csv").read_bytes()).hexdigest()
    tables, jobs = {}, {}
    for tag, batches in (("alone", None), ("batched", [[data2, DATA]])):
        cfg = overlay(EPS, run["sha"])
        cfg["results_dir"] = f"res_{tag}"
        cfg["datasets"][data2] = {**cfg["datasets"][DATA], "files": [{"path": "mydata/tiny2.csv", "sha256": sha2}]}
        cfg["sweeps"][SWEEP]["datasets"] = [DATA, data2]
        if batches:
            cfg["sweeps"][SWEEP]["batches"] = batches
        (copy / f"{tag}.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
        out = f"res_{tag}/sweeps/{SWEEP}"
        jobs[tag] = job_counts(snakemake(copy, f"{out}/sweep.parquet", "--cores", "2", configfile=f"{tag}.yaml"))
        tables[tag] = [(copy / out / f"sweep.{ext}").read_bytes() for ext in ("parquet", "csv")]
    assert (jobs["alone"]["sweep_counts"], jobs["alone"]["sweep_chunk"]) == (2, 2 * len(EPS))
    assert (jobs["batched"]["sweep_counts"], jobs["batched"]["sweep_chunk"]) == (1, len(EPS))
    assert (copy / f"res_batched/sweeps/{SWEEP}/counts/{data2}+{DATA}.parquet").is_file()
    assert tables["batched"] == tables["alone"]
    t = pd.read_parquet(copy / f"res_batched/sweeps/{SWEEP}/sweep.parquet")
    assert sorted(t["dataset"].unique()) == [DATA, data2] and len(t) == 2 * 2 * 2 * 2 * len(EPS) * 4
