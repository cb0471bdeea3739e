# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $@

HOST ?= 127.0.0.1
PORT ?= 8000

# The web calculator; `firefight serve` prints the address to open.
run: $(STAMP)
	$(BIN)/firefight serve --host $(HOST) --port $(PORT)

test: $(DEV_STAMP)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	$(MAKE) lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

pytest: $(DEV_STAMP)
	$(BIN)/pytest --numprocesses logical --dist loadfile

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/board.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/sequences.py
	$(BIN)/python benchmarks/engage.py
	$(BIN)/python benchmarks/sweep.py
	$(BIN)/python benchmarks/upfront.py
	$(BIN)/python benchmarks/threat.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
