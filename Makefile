# The two commands of README.md: `make serve` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
CATALOG ?= catalog.sqlite
# Extra arguments for pytest, e.g. `make test PYTEST_ARGS="-k search -x"`.
PYTEST_ARGS ?=

# What the catalog is built from: after a pull that changes any of them, `make serve` builds it again.
CATALOG_SOURCES := schema.sql pyproject.toml $(shell find tools -name '*.py' -o -name '*.json')

.PHONY: serve test catalog install install-test lint

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The test tools (pytest, schemathesis, Playwright, ruff) on top of what serving needs.
$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Built when missing or older than what it is built from; the builder renames a finished file into place.
$(CATALOG): $(CATALOG_SOURCES) | $(VENV)/.installed
	$(BIN)/python -m tools.build_catalog --out $(CATALOG)

catalog: $(VENV)/.installed
	$(BIN)/python -m tools.build_catalog --out $(CATALOG)

# gunicorn as deployed (deploy/gunicorn.conf.py), for local use: on a network, nginx must front it.
serve: $(VENV)/.installed $(CATALOG)
	KAOMOJI_CATALOG=$(CATALOG) KAOMOJI_BIND=$(HOST):$(PORT) $(BIN)/gunicorn --config deploy/gunicorn.conf.py wsgi:app

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)
