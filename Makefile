# The README's two commands: `make reproduce` and `make test`. Each creates .venv from pyproject.toml pins.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 8
# Local copy of the public datasets (see ../shared/datasets/MANIFEST.md). Used when the directory exists;
# otherwise every file is downloaded from its canonical URL and checked against its sha256.
DATA_MIRROR ?= $(wildcard ../shared/datasets)
MIRROR_ARG := $(if $(DATA_MIRROR),--config data_mirror=$(abspath $(DATA_MIRROR)),)

.PHONY: install reproduce test report bench audit

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

install: $(BIN)/.installed

# A run killed with SIGKILL leaves Snakemake's lock behind. When no Snakemake of a .venv is running on this
# machine, that lock is stale: remove it so that rerunning the same command just continues the run.
UNLOCK_IF_IDLE := if ! pgrep -f '[.]venv/bin/snakemake' >/dev/null; then $(BIN)/snake''make --unlock >/dev/null 2>&1 || true; fi
LOCK_HINT := echo "privanomaly: if snakemake said the directory is locked (a run was killed), run '$(BIN)/snakemake --unlock' once and repeat; see docs/troubleshooting.md" >&2; exit 1

reproduce: install
	@$(UNLOCK_IF_IDLE)
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(MIRROR_ARG) || { $(LOCK_HINT); }
	$(BIN)/snakemake --cores $(CORES) $(MIRROR_ARG) --report results/report.html
	@echo "Results: $(CURDIR)/results   Report: $(CURDIR)/results/report.html"

test: install
	$(BIN)/python -m pytest
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check .
	@$(UNLOCK_IF_IDLE)
	$(BIN)/snakemake --cores 2 --rerun-incomplete --configfile .test/config.yaml \
		--config data_mirror=$(abspath ../shared/datasets) || { $(LOCK_HINT); }

bench: install
	$(BIN)/python benchmarks/run_all.py

report: install
	$(BIN)/snakemake --cores 1 $(MIRROR_ARG) --report results/report.html

# The full privacy audit (issue 12): every registered mechanism and negative control through the harness;
# writes results/audit/privacy_audit.{csv,md}. Its fast subset runs inside `make test` (tests/test_audit_*).
audit: install
	$(BIN)/python -m privanomaly.audit --level full --out results/audit
