# Veillée — the two commands of the README, plus checks and benchmarks.
# Debian's python3 when it is 3.11 or newer: it is built with profile-guided and link-time
# optimization, and the engines and the server run 10–20 % faster on it than on a plain build of
# the same version (bench/RESULTS.md). Any other: make install PY=python3.12 (in a new .venv).
DEBIAN_PY := $(shell /usr/bin/python3 -c 'import sys; print(sys.version_info >= (3, 11))' 2>/dev/null)
PY ?= $(if $(filter True,$(DEBIAN_PY)),/usr/bin/python3,python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
CHROMIUM ?= $(or $(VEILLEE_CHROMIUM),/usr/bin/chromium)

.PHONY: run test check bench install chromium python-venv screenshots

# $(call need,WHAT,CHECK,PACKAGES): when the shell command CHECK fails, install the Debian
# PACKAGES with apt-get if we run as root; otherwise say the one command to run, and stop.
define need
@if ! $(2); then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "$(1) is missing: installing Debian's $(3) with apt-get"; \
    export DEBIAN_FRONTEND=noninteractive; \
    apt-get update -qq && apt-get install -y -qq $(3) >/dev/null || exit 1; \
    $(2) || { echo "$(1) is still missing after installing $(3)"; exit 1; }; \
  else \
    echo "$(1) is missing. Install it with:"; \
    echo "  sudo apt-get install -y $(3)"; \
    exit 1; \
  fi; \
fi
endef

python-venv:
	$(call need,Python's venv module,$(PY) -c 'import ensurepip; import venv' 2>/dev/null,python3-venv)

# The browser tests drive Debian's Chromium ($VEILLEE_CHROMIUM to use another).
chromium:
	$(call need,Chromium (for the browser tests),test -x "$(CHROMIUM)",chromium)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(MAKE) -s python-venv
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	@echo "Veillée at http://$(HOST):$(PORT)  (data in ./data, Ctrl-C to stop)"
	$(BIN)/veillee serve --host $(HOST) --port $(PORT)

test: $(STAMP) chromium
	VEILLEE_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)

check: $(STAMP)
	$(BIN)/ruff check veillee tests bench
	$(BIN)/ruff format --check veillee tests bench
	$(BIN)/mypy

# Every figure is printed under the command that measures it (each bench also runs alone; the
# live ones in their short mode here, see bench/RESULTS.md). bench/_*.py are their helpers.
bench: $(STAMP)
	@for b in $(filter-out bench/_%,$(wildcard bench/*.py)); do echo "\$$ $(BIN)/python $$b"; $(BIN)/python $$b || exit 1; echo; done

# The README's pictures (docs/screens/*.png), from the browser tests' fixtures.
screenshots: $(STAMP) chromium
	VEILLEE_CHROMIUM="$(CHROMIUM)" $(BIN)/python scripts/screenshots.py
