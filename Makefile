# `make run` and `make test` each create .venv when missing and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench bench-server golden clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "hupai needs Python 3.11 or newer (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[cli,server,dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/hupai serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[bench]"
	$(BIN)/python bench/hand.py
	$(BIN)/python bench/selfplay.py

# The server under 250 tables of network players (about two minutes); see bench/server_load.py.
bench-server: $(STAMP)
	$(BIN)/python bench/server_load.py

# Regenerate the golden hand files (fixed seed; cross-checked against the `mahjong` package).
golden: $(STAMP)
	$(BIN)/python tools/make_golden_hands.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
