# The two commands of README.md: `make serve` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
CATALOG ?= catalog.sqlite

.PHONY: serve test catalog install

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Built only when missing; `make catalog` rebuilds it.
$(CATALOG): | $(VENV)/.installed
	$(BIN)/python -m tools.build_catalog --out $(CATALOG)

catalog: $(VENV)/.installed
	$(BIN)/python -m tools.build_catalog --out $(CATALOG)

# gunicorn as deployed (deploy/gunicorn.conf.py): its workers share the entry-point buckets.
serve: $(VENV)/.installed $(CATALOG)
	KAOMOJI_CATALOG=$(CATALOG) KAOMOJI_BIND=$(HOST):$(PORT) $(BIN)/gunicorn --config deploy/gunicorn.conf.py wsgi:app

test: $(VENV)/.installed
	$(BIN)/python -m pytest $(PYTEST_ARGS)
