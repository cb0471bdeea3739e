# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck pytest bench clean catalogue

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# After installing, the Up Front walks' compiled steps (page 3's, page 6's) are built once into numba's cache
# (src/firefight/rulesets/upfront/__pycache__), so no odds wait for the compiler.
WARM := $(BIN)/python -c 'from firefight.rulesets.upfront.warm import warm; warm()'

# The package is byte-compiled once after installing, so that a command started where Python
# may not write its bytecode (PYTHONDONTWRITEBYTECODE, a read-only checkout) does not
# compile every module it imports on each run.
COMPILE := $(BIN)/python -m compileall -q src/firefight

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(COMPILE)
	$(WARM)
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(COMPILE)
	$(WARM)
	touch $(STAMP) $@

HOST ?= 127.0.0.1
PORT ?= 8000

# The web calculator; `firefight serve` prints the address to open.
run: $(STAMP)
	$(BIN)/firefight serve --host $(HOST) --port $(PORT)

# Debian's chromium and postgresql, installed without questions (tzdata asks one otherwise);
# the tests start their own PostgreSQL in a temporary folder, so a cluster the package's
# install starts (where no policy-rc.d forbids it) is stopped again.
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y

test: $(DEV_STAMP)
	command -v chromium >/dev/null || (apt-get update && $(APT_INSTALL) chromium)
	ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null || \
		(apt-get update && $(APT_INSTALL) postgresql && (service postgresql stop || true))
	$(MAKE) lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# One test process a core (`make pytest TEST_PROCESSES=N` to change it): two a core made the
# suite slower here, its slowest tests computing rather than waiting.
TEST_PROCESSES ?= logical

pytest: $(DEV_STAMP)
	$(BIN)/pytest --numprocesses $(TEST_PROCESSES) --dist loadfile --durations=20

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/procedures.py
	$(BIN)/python benchmarks/board.py
	$(BIN)/python benchmarks/visibility.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/sequences.py
	$(BIN)/python benchmarks/engage.py
	$(BIN)/python benchmarks/sweep.py
	$(BIN)/python benchmarks/upfront.py
	$(BIN)/python benchmarks/infiltration.py
	$(BIN)/python benchmarks/threat.py
	$(BIN)/python benchmarks/move.py
	$(BIN)/python benchmarks/journal.py
	$(BIN)/python benchmarks/startup.py

# Extract every message into src/firefight/locale/messages.pot and update each language's
# messages.po (docs/languages.md); then translate the empty entries.
catalogue: $(STAMP)
	$(BIN)/python -m firefight.cli.catalogue

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
