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

.PHONY: install run test test-fast lint format check-python

check-python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Ginmesa needs Python 3.11 or newer")'

$(STAMP): requirements.lock | check-python
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@touch $(STAMP)

install: $(STAMP)

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

test: lint
	$(BIN)/python -m pytest $(RANDOM_ORDER) $(PYTEST_ARGS)

# A developer's minute: no lint, no browser, no faults, no tests marked slow, one process per core
# (pytest-xdist; README, "Tests and CI").
test-fast: install
	$(BIN)/python -m pytest -n auto -m "not browser and not faults and not slow" $(RANDOM_ORDER) $(PYTEST_ARGS)
