# The README's two commands: `make reproduce` and `make test`. Each creates .venv from pyproject.toml pins.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 8
# Local copy of the public datasets (see ../shared/datasets/MANIFEST.md). Used when the directory exists;
# otherwise every file is downloaded from its canonical URL and checked against its sha256.
DATA_MIRROR ?= $(wildcard ../shared/datasets)
MIRROR_ARG := $(if $(DATA_MIRROR),--config data_mirror=$(abspath $(DATA_MIRROR)),)

.PHONY: install reproduce test report bench gallery

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

install: $(BIN)/.installed

# One run per directory (privanomaly.runguard): refuse to start while a Snakemake of THIS directory is alive
# (another user's or another checkout's runs do not count); otherwise a lock left by a killed run is stale
# and is removed, so rerunning the same command just continues the run.
UNLOCK_IF_IDLE := $(BIN)/python -m privanomaly.runguard --unlock
LOCK_HINT := echo "privanomaly: if snakemake said the directory is locked (a run was killed), run '$(BIN)/snakemake --unlock' once and repeat; see docs/troubleshooting.md" >&2; exit 1
# Optional overlay: make reproduce CONFIGFILE=my.yaml. Config files are checked first (file:line of a YAML
# error, an empty file, a duplicate key - Snakemake's own message names none of them).
CONFIGFILE ?=
CONFIG_ARG := $(if $(CONFIGFILE),--configfile $(CONFIGFILE),)
CONFIGCHECK := $(BIN)/python -m privanomaly.configcheck

reproduce: install
	@$(UNLOCK_IF_IDLE)
	@$(CONFIGCHECK) $(CONFIG_ARG)
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(CONFIG_ARG) $(MIRROR_ARG) || { $(LOCK_HINT); }
	$(BIN)/snakemake --cores $(CORES) $(CONFIG_ARG) $(MIRROR_ARG) --report results/report.html
	@echo "Results: $(CURDIR)/results   Report: $(CURDIR)/results/report.html"

test: install
	@$(UNLOCK_IF_IDLE)
	@$(CONFIGCHECK) --configfile .test/config.yaml
	$(BIN)/python -m pytest
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check .
	@$(UNLOCK_IF_IDLE)
	$(BIN)/snakemake --cores 2 --rerun-incomplete --configfile .test/config.yaml \
		--config data_mirror=$(abspath ../shared/datasets) || { $(LOCK_HINT); }

bench: install
	$(BIN)/python benchmarks/run_all.py

# The README gallery (docs/gallery, tracked) is refreshed only here, from a run of the default config.yaml
# (no overlay): every run writes its thumbnails to <results_dir>/gallery; this copies results/gallery.
gallery: install
	@$(UNLOCK_IF_IDLE)
	$(BIN)/snakemake --cores $(CORES) --rerun-incomplete $(MIRROR_ARG) || { $(LOCK_HINT); }
	$(BIN)/python -m privanomaly.report.gallery --config config.yaml

report: install
	$(BIN)/snakemake --cores 1 $(MIRROR_ARG) --report results/report.html
