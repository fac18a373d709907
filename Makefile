# Two commands do all the set-up on a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/scarney
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/scarney_bench
PYTEST_ARGS ?=

.PHONY: run test lint format typecheck bench migrate demo worker clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: serve http://$(HOST):$(PORT) on SQLite with eager Celery and the demo club loaded
# Static files are served from the apps as they are (STATIC_FROM_APPS): no collectstatic, whose
# compression of every file took minutes; a deployment collects them (README).
run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py load_demo
	STATIC_FROM_APPS=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

## test: the house's own checks (lint, types: a few seconds), then the whole suite;
## deploy/test-machine first makes the machine ready (packages, services)
test: $(STAMP)
	bash deploy/test-machine
	$(MAKE) lint typecheck
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: $(STAMP)
	$(BIN)/mypy games scoring scarney_site

$(VENV)/.bench-installed: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

## bench: the benchmarks (figures in docs/BENCHMARKS.md), always on their own database
bench: $(VENV)/.bench-installed
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/solve.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/append.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/rebuild.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/http.py

worker: $(STAMP)
	$(BIN)/celery -A scarney_site worker --loglevel=info

clean:
	rm -rf var .pytest_cache .hypothesis
