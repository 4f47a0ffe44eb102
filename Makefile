# The README's two commands: `make reproduce` and `make test`. Each creates .venv from requirements.lock (every
# package pinned with its sha256, from PyPI; `make lock` regenerates it from pyproject.toml).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 8
# Local copy of the public datasets (see ../shared/datasets/MANIFEST.md). Used when the directory exists;
# otherwise every file is downloaded from its canonical URL and checked against its sha256.
DATA_MIRROR ?= $(wildcard ../shared/datasets)
# Quoted, so a path with spaces stays one argument (abspath would split it into words).
MIRROR_ABS = $(if $(word 2,$(DATA_MIRROR)),$(if $(filter /%,$(DATA_MIRROR)),,$(CURDIR)/)$(DATA_MIRROR),$(abspath $(DATA_MIRROR)))
MIRROR_ARG = $(if $(DATA_MIRROR),--config 'data_mirror=$(MIRROR_ABS)',)

# Overlay config of a run (`make reproduce CONFIG=my.yaml`); `make report` needs it only for runs made before
# runs recorded their configuration (results/effective_config.yaml, which --report reads by itself).
CONFIG ?=
# `make reproduce CONFIG="my file.yaml"`: quoted, a path with spaces is one file.
CONFIG_ARG := $(if $(CONFIG),--configfile '$(CONFIG)',)
REPORT ?= results/report.html

.PHONY: install reproduce check test report bench lock gallery scale test-cluster audit

# The environment: a fresh .venv with exactly requirements.lock, from PyPI only, every file checked against the
# sha256 PyPI published. uv installs it (parallel downloads: ~10x faster than pip); uv itself comes from
# requirements-bootstrap.lock through pip (--isolated: no local index or find-links of this machine's pip
# configuration). Then the project itself: editable, no dependencies, built with the locked setuptools.
# --compile-bytecode (pip's default): otherwise every job recompiles numpy & co. where PYTHONDONTWRITEBYTECODE is set.
PYPI ?= https://pypi.org/simple
LOCK := requirements.lock
BOOTSTRAP_LOCK := requirements-bootstrap.lock
PIP_LOCKED := $(BIN)/python -m pip install --quiet --isolated --disable-pip-version-check --index-url $(PYPI)
UV_LOCKED := $(BIN)/uv pip install --quiet --no-config --python $(BIN)/python --compile-bytecode

# A .venv that is a link (to another checkout's environment) is never rebuilt: `venv --clear` through the link would
# wipe the environment it points to. make uses it while it is current, and stops when it would rebuild it.
$(BIN)/.installed: $(LOCK) $(BOOTSTRAP_LOCK)
	@if [ -L '$(VENV)' ]; then echo "make: $(VENV) is a link (to $$(readlink '$(VENV)')) and needs rebuilding for $(LOCK): refusing to run 'venv --clear' through it, which would wipe the environment it points to. Remove the link (rm $(VENV)) and run make again to create this checkout's own $(VENV)." >&2; exit 1; fi
	$(PYTHON) -m venv --clear $(VENV)
	$(PIP_LOCKED) --require-hashes --no-deps -r $(BOOTSTRAP_LOCK)
	$(UV_LOCKED) --index-url $(PYPI) --require-hashes --no-deps -r $(LOCK)
	$(UV_LOCKED) --no-index --no-deps --no-build-isolation -e .
	touch $@

# The project's own modules as bytecode, like every installed package (--compile-bytecode covers the locked
# packages, not the editable source). Where PYTHONDONTWRITEBYTECODE is set Python never writes it, and every job
# would compile each library module it imports again (~0.07 s CPU per job). Run by every target that installs:
# only modules changed since compile again.
install: $(BIN)/.installed
	@$(BIN)/python -m compileall -q src/privanomaly

# Regenerate requirements.lock (universal: every platform, Python >= 3.11; hashes of every PyPI file), the
# conda env file from the same pins, and requirements-bootstrap.lock (uv, which installs the lock), with uv
# from PyPI in its own venv (.venv-lock). Run after editing pyproject.toml or UV_VERSION; commit the three.
UV_VERSION := 0.13.9
LOCK_VENV := .venv-lock
UV_COMPILE := $(LOCK_VENV)/bin/uv pip compile --no-config --quiet --index-url $(PYPI) --universal --python-version 3.11

lock:
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --isolated --index-url $(PYPI) uv==$(UV_VERSION)
	$(PYTHON) -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))' > $(LOCK_VENV)/build.in
	$(UV_COMPILE) --generate-hashes --extra test --custom-compile-command "make lock" pyproject.toml $(LOCK_VENV)/build.in -o $(LOCK)
	PYTHONPATH=src $(PYTHON) -m privanomaly.run.envlock runtime pyproject.toml > $(LOCK_VENV)/runtime.in
	$(UV_COMPILE) --no-header --no-annotate -c $(LOCK) $(LOCK_VENV)/runtime.in -o $(LOCK_VENV)/runtime.txt
	PYTHONPATH=src $(PYTHON) -m privanomaly.run.envlock conda $(LOCK_VENV)/runtime.txt > envs/privanomaly.yaml
	echo "uv==$(UV_VERSION)" > $(LOCK_VENV)/bootstrap.in
	$(UV_COMPILE) --generate-hashes --custom-compile-command "make lock" $(LOCK_VENV)/bootstrap.in -o $(BOOTSTRAP_LOCK)
	@echo "Wrote $(LOCK), $(BOOTSTRAP_LOCK) and envs/privanomaly.yaml; commit them."

# One run per directory (privanomaly.run.guard): refuse to start while a Snakemake of THIS directory is alive
# (another user's or another checkout's runs do not count); otherwise a lock left by a killed run is stale
# and is removed, so rerunning the same command just continues the run.
UNLOCK_IF_IDLE := $(BIN)/python -m privanomaly.run.guard --unlock
LOCK_HINT := echo "privanomaly: if snakemake said the directory is locked (a run was killed), run '$(BIN)/snakemake --unlock' once and repeat; see docs/troubleshooting.md" >&2; exit 1
# Config files are checked first (file:line of a YAML error, an empty file, a duplicate key - Snakemake's own
# message names none of them), then the plan's cross-key checks (eps_ref in eps_grid, dataset names, the sweep
# size cap): privanomaly.preflight (privanomaly.config.check + the checks common.smk runs at DAG time).
CONFIGCHECK := $(BIN)/python -m privanomaly.preflight

reproduce: install
	@$(UNLOCK_IF_IDLE)
	@$(CONFIGCHECK) $(CONFIG_ARG)
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(CONFIG_ARG) $(MIRROR_ARG) || { $(LOCK_HINT); }
	$(BIN)/snakemake --cores 1 $(CONFIG_ARG) $(MIRROR_ARG) --report '$(REPORT)'
	@echo 'Results: $(CURDIR)/results   Report: $(CURDIR)/$(REPORT)'

# The tests find the mirror through PRIVANOMALY_MIRROR (tests/workflow_copy.py; without one they skip what needs it).
# PYTHONDONTWRITEBYTECODE emptied: pytest keeps its assertion-rewritten test modules in tests/__pycache__, where that
# variable is set otherwise every pytest process (two per stage under xdist) rewrites all test files again, ~5 s CPU.
PYTEST = PRIVANOMALY_MIRROR='$(MIRROR_ABS)' PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest
# Markers (pyproject.toml): `subprocess` starts a process or loads the workflow (seconds), `slow` runs workflow jobs
# in a copy of the checkout (minutes); an unmarked test that starts a process fails (tests/process_guard.py).
FAST := not slow and not subprocess
# pytest-xdist: TEST_WORKERS processes; a unit of work is a test file (its module fixtures are made once), the files
# that read one shared run together, the units that run workflow jobs first (tests/conftest.py).
TEST_WORKERS ?= 2
XDIST = -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The daily loop (about a minute): the unit tests that start no process, the workflow's lint and format, and a
# dry run of the whole .test DAG (the config check and every DAG-time check, no job).
check: install
	@$(CONFIGCHECK) --configfile .test/config.yaml
	$(PYTEST) $(XDIST) -m "$(FAST)"
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check .
	$(BIN)/snakemake --dry-run --quiet --configfile .test/config.yaml $(MIRROR_ARG)

# The README's test command (and CI's, .ci/run): the fast stage first, then the tests that start processes or run
# the workflow in copies. Among them the whole .test DAG (--cores 2), run once in a copy (tests/test_dag_run.py),
# whose finished run the tests of reruns, downloads, an added mechanism and an added dataset clone.
test: check
	@$(UNLOCK_IF_IDLE)
	$(PYTEST) $(XDIST) -m "slow or subprocess"

bench: install
	$(BIN)/python benchmarks/run_all.py

# The README gallery (docs/gallery, tracked) is refreshed only here, from a run of the default config.yaml
# (no overlay): every run writes its thumbnails to <results_dir>/gallery; this copies results/gallery.
gallery: install
	@$(UNLOCK_IF_IDLE)
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(MIRROR_ARG) || { $(LOCK_HINT); }
	$(BIN)/python -m privanomaly.report.gallery --config config.yaml

# The report of the run in results/ (REPORT's directory): --report reads the configuration that run recorded
# (results/effective_config.yaml); CONFIG matters only for results written before runs recorded it.
# After an incomplete run (killed, or a job failed) it lists the missing outputs, says how to finish the run and
# builds the report of what exists (privanomaly.report.partial); otherwise it is `snakemake --report`.
PARTIAL_REPORT = $(BIN)/python -m privanomaly.report.partial --snakemake $(BIN)/snakemake --report '$(REPORT)' \
	--finish "make reproduce" --

report: install
	$(PARTIAL_REPORT) $(CONFIG_ARG) $(MIRROR_ARG)

# The full privacy audit: every registered mechanism and negative control through the harness;
# writes results/audit/privacy_audit.{csv,md}. Its fast subset runs inside `make test` (tests/test_audit_*).
audit: install
	$(BIN)/python -m privanomaly.audit --level full --out results/audit

# ---- Scale run ----------------------------------------------------------------------------------
# The whole of paper A with all five datasets at their real size; credit card and APS are generated STAND-INS of
# the real format (privanomaly.datasets.standins), never real data, labelled "stand-in data" everywhere. Overlay
# .scale/config.yaml: everything lands in .scale/ (results, raw cache, stand-in mirror). Step 1 builds the
# stand-in mirror (generated files + links to DATA_MIRROR's real files), step 2 runs the pipeline from it;
# .scale/results/run_time.md = wall time, CPU time and peak RSS per rule (run_time.json: the run's record for
# `make bench`). Targets: `make scale CORES=2`.
SCALE_ARG := --configfile .scale/config.yaml

scale: install
	@test -n "$(DATA_MIRROR)" || { echo "make scale: set DATA_MIRROR to the offline copy of the real datasets (thyroid, mammography)" >&2; exit 1; }
	@$(UNLOCK_IF_IDLE)
	@$(CONFIGCHECK) $(SCALE_ARG)
	mkdir -p .scale/resources/standin_mirror
	$(BIN)/snakemake --cores $(CORES) $(SCALE_ARG) $(MIRROR_ARG) -- standin_mirror || { $(LOCK_HINT); }
	start=$$(date +%s); load=$$(cut -d' ' -f1-3 /proc/loadavg); \
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(SCALE_ARG) -- scale_all || { $(LOCK_HINT); }; \
	$(BIN)/python benchmarks/scale_report.py .scale/results --out .scale/results/run_time.md \
		--csv .scale/results/run_time_jobs.csv --json .scale/results/run_time.json \
		--wall-seconds $$(( $$(date +%s) - start )) --load-start $$load \
		--title "make scale CORES=$(CORES): run time and memory per rule (stand-in data for creditcard and aps)"

# A real single-node SLURM cluster (as root; installs slurm-wlm, slurmdbd, munge, mariadb-server from Debian):
# the .test DAG through --profile profiles/slurm, proven with sacct, tables byte-compared with a local run.
# Not part of `make test` (it takes longer than the 5 minutes allowed there): see docs/guide.md "Run on a cluster".
test-cluster: install
	BIN=$(abspath $(BIN)) DATA_MIRROR='$(MIRROR_ABS)' tools/test_cluster.sh
