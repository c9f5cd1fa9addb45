# Print-and-play kits. `make pdf` and `make test` each set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
GAME ?=
PAPER ?= a4
THEME ?=
INK ?=
FLIP ?= long
N ?= 1000
PLAYERS ?=
POLICY ?= random
DPI ?= 300
PRESET ?= default
LAYOUT ?= sheets
BACK_DX ?= 0
BACK_DY ?= 0
# The kit's language (not LANG, which is the locale): furniture and the game's translations.
KIT_LANG ?= en

# Settings with a fixed set of values stop here, before anything is built, naming the allowed
# values (PAPERS must match generator/core/sizes.py; a test checks it).
PAPERS := a3 a4 letter
FLIPS := long short
LAYOUTS := sheets gutterfold single
INKS := saver
PRESETS := default tgc mpc
POLICIES := random greedy
# KIT_LANGS must match templates/messages/<code>.yaml (a test checks it).
KIT_LANGS := en fr
# $(call choose,NAME,allowed values[,optional]): NAME must be one word among the allowed.
choose = $(if $(or $(filter-out $(2),$($(1))),$(filter-out 0 1,$(words $($(1)))),$(if $(3),,$(if \
  $(strip $($(1))),,empty))),$(error $(1)=$($(1)) is not allowed; use one of: $(2)$(if $(3), \
  (or leave $(1) empty))))
$(call choose,PAPER,$(PAPERS))
$(call choose,FLIP,$(FLIPS))
$(call choose,LAYOUT,$(LAYOUTS))
$(call choose,INK,$(INKS),optional)
$(call choose,PRESET,$(PRESETS))
$(call choose,POLICY,$(POLICIES))
$(call choose,KIT_LANG,$(KIT_LANGS))

BUILD_ARGS := $(GAME) --paper $(PAPER) --flip $(FLIP) $(if $(THEME),--theme $(THEME)) \
              $(if $(filter saver,$(INK)),--ink-saver) --back-dx $(BACK_DX) --back-dy $(BACK_DY) \
              --lang $(KIT_LANG)

.PHONY: all venv lock pdf png preview verify simulate calibration bench bench-protograf test \
        test-fast lanes typecheck lint clean

all: pdf

# Runtime pins for building kits; the test, lint and build tools on top for `make test`.
# Both locks are written by `make lock`; --require-hashes: every file must match a hash in the
# lock; --no-deps: exactly the locked set, nothing else.
PIP_INSTALL := $(VENV)/bin/pip install --quiet --disable-pip-version-check
$(STAMP): requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --require-hashes --no-deps -r requirements.lock
	touch $(STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.lock
	$(PIP_INSTALL) --require-hashes --no-deps -r requirements-dev.lock
	touch $(DEV_STAMP)

venv: $(DEV_STAMP)

# `make lock`: both locks from pyproject.toml, with every file's hash, by uv (pinned here).
# requirements.lock: `dependencies`; requirements-dev.lock: those plus the `test` and `browser`
# extras, constrained to requirements.lock so the shared packages are the same. A version already
# in a lock is kept while pyproject.toml allows it; to move one, change its pin in pyproject.toml
# (or delete its line in the lock) and run `make lock`.
UV_VERSION := 0.13.9
UV_COMPILE := $(VENV)/bin/uv pip compile pyproject.toml --quiet --generate-hashes \
              --python-version 3.11 --custom-compile-command "make lock"
lock: $(STAMP)
	$(PIP_INSTALL) --no-deps uv==$(UV_VERSION)
	$(UV_COMPILE) --output-file requirements.lock
	$(UV_COMPILE) --extra test --extra browser --constraint requirements.lock \
	  --output-file requirements-dev.lock

pdf: $(STAMP)
	$(PY) -m generator build $(BUILD_ARGS) --layout $(LAYOUT)

png: $(STAMP)
	$(PY) -m generator png $(BUILD_ARGS) --dpi $(DPI) --preset $(PRESET)

preview: $(STAMP)
	$(PY) -m generator preview $(BUILD_ARGS)

verify: $(STAMP)
	$(PY) -m generator verify $(GAME) --paper $(PAPER) --flip $(FLIP) --lang $(KIT_LANG) \
	  $(if $(STRICT),--strict)

simulate: $(STAMP)
	$(PY) -m generator simulate $(GAME) --n $(N) --policy $(POLICY) $(if $(PLAYERS),--players $(PLAYERS))

calibration: $(STAMP)
	$(PY) -m generator calibration --paper $(PAPER) --flip $(FLIP) --lang $(KIT_LANG)

# The studio's figure drives a browser: selenium comes with the test tools (requirements-dev.lock).
# AGAINST=<checkout>: issue 37's CPU rows also run from an older checkout, paired (bench/item4.py).
bench: $(DEV_STAMP)
	$(PY) bench/run.py $(if $(AGAINST),--against $(AGAINST))

# Optional: protograf 0.5.2 in its own venv, for the whole-process comparison in `make bench`
# (not a dependency of the kits: it pulls PyMuPDF and more). bench/whole_process.py finds it.
PROTOGRAF_VENV := .venv-protograf
bench-protograf:
	$(PYTHON) -m venv $(PROTOGRAF_VENV)
	$(PROTOGRAF_VENV)/bin/pip install --quiet --disable-pip-version-check protograf==0.5.2 \
	  PyYAML==$$(sed -n 's/^PyYAML==//Ip' requirements.lock)

# `make test`: lint, the import contracts (lint-imports reads [tool.importlinter] in
# pyproject.toml), then the whole suite in a random order (pytest-randomly prints its seed) on
# TEST_JOBS processes (pytest-xdist). `make test-fast`: the same suite less the tests marked slow
# (whole kits, child processes, the browser: marked at the test, tests/conftest.py says how),
# for the edit-test loop. `make typecheck`: mypy alone, as `make test` runs it (pyproject.toml's
# [tool.mypy]: generator/ and the rules-engine protocol test).
# The suite writes bytecode (__pycache__/, ignored by git) even where PYTHONDONTWRITEBYTECODE is
# set: otherwise each of its processes compiles every module and pytest rewrites every test
# module's asserts again, every run (about 6 s of CPU a process).
TEST_JOBS ?= 2
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_JOBS)
test: $(DEV_STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(PYTEST)

test-fast: $(DEV_STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(PYTEST) -m "not slow"

# `make lanes`: the fast lane timed, then tests/lanes.py fails naming each test not marked slow
# that took over its budget (0.6 s of processor time, its cases summed): mark it slow at the
# test, or make it cheaper. Seconds are measured here, never asserted by a test.
LANES_REPORT := output/test-artifacts/lanes.xml
lanes: $(DEV_STAMP)
	$(PYTEST) -m "not slow" -p no:randomly --junitxml=$(LANES_REPORT)
	$(PY) tests/lanes.py $(LANES_REPORT)

typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check generator tests bench

clean:
	rm -rf output/*/ .pytest_cache .hypothesis .ruff_cache .mypy_cache .import_linter_cache
	find . -name __pycache__ -not -path './$(VENV)/*' -exec rm -rf {} +
