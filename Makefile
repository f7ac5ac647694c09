# `make run` and `make test` each create .venv when missing and install what they need.
#
# The hot core runs as pure Python unless compiled: `make compile` (or HUPAI_COMPILE=1 with any target
# below) compiles it ahead of time with mypyc into the checkout, again whenever a core source changes;
# it needs a C compiler and Python's headers. `make test` compiles it first unless HUPAI_COMPILE=0
# (where it cannot, it says why and tests the pure core). HUPAI_PURE=1 runs the pure source whatever is
# compiled.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every dependency comes from uv.lock (hashes included), installed by uv, itself pinned with hashes in
# requirements/uv.txt and kept in .venv/uv, beside the environment it syncs exactly to the lock.
UV_HOME := $(VENV)/uv
UV := UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON=$(BIN)/python $(UV_HOME)/bin/uv
# The extras every checkout gets; HUPAI_EXTRAS adds more (`make test-extras`: train cluster; `make bench`: bench).
EXTRAS := cli server dev $(HUPAI_EXTRAS)
COMPILE_STAMP := $(VENV)/.compiled-stamp
CORE_SOURCES := $(shell find src/hupai -name '*.py' -not -path '*/server/*')
# The golden data and property tests, which both builds must pass (CI: `make test-pure` after `make test`),
# and the examples in the core's docstrings (collected only from the pure build: see conftest.py).
BOTH_BUILDS := tests/test_native.py tests/test_hand_golden.py tests/test_hand_properties.py \
	tests/test_hand_readings.py tests/test_hand_tables.py tests/test_game_properties.py \
	tests/test_nanjing_records.py tests/test_nanning_records.py tests/test_enshi_records.py \
	tests/test_nanjing_scoring.py tests/test_enshi_scoring.py tests/test_nanjing_play.py \
	tests/test_nanning_play.py tests/test_enshi_play.py tests/test_bots.py tests/test_reading.py \
	tests/test_tiles.py tests/test_option_effects.py tests/test_option_space.py tests/test_refusals.py
WITH_COMPILE := $(if $(filter 1,$(HUPAI_COMPILE)),compile)
TEST_COMPILE := $(if $(filter 0,$(HUPAI_COMPILE)),,compile)
# The suite runs on pytest-xdist's workers, each with its own temporary files, databases and ports
# (tests/server_support.py). Many tests wait on a server or a browser rather than compute, so there
# are more workers than cores; TEST_WORKERS=0 runs every test in this one process.
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(2 * (os.cpu_count() or 1))')

.PHONY: run run-lan test checked test-pure test-extras lint compile bench bench-server golden clean sync lock lock-check

$(UV_HOME)/bin/uv: requirements/uv.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "hupai needs Python 3.11 or newer (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	rm -rf $(UV_HOME)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
		--target $(UV_HOME) -r requirements/uv.txt
	@touch $@

# Brings .venv exactly to the lock (cheap when nothing changed, so every target runs it): installs what
# is missing or changed, removes what the lock does not hold, and refuses a lock that pyproject.toml
# has outgrown. The checkout itself is installed editable, pure Python (`make compile` compiles it).
sync: $(UV_HOME)/bin/uv
	@HUPAI_COMPILE=0 $(UV) sync --locked --quiet --group build $(addprefix --extra ,$(EXTRAS)) \
		|| { echo "make: .venv could not be synced to uv.lock (if uv says the lock needs updating:" \
			"run 'make lock' and commit uv.lock)" >&2; exit 1; }

# Re-resolve every dependency (uv itself too) to the newest releases within pyproject.toml's ranges.
# Then run `make test`, read what moved (git diff uv.lock) and commit the lock with its fixes.
lock: $(UV_HOME)/bin/uv
	$(UV) lock --upgrade
	$(UV) pip compile --quiet --upgrade --generate-hashes --universal --custom-compile-command 'make lock' \
		requirements/uv.in -o requirements/uv.txt

# Fails with the command to run when pyproject.toml and uv.lock disagree (also tests/test_lock.py).
lock-check: $(UV_HOME)/bin/uv
	@$(UV) lock --check --offline --quiet \
		|| { echo "make: uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock" >&2; exit 1; }

# mypy (the dev extra) brings mypyc, and the build group setuptools, both from the lock. Without a C
# compiler or Python's headers the build stays pure Python: the line printed last says which core runs.
$(COMPILE_STAMP): $(CORE_SOURCES) setup.py build_hooks.py uv.lock | sync
	HUPAI_COMPILE=1 $(UV) pip install --quiet --no-deps --no-build-isolation --reinstall-package hupai \
		--refresh-package hupai -e .
	@$(BIN)/python -c 'import hupai; print("hupai core:", hupai.__build__, \
		"" if hupai.__build__ == "compiled" else "(not compiled: HUPAI_COMPILE=1 .venv/uv/bin/uv pip install -v -e . says why)")'
	@touch $(COMPILE_STAMP)

compile: $(COMPILE_STAMP)

run: sync $(WITH_COMPILE)
	$(BIN)/hupai serve

# The same, reachable from phones and other computers on the local network (invitations use its address).
run-lan: sync $(WITH_COMPILE)
	$(BIN)/hupai serve --lan

lint: sync lock-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# ruff and mypy run while the core compiles (each one's output kept together), then the suite; its
# summary says what did not run and why (no chromium, no PostgreSQL, …) and which core ran.
test:
	@$(MAKE) --no-print-directory --jobs=2 --output-sync=target checked
	$(BIN)/pytest -n $(TEST_WORKERS)

checked: lint $(TEST_COMPILE)

test-pure: sync
	HUPAI_PURE=1 $(BIN)/pytest -n $(TEST_WORKERS) $(BOTH_BUILDS) src/hupai --ignore=src/hupai/server

# The tests of the train and cluster extras (scikit-learn fits the wait reader, self-play on a local
# Ray), which `make test` skips without them: the extras join the environment for as long as nothing
# syncs it without them.
EXTRAS_TESTS := tests/test_cluster.py tests/test_reading.py tests/test_reading_headroom.py
test-extras: EXTRAS += train cluster
test-extras: sync $(TEST_COMPILE)
	$(BIN)/pytest -n $(TEST_WORKERS) $(EXTRAS_TESTS)

# The references (the bench extra) join the environment for as long as nothing syncs it without them.
bench: EXTRAS += bench
bench: sync $(WITH_COMPILE)
	$(BIN)/python bench/hand.py
	$(BIN)/python bench/selfplay.py

# The server under 250 tables of network players (about two minutes); see bench/server_load.py.
bench-server: sync $(WITH_COMPILE)
	$(BIN)/python bench/server_load.py

# Regenerate the golden hand files (fixed seed; cross-checked against the `mahjong` package).
golden: sync
	$(BIN)/python tools/make_golden_hands.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build
	find src -name '*.so' -delete
	rm -f src/hupai/_compiled.txt
