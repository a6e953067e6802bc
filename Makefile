# rulebook: two commands set everything up and check everything.
#   make build  - create .venv if needed, install, validate rules/, regenerate
#                 generated/ (Python alone: no Node or npm)
#   make test   - the whole suite: tests, goldens, type checks (mypy and pyright, strict),
#                 lint, generated-is-up-to-date,
#                 the reference site's strict build and its browser test (it installs
#                 Node and npm where missing, then KaTeX and TypeScript with npm ci)
#   make test-quick - the edit loop's test files (a minute or two on 2 cores; no
#                 browser, JavaScript, fuzzing, type checks or lint: see QUICK_TESTS)
#   make test-house - make build, test, docs and check on a fresh clone of HEAD
#                 whose rules/package.yaml lists the house pack tests/house (the
#                 suite holds for a project with a pack; about 15 minutes)
#   make docs   - build the reference site into site/ (mkdocs build --strict), to
#                 serve or to open from the folder (site/index.html, file://)
#   make serve  - preview the reference site on http://127.0.0.1:8000
#   make bench  - time the compiler and the runtime (report in tests/bench/report.md)
#   make fuzz   - 20,000 rules files made from schema/ through validation and build,
#                 one in 40 rules that roll called in Python and Node, and
#                 2,000 house rules packs (make test runs 1,000 and 50;
#                 FUZZ_CASES=N, FUZZ_PACKS=N and FUZZ_SEED=N change them)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test test-quick test-house check validate lint typecheck update-goldens bench clean docs serve chromium node fuzz

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,docs]'
	# The venv's Python imports the generated runtime from generated/ (a .pth file):
	# `.venv/bin/python` runs the README's examples as written.
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'rulebook-generated.pth').write_text(str(pathlib.Path('generated').resolve()) + '\\n')"
	# The compiler's folder is compiler/, its import name rulesc (pyproject.toml's
	# package-dir); the editable install's import hook finds it for Python, and
	# this link for the type checkers (pyproject.toml's mypy_path).
	mkdir -p $(VENV)/src && ln -sfn $(CURDIR)/compiler $(VENV)/src/rulesc
	touch $(STAMP)

# The site's KaTeX (docsite/package.json, pinned by its package-lock.json).
KATEX := docsite/node_modules/katex/dist/katex.min.js

$(KATEX): docsite/package.json docsite/package-lock.json
	cd docsite && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(KATEX)

# The JavaScript tests' tools (TypeScript; npm's name and version checks, which
# tests/test_package_checks.py compares with) from tests/js/package-lock.json.
JS_STAMP := tests/js/node_modules/.installed

$(JS_STAMP): tests/js/package.json tests/js/package-lock.json
	cd tests/js && npm ci --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

build: $(STAMP)
	$(BIN)/rulesc validate
	$(BIN)/rulesc build

validate: $(STAMP)
	$(BIN)/rulesc validate

check: $(STAMP)
	$(BIN)/rulesc check

# The site tests (tests/site/) skip without MkDocs or chromium, and the JavaScript
# tests without Node or TypeScript, except here and in CI.
test: $(STAMP) node $(KATEX) $(JS_STAMP) chromium
	RULEBOOK_SITE_TESTS=required RULEBOOK_JS_TESTS=required $(BIN)/pytest -q -n auto --dist loadfile
	$(MAKE) --no-print-directory typecheck lint
	$(BIN)/rulesc check

# make test-quick: the test files of the edit loop (about 95 s of CPU, a minute or
# two on 2 cores): the command and its errors, the worked examples and the
# goldens, the rules of the three systems and the cookbook, the expression
# language, the kinds, the workbench's explain and roll, the documents' links.
# Left out (make test runs them): the site and browser, JavaScript and Lua, the
# fuzzers, mutation, hostile inputs and bounds, accept, diff, the runtime's
# refusals and odds at length, and the type checks and lint.
QUICK_TESTS := tests/test_editor_loop.py tests/test_cli.py tests/test_cli_folders.py \
  tests/test_goldens.py tests/test_examples.py tests/test_invalid_rules.py \
  tests/test_error_places.py tests/test_messages.py tests/test_schemas.py \
  tests/test_loader_parsers.py tests/test_expr.py tests/test_expr_rules.py \
  tests/test_d20_catalog.py tests/test_gurps_catalog.py \
  tests/test_edge_of_darkness_catalog.py tests/test_cookbook.py \
  tests/test_house_overrides.py tests/test_workbench_explain.py \
  tests/test_workbench_roll.py tests/test_dice.py tests/test_kind_plugins.py \
  tests/test_one_core.py tests/test_docstrings.py tests/test_doc_links.py \
  tests/test_labels.py

test-quick: $(STAMP)
	$(BIN)/pytest -q -n auto --dist loadfile $(QUICK_TESTS)
	$(BIN)/rulesc check

# make test-house: a fresh clone of HEAD (committed work only) that lists the
# house pack tests/house in rules/package.yaml, set up and checked as a new
# machine would with no flag: make build, make test, make docs, make check.
HOUSE_CLONE ?= /tmp/rulebook-house

test-house:
	rm -rf $(HOUSE_CLONE) && git clone --quiet $(CURDIR) $(HOUSE_CLONE)
	printf 'house_packs: [../tests/house]\n' >> $(HOUSE_CLONE)/rules/package.yaml
	$(MAKE) -C $(HOUSE_CLONE) --no-print-directory build test docs check

# The schema fuzzer (tests/test_fuzz_schemas.py) at length: every outcome a build
# or located errors, and rules that roll (tests/fuzz/rolling.py) answering alike in
# Python and Node. A crash names its case; rerun it with the same seed.
FUZZ_CASES ?= 20000
FUZZ_PACKS ?= 2000
FUZZ_SEED ?= 23

fuzz: $(STAMP)
	RULEBOOK_FUZZ_CASES=$(FUZZ_CASES) RULEBOOK_FUZZ_PACKS=$(FUZZ_PACKS) \
	  RULEBOOK_FUZZ_SEED=$(FUZZ_SEED) \
	  $(BIN)/pytest -q -p no:randomly tests/test_fuzz_schemas.py

# pyright: strict on generated/rulebook and tests/typecheck/consumer.py (pyproject's
# [tool.pyright]); it runs the pyright bundled in its wheel on the machine's Node.js.
PYRIGHT := PYRIGHT_PYTHON_IGNORE_WARNINGS=1 $(BIN)/pyright

typecheck: $(STAMP)
	$(BIN)/mypy --strict $(VENV)/src/rulesc generated/rulebook tests docsite
	$(PYRIGHT) --pythonpath $(abspath $(BIN))/python

lint: $(STAMP)
	$(BIN)/ruff check compiler tests generated/rulebook docsite
	$(BIN)/ruff format --check compiler tests generated/rulebook docsite

# The golden output is generated/: the remedy for stale goldens is a build.
update-goldens: build

# The reference site: MkDocs (Material) over generated/docs, see mkdocs.yml.
MKDOCS := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(BIN)/mkdocs

docs: $(STAMP) $(KATEX)
	$(MKDOCS) build --strict

serve: $(STAMP) $(KATEX)
	$(MKDOCS) serve --dev-addr 127.0.0.1:8000

# Node.js and npm for the JavaScript tests and the site's KaTeX (Debian's, where
# missing; the machines have Node.js 20).
node:
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { \
	  echo "installing Node.js and npm with apt-get (for the JavaScript tests)"; \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; }

# Debian's chromium for the browser test; installed only when missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium with apt-get (for the site's browser test)"; \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; }

# Performance: a Markdown report on stdout and in tests/bench/report.md (not
# committed); the bench extra holds the engine it compares with (zen-engine).
BENCH_STAMP := $(VENV)/.installed-bench

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[bench]' \
	  && touch $(BENCH_STAMP) \
	  || echo "bench: the bench extra did not install; the rows that need it say so"

bench: $(BENCH_STAMP)
	$(BIN)/python -m tests.bench.run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis docsite/node_modules tests/js/node_modules
