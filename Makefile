# The README's two set-up commands are `make run` and `make test`; both install what they need.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8550
STAMP := $(VENV)/.installed

.PHONY: run test test-core bench pwa node i18n check chromium clean mo pyc model

# uv (PyPI, pinned like the packages) installs the pinned packages: ~5 s on a fresh machine where
# venv's own pip took ~22 s (`$(BIN)/uv pip` is the venv's pip). It writes no bytecode: `pyc`
# compiles it for `make run`, and `make test` writes it as the tests import.
$(STAMP): pyproject.toml
	$(PY) -m venv --without-pip $(VENV)
	$(PY) -m pip --python $(BIN)/python install -q 'uv==0.13.9'
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[web,dev]'
	touch $@

# the compiled translations (locales/*/LC_MESSAGES/messages.mo) from the .po files: built, never
# committed; run, test and pwa compile them so the Japanese screens are always the current text
mo: $(STAMP)
	$(BIN)/pybabel compile -d locales

# the app's bytecode and its packages', written even where PYTHONDONTWRITEBYTECODE is set (as on this
# machine): the served app then compiles none of its modules at start (~0.5 s sooner to answer here;
# ~5 s the first time, 0.2 s after)
pyc: $(STAMP)
	$(BIN)/python -m compileall -q handbook main.py $(VENV)/lib

# Debian's chromium for the browser tests (never `playwright install`: it downloads a browser)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$(command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Debian's Node.js: the PWA build compiles Python bytecode with Pyodide under it (faster start-up).
# Optional: without it `make pwa` still builds a working PWA that starts slower.
node:
	@command -v node >/dev/null 2>&1 || { \
	  SUDO=$$(command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nodejs >/dev/null \
	  || echo "note: nodejs not installed; the PWA ships Python sources (slower start-up)"; }

## the static offline PWA in build/pwa/ (Python in the browser via Pyodide): see tools/pwa/build.py (`python -m tools.pwa verify` checks the patches)
pwa: $(STAMP) node mo
	$(BIN)/python -m tools.pwa

## serve the app on the bundled content at http://$(HOST):$(PORT) (no internet needed)
run: $(STAMP) mo pyc
	PYTHONMALLOC=malloc $(BIN)/python -m handbook serve --host $(HOST) --port $(PORT)

## lint (ruff), the import contracts (import-linter) and every test: core, content and views on two cores (pytest-xdist)
## while the offline PWA is built beside them (build/pwa, when older than its sources; log in build/pwa-build.log),
## then the offline-PWA and real-browser tests (tests/pwa and tests/e2e, whose conftest files mark them; only those
## folders are collected), four at a time; both runs share their tests out in units (pytest-xdist loadscope, units:
## tests/support/scheduling.py)
# Each worker takes whole units (a module, a window of the layout walk, a PWA test, a ruleset and language of
# the "What happened?" walk), the longest first, so that a module's served app, loaded
# page and module fixtures are set up once and no long unit is left to run alone at the end: worksteal split the
# modules left at the end among the workers, each split a page load or a served app more (41 page loads -> 33;
# 353 -> 334 CPU-s, 195 -> 178 s back to back). Before these units the ten "What happened?" walks (one module)
# ran one after another on one browser worker, last, and `load` started the search's recall floors (~70 CPU-s,
# one module fixture) wherever its chunk fell; now the longest modules of either run start first.
# Bytecode caches (__pycache__, git-ignored) are written even where PYTHONDONTWRITEBYTECODE is set, as
# `pyc` does for the app: the six test processes and every served app would each compile every module
# of handbook/, tests/ and tools/ again (collecting the tests: 5.9 s without, 2.6 s with).
test: export PYTHONDONTWRITEBYTECODE=
test: $(STAMP) chromium node mo
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	@mkdir -p build
	$(BIN)/python -m tests.support.pwa_harness > build/pwa-build.log 2>&1 & pwa=$$!; \
	  $(BIN)/python -m pytest -n 2 --dist loadscope --no-loadscope-reorder -m "not browser and not pwa"; status=$$?; \
	  wait $$pwa || echo "the PWA build failed (build/pwa-build.log): the PWA tests build it again and say why"; \
	  exit $$status
	$(BIN)/python -m pytest -n 4 --dist loadscope --no-loadscope-reorder -m "browser or pwa" tests/pwa tests/e2e

## retrain the search's learned model (handbook/core/search/model.json.gz) on the train splits of tests/eval
## (scikit-learn, ~20 s); tests/core/test_search_model.py fails while the shipped file is stale
model: $(STAMP)
	$(BIN)/python -m tools.searchmodel

test-core: $(STAMP) mo
	$(BIN)/python -m pytest tests/core tests/content

## speed and memory figures (pytest-benchmark)
bench: $(STAMP) chromium node mo pyc
	$(BIN)/python -m pytest tests/bench --benchmark-only --benchmark-columns=min,median,mean,max,rounds -p no:randomly

## refresh the translation template and any translations, then compile them (.mo are built, not committed).
## New English strings then appear untranslated in locales/<lang>/LC_MESSAGES/messages.po: translate them
## there (tests/ui/test_catalog.py fails until every message has a translation that is not fuzzy).
BABEL_EXTRACT := extract -F pyproject.toml -k N_ --project="Riichi Judge Handbook" --version=0.1.0 \
	--copyright-holder="Riichi Judge Handbook contributors" --sort-by-file
i18n: $(STAMP)
	$(BIN)/pybabel $(BABEL_EXTRACT) -o locales/messages.pot .
	@if ls locales/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then \
	  $(BIN)/pybabel update --ignore-obsolete -i locales/messages.pot -d locales && $(BIN)/pybabel compile -d locales; fi

## validate content; where the source documents are at hand (SOURCES, by default ../shared/seeds)
## also check that the glossary's source definitions are the sources' words
SOURCES ?= $(wildcard ../shared/seeds)
check: $(STAMP)
	$(BIN)/python -m handbook check $(if $(SOURCES),--sources $(SOURCES))

clean:
	rm -rf build .pytest_cache .benchmarks
