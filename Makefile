# `make run` and `make test` each create .venv when missing and install what they need.
#
# The hot core runs as pure Python unless compiled: `make compile` (or HUPAI_COMPILE=1 with any target
# below) compiles it ahead of time with mypyc into the checkout, again whenever a core source changes;
# it needs a C compiler and Python's headers. HUPAI_PURE=1 runs the pure source whatever is compiled.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
COMPILE_STAMP := $(VENV)/.compiled-stamp
CORE_SOURCES := $(shell find src/hupai -name '*.py' -not -path '*/server/*')
# The golden data and property tests, which both builds must pass (CI: `make test-pure` after `make test`),
# and the examples in the core's docstrings (collected only from the pure build: see conftest.py).
BOTH_BUILDS := tests/test_native.py tests/test_hand_golden.py tests/test_hand_properties.py \
	tests/test_hand_readings.py tests/test_hand_tables.py tests/test_game_properties.py \
	tests/test_nanjing_records.py tests/test_nanning_records.py tests/test_enshi_records.py \
	tests/test_nanjing_scoring.py tests/test_enshi_scoring.py tests/test_nanjing_play.py \
	tests/test_nanning_play.py tests/test_enshi_play.py tests/test_bots.py tests/test_reading.py \
	tests/test_tiles.py
WITH_COMPILE := $(if $(filter 1,$(HUPAI_COMPILE)),compile)

.PHONY: run test test-pure lint compile bench bench-server golden clean

$(STAMP): pyproject.toml setup.py build_hooks.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "hupai needs Python 3.11 or newer (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	HUPAI_COMPILE=0 $(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[cli,server,dev]'
	@touch $(STAMP)

# mypy (a dev dependency) brings mypyc; setuptools is the build backend's. Without a C compiler or
# Python's headers the build stays pure Python: the line printed last says which core runs.
$(COMPILE_STAMP): $(STAMP) $(CORE_SOURCES) setup.py
	$(BIN)/python -m pip install --quiet --disable-pip-version-check 'setuptools>=77'
	HUPAI_COMPILE=1 $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps \
		--no-build-isolation -e .
	@$(BIN)/python -c 'import hupai; print("hupai core:", hupai.__build__, \
		"" if hupai.__build__ == "compiled" else "(pip install -v -e . with HUPAI_COMPILE=1 says why)")'
	@touch $(COMPILE_STAMP)

compile: $(COMPILE_STAMP)

run: $(STAMP) $(WITH_COMPILE)
	$(BIN)/hupai serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint $(WITH_COMPILE)
	$(BIN)/pytest

test-pure: $(STAMP)
	HUPAI_PURE=1 $(BIN)/pytest $(BOTH_BUILDS) src/hupai --ignore=src/hupai/server

bench: $(STAMP) $(WITH_COMPILE)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[bench]"
	$(BIN)/python bench/hand.py
	$(BIN)/python bench/selfplay.py

# The server under 250 tables of network players (about two minutes); see bench/server_load.py.
bench-server: $(STAMP) $(WITH_COMPILE)
	$(BIN)/python bench/server_load.py

# Regenerate the golden hand files (fixed seed; cross-checked against the `mahjong` package).
golden: $(STAMP)
	$(BIN)/python tools/make_golden_hands.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build
	find src -name '*.so' -delete
	rm -f src/hupai/_compiled.txt
