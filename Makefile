# Veillée — the two commands of the README, plus checks and benchmarks.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check bench install

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	@echo "Veillée at http://$(HOST):$(PORT)  (data in ./data, Ctrl-C to stop)"
	$(BIN)/veillee serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	@test -x "$${VEILLEE_CHROMIUM:-/usr/bin/chromium}" || { \
	  echo "Chromium is needed for the browser tests: apt-get install -y chromium"; exit 1; }
	$(BIN)/python -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)

check: $(STAMP)
	$(BIN)/ruff check veillee tests bench
	$(BIN)/ruff format --check veillee tests bench
	$(BIN)/mypy

# Every figure is printed under the command that measures it (each bench also runs alone).
bench: $(STAMP)
	@for b in bench/*.py; do echo "\$$ $(BIN)/python $$b"; $(BIN)/python $$b || exit 1; echo; done
