# Two commands on a fresh machine with Python 3.11+: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-from-lock
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest runs each module's tests in a random order and prints its seed in the header
# ("Using --random-order-seed=N"); replay an order with make test PYTEST_ARGS=--random-order-seed=N
RANDOM_ORDER := -p random_order --random-order-bucket=module
PYTEST_ARGS ?=

# The rules engine compiled with mypyc (build_engine.py; README, "The compiled rules engine"), into
# build/engine/. Optional: make install tries it once per change of rules/ and, failing, says so in
# one line and leaves the pure-Python engine running. GINMESA_RULES=pure runs the pure one anyway.
ENGINE := build/engine/rules/MANIFEST
ENGINE_TRIED := build/engine.tried
ENGINE_SOURCES := build_engine.py $(wildcard rules/*.py)

.PHONY: install engine engine-clean run test test-fast lint format check-python

check-python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Ginmesa needs Python 3.11 or newer")'

$(STAMP): requirements.lock | check-python
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@touch $(STAMP)

$(ENGINE): $(STAMP) $(ENGINE_SOURCES)
	@mkdir -p build
	@echo "Compiling the rules engine with mypyc (about a minute; log in build/engine.log)"
	@$(BIN)/python build_engine.py >build/engine.log 2>&1 || { tail -n 20 build/engine.log >&2; exit 1; }

engine: $(ENGINE)

engine-clean:
	rm -rf build/engine build/engine-c $(ENGINE_TRIED)

$(ENGINE_TRIED): $(STAMP) $(ENGINE_SOURCES)
	@$(MAKE) --no-print-directory engine 2>/dev/null || \
		echo "The compiled rules engine did not build (make engine says why): the pure-Python engine runs."
	@touch $@

install: $(STAMP) $(ENGINE_TRIED)

run: install
	$(BIN)/python manage.py migrate --noinput
	@echo ""
	@echo "Ginmesa: open http://$(HOST):$(PORT)/ (another port or address: make run PORT=8080 HOST=...)"
	@echo "Sign-up confirmation emails are printed in this console (unless EMAIL_BACKEND is set)."
	@echo "Staff pages (/admin/): create an account with $(BIN)/python manage.py createsuperuser"
	@echo ""
	SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The whole suite on the engine make install built (compiled when it could), then, when that was
# the compiled one, the engine's and the bots' tests again on the pure-Python engine (about 4 minutes).
test: lint
	@if [ -f $(ENGINE) ]; then build=compiled; else build=pure; fi; \
	echo "The whole suite on the $$build rules engine"; \
	GINMESA_RULES=$$build $(BIN)/python -m pytest $(RANDOM_ORDER) $(PYTEST_ARGS) || exit 1; \
	if [ $$build = compiled ]; then \
		echo "tests/rules and tests/bots on the pure-Python rules engine"; \
		GINMESA_RULES=pure $(BIN)/python -m pytest $(RANDOM_ORDER) $(PYTEST_ARGS) tests/rules tests/bots; \
	fi

# A developer's minute: no lint, no browser, no faults, no tests marked slow, one process per core
# (pytest-xdist; README, "Tests and CI").
test-fast: install
	$(BIN)/python -m pytest -n auto -m "not browser and not faults and not slow" $(RANDOM_ORDER) $(PYTEST_ARGS)
