"""A fault campaign against the config check, as a careful user would hit it: every case here passed the check
(or failed it in a confusing way) and then failed inside a job, wrote duplicated rows, or silently dropped part
of the run. Each must now stop before any job, naming the key (and the file:line that set it) and the fix.

- an integer key written with a decimal point or an exponent (``seed: 5.0``, ``n_trials: 1.0e+3``,
  ``--config seed=1e3``): JSON Schema counts 5.0 as an integer, the library does not (``seeding`` refuses it);
- a duplicated item in a list that names rows (ε, h, datasets, conventions, methods, a table's datasets):
  each became a duplicated row, or an opaque TypeError in paper B's Tables 1-2;
- a bad key *name* (``pyod: {OCSVM: ...}``, a sweep named ``my_s``): was located at ``--config``;
- ``paper_a.claims.sweep`` naming a paper-B sweep: the config check deleted that sweep from the run;
- cross-key and range checks whose violation failed a job (``paper_b.fig2.plot_k`` outside ``k_values``: an
  IndexError in the plot; ``tuning.r_grid`` min > max; a negative printed r; ``fig2.k_values`` of 100,000: a
  job that never ends).
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from privanomaly.config import merge as configmerge
from privanomaly.config.check import ConfigError, check_config, merged_config
from privanomaly.paper_b import plan as pb_plan

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
TEST_CONFIG = str(ROOT / ".test" / "config.yaml")
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
from workflow_copy import MIRROR  # noqa: E402 - $PRIVANOMALY_MIRROR, else ../shared/datasets


def _error(tmp_path: Path, text: str) -> str:
    """The config check's message for config.yaml + .test/config.yaml + an overlay with ``text``."""
    over = tmp_path / "overlay.yaml"
    over.write_text(text)
    files = [str(ROOT / "config.yaml"), TEST_CONFIG, str(over)]
    with pytest.raises(ConfigError) as exc:
        check_config(merged_config(files), SCHEMA, files)
    return str(exc.value)


# ---------------------------------------------------------------- integers written as floats
INTEGER_CASES = [
    ("seed: 5.0\n", "seed", "5.0", "5"),
    ("paper_a:\n  n_trials: 1.0e+3\n", "paper_a.n_trials", "1000.0", "1000"),
    ("paper_a:\n  k_grid: [1.0, 5]\n", "paper_a.k_grid[0]", "1.0", "1"),
    ("paper_b:\n  k: 3.0\n", "paper_b.k", "3.0", "3"),
    ("paper_b:\n  scenario1:\n    max_work: 2.0e+3\n", "paper_b.scenario1.max_work", "2000.0", "2000"),
    ("sweeps:\n  paperAbetaR:\n    beta: [5.0]\n", "sweeps.paperAbetaR.beta[0]", "5.0", "5"),
    ("datasets:\n  mammography:\n    preprocess: {subsample: {n_normal: 2000.0, n_anomaly: 50}}\n",
     "datasets.mammography.preprocess.subsample.n_normal", "2000.0", "2000"),
]


@pytest.mark.parametrize("text, key, shown, fix", INTEGER_CASES, ids=[c[1] for c in INTEGER_CASES])
def test_integer_key_written_as_a_float_is_rejected_naming_the_key_and_the_integer(tmp_path, text, key, shown, fix):
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and "overlay.yaml:" in msg, msg
    assert f"{shown} is not of type 'integer'" in msg and f"write the integer {fix}" in msg, msg


def test_exponent_text_on_an_integer_or_null_key_is_told_to_write_the_integer(tmp_path):
    # '1e4' is text in YAML 1.1; the fix offered used to be 1.0e+4 - a float, which the key does not take either
    msg = _error(tmp_path, "paper_b:\n  scenario1:\n    max_work: 1e4\n")
    assert "config key paper_b.scenario1.max_work (" in msg and "write 10000 " in msg, msg


def test_integer_valued_float_from_the_command_line_is_located_at_config():
    files = [str(ROOT / "config.yaml")]
    config = merged_config(files)
    config["seed"] = 1000.0  # what `--config seed=1e3` hands over
    with pytest.raises(ConfigError, match=r"config key seed \(--config\): 1000\.0 is not of type 'integer'.*write "
                                          r"the integer 1000"):
        check_config(config, SCHEMA, files)


def test_a_real_float_key_still_takes_an_integer(tmp_path):
    over = tmp_path / "overlay.yaml"
    over.write_text("paper_a:\n  eps_grid: [1, 2]\n  eps_ref: 1\n")
    files = [str(ROOT / "config.yaml"), TEST_CONFIG, str(over)]
    config = check_config(merged_config(files), SCHEMA, files)
    assert config["paper_a"]["eps_grid"] == [1, 2]


# ---------------------------------------------------------------- duplicates in lists that name rows
DUPLICATE_CASES = [
    ("paper_b:\n  scenario1:\n    eps: [0.3, 0.3]\n", "paper_b.scenario1.eps"),
    ("paper_b:\n  scenario1:\n    methods: [fast, fast]\n", "paper_b.scenario1.methods"),
    ("paper_b:\n  scenario1:\n    conventions: [printed, printed]\n", "paper_b.scenario1.conventions"),
    ("paper_b:\n  scenario1:\n    datasets: [synthetic_b1, synthetic_b1]\n", "paper_b.scenario1.datasets"),
    ("paper_b:\n  scenario2:\n    eps: [0.4, 0.4]\n", "paper_b.scenario2.eps"),
    ("paper_b:\n  scenario2:\n    h: [1, 1]\n", "paper_b.scenario2.h"),
    ("paper_b:\n  scenario2:\n    datasets: [synthetic_b2, synthetic_b2]\n", "paper_b.scenario2.datasets"),
    ("paper_b:\n  tables:\n    table1: [synthetic_b1, synthetic_b1]\n", "paper_b.tables.table1"),
    ("paper_b:\n  tables:\n    table2: [adult_b2, adult_b2]\n", "paper_b.tables.table2"),
    ("paper_b:\n  timing:\n    datasets: [adult, adult]\n", "paper_b.timing.datasets"),
    ("paper_b:\n  fig2:\n    k_values: [1, 1]\n", "paper_b.fig2.k_values"),
    ("paper_a:\n  fig1:\n    eps_values: [0.5, 0.5]\n", "paper_a.fig1.eps_values"),
    ("privacy:\n  eps: [0.5, 0.5]\n", "privacy.eps"),
]


@pytest.mark.parametrize("text, key", DUPLICATE_CASES, ids=[c[1] for c in DUPLICATE_CASES])
def test_duplicated_list_item_is_rejected_naming_the_key(tmp_path, text, key):
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and "overlay.yaml:" in msg and "has non-unique elements" in msg, msg


# ---------------------------------------------------------------- bad key names are located where they are written
@pytest.mark.parametrize("text, key, line", [
    ("paper_a:\n  pyod:\n    OCSVM: {}\n", "paper_a.pyod.OCSVM", 3),
    ("sweeps:\n  my_s:\n    kind: paper_a\n", "sweeps.my_s", 2),
])
def test_bad_key_name_is_named_and_located_in_its_file(tmp_path, text, key, line):
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and f"overlay.yaml:{line}): key name " in msg, msg
    assert "--config" not in msg


# ---------------------------------------------------------------- the claim sweep must be a paper-A sweep
def test_claim_sweep_naming_a_paper_b_sweep_is_an_error_and_deletes_nothing(tmp_path):
    msg = _error(tmp_path, "paper_a:\n  claims:\n    sweep: paperBkR\n")
    assert "config key paper_a.claims.sweep: 'paperBkR' is a paper_b sweep" in msg, msg
    config = merged_config([str(ROOT / "config.yaml")])
    config["paper_a"]["claims"]["sweep"] = "paperBkR"
    before = copy.deepcopy(config["sweeps"])
    with pytest.raises(configmerge.ConfigListError):
        configmerge.resolve(config)
    assert config["sweeps"] == before  # the paper-B sweep is still in the run


# ---------------------------------------------------------------- ranges a job could not survive
@pytest.mark.parametrize("text, key, words", [
    ("paper_b:\n  paper_reported:\n    r: {adult_b1: -0.35}\n", "paper_b.paper_reported.r.adult_b1",
     "less than or equal to the minimum of 0"),
    ("paper_b:\n  paper_reported:\n    sigma_ratio_rnage: [10, 30]\n", "paper_b.paper_reported.sigma_ratio_rnage",
     "unknown key"),
    ("paper_b:\n  fig2:\n    k_values: [1, 100000]\n", "paper_b.fig2.k_values[1]", "greater than the maximum of 1000"),
    ("paper_b:\n  fig1:\n    d_max: 100000000\n", "paper_b.fig1.d_max", "greater than the maximum of 1000"),
    # was: unbounded, unlike paper_b.scenario2.max_subspaces - the guard of the enumeration guarded nothing
    ("sweeps:\n  paperBkR:\n    max_subspaces: 100000000\n", "sweeps.paperBkR.max_subspaces",
     "greater than the maximum of 1000000"),
    # a sweep's fraction in (0, 1) is the schema's check alone (sweeps.spec.parse no longer repeats it)
    ("sweeps:\n  paperAbetaR:\n    r: {fraction: [0.01, 1.5]}\n", "sweeps.paperAbetaR.r.fraction[1]",
     "greater than or equal to the maximum of 1"),
])
def test_out_of_range_value_is_rejected_naming_the_key(tmp_path, text, key, words):
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and words in msg, msg


def _paper_b(**changes) -> dict:
    pb = copy.deepcopy(merged_config([str(ROOT / "config.yaml"), TEST_CONFIG])["paper_b"])
    for dotted, value in changes.items():
        *head, last = dotted.split("__")
        node = pb
        for k in head:
            node = node[k]
        node[last] = value
    return pb


def test_paper_b_cross_checks_pass_on_the_shipped_configs():
    pb_plan.check_config(_paper_b())


@pytest.mark.parametrize("changes, message", [
    ({"fig2__plot_k": 5}, r"config paper_b\.fig2\.plot_k: 5 is not one of paper_b\.fig2\.k_values \[1, 3\]"),
    ({"tuning__r_grid__min": 5.0, "tuning__r_grid__max": 0.1},
     r"config paper_b\.tuning\.r_grid: min = 5\.0 is larger than max = 0\.1"),
])
def test_paper_b_cross_key_fault_is_caught_before_any_job(changes, message):
    with pytest.raises(ValueError, match=message):
        pb_plan.check_config(_paper_b(**changes))


@pytest.mark.slow
@pytest.mark.parametrize("overlay, expected", [
    ({"paper_a": {"claims": {"paper_datasets": ["thyroid", "nosuch"]}}},
     r"paper_a\.claims\.paper_datasets\[1\]: unknown dataset 'nosuch'"),
    ({"paper_b": {"fig2": {"plot_k": 5}}}, r"config paper_b\.fig2\.plot_k: 5 is not one of"),
])
@pytest.mark.mirror
def test_dag_time_name_and_cross_checks_stop_the_dry_run(tmp_path, overlay, expected):
    over = tmp_path / "overlay.yaml"
    over.write_text(yaml.safe_dump(overlay))
    proc = subprocess.run(
        [SNAKEMAKE, "-n", "--nolock", "--configfile", TEST_CONFIG, str(over), "--config", f"data_mirror={MIRROR}",
         f"results_dir={tmp_path / 'results'}", f"resources_dir={tmp_path / 'resources'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and re.search(expected, out), out[-3000:]
    assert not (tmp_path / "results").exists()


# ---------------------------------------------------------------- ε too small for the exact samplers
@pytest.mark.parametrize("text, key", [
    ("sweeps:\n  paperAbetaR:\n    eps: [1.0e-300, 0.5]\n", "sweeps.paperAbetaR.eps[0]"),
    ("paper_a:\n  eps_grid: [1.0e-12, 1.0]\n", "paper_a.eps_grid[0]"),
    ("paper_b:\n  scenario2:\n    eps: [1.0e-12]\n", "paper_b.scenario2.eps[0]"),
    ("privacy:\n  eps: [1.0e-12]\n", "privacy.eps[0]"),
])
def test_eps_below_what_the_exact_samplers_take_is_rejected_naming_the_key(tmp_path, text, key):
    # a sweep at eps 1e-300 passed the check, then its counts job overflowed int64 and its chunk job found the
    # discrete Laplace rate below 2^-50
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and "is less than the minimum of 1e-09" in msg, msg


def test_recommended_cap_for_a_tiny_eps_is_a_cap_the_counting_kernels_take():
    import numpy as np

    from privanomaly import sp
    from privanomaly.sp.mdd import NO_CAP

    assert sp.recommended_cap(5, 1.0) == 5 + 46  # ceil(ln(64 * 2^60)) = ceil(66 ln 2) = 46
    for eps in (1e-300, 5e-324):
        cap = sp.recommended_cap(5, eps)
        assert cap == NO_CAP
        counts = sp.ball_counts(np.arange(8.0).reshape(4, 2), 1.5, cap=cap)  # was OverflowError at np.int64(cap)
        assert list(counts) == [1, 1, 1, 1]


# ---------------------------------------------------------------- sweep options of the other kind, unknown conventions
def _sweep(**extra) -> dict:
    base = {"kind": "paper_b", "datasets": ["synthetic_b1"], "k": [3], "r": {"fraction": [0.1]}, "eps": [0.5],
            "methods": ["fast"]}
    return {**base, **extra}


@pytest.mark.parametrize("entry, message", [
    (_sweep(conventions=["printed", "nosuch"]), r"sweeps\.my\.conventions: unknown \['nosuch'\]; known: printed"),
    (_sweep(mechanisms=["sp"]), r"sweeps\.my\.mechanisms: \['sp'\] are not paper-B count mechanisms .*"
                                r"gaussian_gs_upper"),
    (_sweep(n_absent=10), r"sweeps\.my\.n_absent: an option of paper_a sweeps only"),
    (_sweep(kind="paper_a", mechanisms=["sp"], beta=[5], methods=["fast"]),
     r"sweeps\.my\.methods: an option of paper_b sweeps only, and this sweep is kind paper_a"),
    (_sweep(kind="paper_a", mechanisms=["sp"], beta=[5], methods=None, h=[1]),
     r"sweeps\.my\.h: an option of paper_b sweeps only"),
])
def test_sweep_option_that_would_be_ignored_or_fail_in_a_job_is_an_error(entry, message):
    from privanomaly.sweeps.spec import parse

    with pytest.raises(ValueError, match=message):
        parse("my", entry)


def test_sweep_option_of_the_other_kind_set_to_null_is_fine():
    from privanomaly.sweeps.spec import parse

    sw = parse("my", _sweep(kind="paper_a", mechanisms=["sp"], beta=[5], methods=None, delta=None))
    assert sw.kind == "paper_a" and sw.mechanisms == ("sp",)


# ---------------------------------------------------------------- dataset entries
def test_unknown_text_encoding_is_a_dag_time_error_naming_the_key():
    from privanomaly.datasets import DataError
    from privanomaly.datasets.validation import check_dataset_entry

    entry = {"files": [{"path": "d.csv"}], "format": "csv", "label": {"column": "y", "anomaly_values": [1]},
             "read": {"encoding": "nosuch-enc"}}
    with pytest.raises(DataError, match=r"datasets\.mine\.read\.encoding: unknown text encoding 'nosuch-enc'"):
        check_dataset_entry("mine", entry)  # was a LookupError inside prepare, naming no key
    entry["read"]["encoding"] = "latin-1"
    check_dataset_entry("mine", entry)


@pytest.mark.parametrize("text, key, words", [
    # an empty keep list meant "keep every column", the opposite of what it says
    ("datasets:\n  thyroid:\n    preprocess: {keep_columns: []}\n", "datasets.thyroid.preprocess.keep_columns",
     "should be non-empty"),
    # a negative index picked a column from the end
    ("datasets:\n  ionosphere_b:\n    label: {column: -1}\n", "datasets.ionosphere_b.label.column",
     "less than the minimum of 0"),
    # each of these passed the check and then failed the prepare job with pandas' bare ValueError (names, sep,
    # comment) or an AttributeError (a column kept twice), or read something else than the file (an empty member)
    ("datasets:\n  ionosphere:\n    read: {names: [a, b, a]}\n", "datasets.ionosphere.read.names", "non-unique"),
    ("datasets:\n  thyroid:\n    preprocess: {keep_columns: [x0, x1, x0]}\n",
     "datasets.thyroid.preprocess.keep_columns", "non-unique"),
    ("datasets:\n  adult:\n    preprocess: {drop_columns: [fnlwgt, fnlwgt]}\n", "datasets.adult.preprocess.drop_columns",
     "non-unique"),
    ("datasets:\n  ionosphere:\n    read: {sep: ''}\n", "datasets.ionosphere.read.sep", "should be non-empty"),
    ("datasets:\n  ionosphere:\n    read: {comment: '//'}\n", "datasets.ionosphere.read.comment", "is too long"),
    ("datasets:\n  ionosphere:\n    read: {comment: ''}\n", "datasets.ionosphere.read.comment", "should be non-empty"),
    ("datasets:\n  aps:\n    read: {member: ''}\n", "datasets.aps.read.member", "should be non-empty"),
    ("datasets:\n  thyroid:\n    read: {features_key: ''}\n", "datasets.thyroid.read.features_key",
     "should be non-empty"),
    ("datasets:\n  thyroid:\n    label: {column: ''}\n", "datasets.thyroid.label.column", "should be non-empty"),
])
def test_dataset_entry_fault_is_rejected_naming_the_key(tmp_path, text, key, words):
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and words in msg, msg


# ---------------------------------------------------------------- sizes and names a job failed on
def test_absent_points_of_a_sweep_are_bounded(tmp_path):
    # n_absent: 10**12 passed the check, then the counts job allocated a 10**12-row array
    msg = _error(tmp_path, "sweeps:\n  paperAbetaR:\n    n_absent: 1000000000000\n")
    assert "config key sweeps.paperAbetaR.n_absent (" in msg and "greater than the maximum of 1000000" in msg, msg


def test_more_mixture_components_than_points_is_a_dag_time_error():
    from privanomaly.datasets import DataError
    from privanomaly.datasets.validation import check_dataset_entry

    gen = {"name": "gaussian_mixture", "dim": 2, "n_components": 100000, "n_normal": 300, "n_anomaly": 10,
           "mean_low": -5.0, "mean_high": 5.0}
    with pytest.raises(DataError, match=r"datasets\.mix\.generator\.n_components: 100000 components for "
                                        r"n_normal = 300 points"):
        check_dataset_entry("mix", {"generator": gen})
    check_dataset_entry("mix", {"generator": {**gen, "n_components": 3}})


def test_subspace_dim_beyond_the_data_names_the_key():
    import numpy as np

    from privanomaly.paper_b import scenario2

    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.array([1] * 2 + [0] * 18)
    with pytest.raises(ValueError, match=r"config paper_b\.scenario2\.subspace_dim: 5 is not in \[1, 3\]"):
        scenario2.subspace_table(X, y, 2, 1.0, 5, "labelled_outlier", 1)  # was "subspace size must be in ..."


def test_misspelt_pyod_argument_names_the_key():
    import numpy as np

    pytest.importorskip("pyod")
    from privanomaly.paper_a import detection

    rng = np.random.default_rng(0)
    rec = pd.DataFrame({"label": [0] * 40 + [1] * 2, "anomaly": [False] * 40 + [True] * 2})
    X = rng.normal(size=(42, 2))
    with pytest.raises(ValueError, match=r"config paper_a\.pyod\.KNN: .*n_neighbours"):
        detection.pyod_rows(X, rec, {"KNN": {"n_neighbours": 5}}, 1)


# ---------------------------------------------------------------- a misspelt gallery figure
def test_gallery_entry_that_is_no_figure_of_the_workflow_is_an_error():
    from privanomaly.report import catalogue, gallery

    items = catalogue.load(ROOT / "workflow" / "report" / "catalogue.yaml")
    patterns = [f for it in items for f in it.files if f.endswith(".png")] + ["sweeps/{sweep}/figures/{figure}.png"]
    shipped = merged_config([str(ROOT / "config.yaml")])["report"]["gallery"]
    gallery.check_known(shipped, patterns)
    gallery.check_known(["paper_b/figures/scenario1_mine_fast.png", "sweeps/myR/figures/gain.png"], patterns)
    with pytest.raises(ValueError, match=r"config report\.gallery\[1\]: 'paper_a/figures/error_vs_esp\.png' is no "
                                         r"figure of this workflow \(nearest: paper_a/figures/error_vs_eps\.png"):
        gallery.check_known([shipped[0], "paper_a/figures/error_vs_esp.png"], patterns)  # was skipped silently


# ---------------------------------------------------------------- directories that are files
def test_results_or_resources_dir_that_is_a_file_is_named(tmp_path):
    from privanomaly.datasets import DataError
    from privanomaly.datasets.plan import DataPlan

    (tmp_path / "afile").write_text("x")
    config = {"datasets": {}, "results_dir": str(tmp_path / "res"), "resources_dir": str(tmp_path / "afile")}
    with pytest.raises(DataError, match=r"resources_dir: '.*afile' is a file, not a directory"):
        DataPlan(config)  # was NotADirectoryError in the first job
    config.update(results_dir=str(tmp_path / "afile" / "results"), resources_dir=str(tmp_path / "r"))
    with pytest.raises(DataError, match=r"results_dir: '.*afile/results' is below the file '.*afile', not a dir"):
        DataPlan(config)
    config.update(results_dir=str(tmp_path / "new" / "results"))
    assert DataPlan(config).results == str(tmp_path / "new" / "results")  # not there yet: fine


def test_data_mirror_that_is_a_file_says_so(tmp_path):
    from privanomaly.datasets import DataError
    from privanomaly.datasets.sources import check_mirror_dir

    (tmp_path / "MANIFEST.md").write_text("x")
    with pytest.raises(DataError, match=r"data_mirror: directory '.*MANIFEST\.md' is not a directory \(it is a "
                                        r"file\)"):
        check_mirror_dir(tmp_path / "MANIFEST.md")  # said "does not exist"


# ---------------------------------------------------------------- the claim sweep measures with the tables' metric
def test_claim_sweep_follows_paper_a_metric(tmp_path):
    # with paper_a.metric: manhattan the claims A3, A6, A8 were read off a Euclidean sweep, silently
    over = tmp_path / "overlay.yaml"
    over.write_text("paper_a:\n  metric: manhattan\n")
    files = [str(ROOT / "config.yaml"), TEST_CONFIG, str(over)]
    config = check_config(merged_config(files), SCHEMA, files)
    assert config["sweeps"]["paperAbetaR"]["metric"] == "manhattan"
    assert configmerge.resolve(copy.deepcopy(config)) == []  # idempotent: a recorded config stays as it is
    default = check_config(merged_config(files[:2]), SCHEMA, files[:2])
    assert "metric" not in default["sweeps"]["paperAbetaR"]  # the default run's configuration is unchanged
    msg = _error(tmp_path, "paper_a:\n  metric: manhattan\nsweeps:\n  paperAbetaR:\n    metric: euclidean\n")
    assert "config key sweeps.paperAbetaR.metric: 'euclidean' differs from paper_a.metric 'manhattan'" in msg, msg


# ---------------------------------------------------------------- a small dataset of your own under the default grids
def test_selection_leaves_out_betas_a_small_dataset_cannot_have():
    # 50 records (paper B's Adult 1 added to paper A) and the default betas up to 50: paper_a_select failed with
    # "largest β=50 needs at least 51 records"; β = 50 is no candidate there, the rest are
    import numpy as np

    from privanomaly.paper_a import selection

    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(45, 3)), rng.normal(8.0, 1.0, size=(5, 3))])
    y = np.array([0] * 45 + [1] * 5)
    surface = selection.selection_surface(X, y, [1, 5, 30, 49, 50], [0.1])
    assert sorted(set(surface["beta"])) == [1, 5, 30, 49]
    with pytest.raises(ValueError, match=r"every β of \[50, 60\] needs at least β\+1 records, the dataset has 50"):
        selection.selection_surface(X, y, [50, 60], [0.1])


def test_growth_curve_skips_sizes_too_small_for_beta():
    import numpy as np

    from privanomaly.paper_a import growth

    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(45, 2)), rng.normal(8.0, 1.0, size=(5, 2))])
    y = np.array([0] * 45 + [1] * 5)
    df = growth.growth_curve(X, y, 10, 0.1, [0.125, 0.25, 0.5, 1.0], np.random.default_rng(2), 1.0, 1, None)
    assert df["size_fraction"].tolist() == [0.25, 0.5, 1.0]  # 0.125 of 50 = 6 records <= β+1: no row
    assert df["n_records"].tolist() == [12, 25, 50]
    with pytest.raises(ValueError, match=r"paper_a\.growth\.sizes"):
        growth.growth_curve(X, y, 10, 0.1, [0.1, 0.2], np.random.default_rng(2), 1.0, 1, None)


def test_a_directory_under_home_is_expanded(tmp_path):
    # `results_dir: ~/privanomaly-results` wrote into a directory literally named "~" inside the checkout, and a
    # `data_mirror: ~/datasets` that exists was reported as missing
    import os

    over = tmp_path / "overlay.yaml"
    over.write_text("results_dir: ~/pa-results\ndata_mirror: ~/datasets\n")
    files = [str(ROOT / "config.yaml"), str(over)]
    config = check_config(merged_config(files), SCHEMA, files)
    assert config["results_dir"] == os.path.expanduser("~/pa-results") and not config["results_dir"].startswith("~")
    assert config["data_mirror"] == os.path.expanduser("~/datasets")
    assert check_config(merged_config([files[0]]), SCHEMA, [files[0]])["results_dir"] == "results"


@pytest.mark.parametrize("text, key", [
    ("paper_b:\n  scenario1:\n    eps: [0.3, 1000.0]\n", "paper_b.scenario1.eps[1]"),
    ("sweeps:\n  paperBkR:\n    eps: [0.5, 1000.0]\n", "sweeps.paperBkR.eps[1]"),
])
def test_eps_past_what_float64_can_exponentiate_is_rejected_naming_the_key(tmp_path, text, key):
    # eps = 1000 passed the check; every paper_b_scenario1 job (and the paper-B sweep's) then failed with a bare
    # "OverflowError: math range error" in the exact delta of Theorem 2 (e^eps); 700 runs (tested by hand)
    msg = _error(tmp_path, text)
    assert f"config key {key} (" in msg and "1000.0 is greater than the maximum of 700" in msg, msg
    _ok = text.replace("1000.0", "700.0")
    over = tmp_path / "ok.yaml"
    over.write_text(_ok)
    files = [str(ROOT / "config.yaml"), TEST_CONFIG, str(over)]
    check_config(merged_config(files), SCHEMA, files)
