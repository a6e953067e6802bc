# rulebook: two commands set everything up and check everything.
#   make build  - create .venv if needed, install, validate rules/, regenerate generated/
#   make test   - the whole suite: tests, goldens, type checks, lint, generated-is-up-to-date
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test check validate lint typecheck update-goldens bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/rulesc validate
	$(BIN)/rulesc build

validate: $(STAMP)
	$(BIN)/rulesc validate

check: $(STAMP)
	$(BIN)/rulesc check

test: $(STAMP)
	$(BIN)/pytest -q
	$(MAKE) --no-print-directory typecheck lint
	$(BIN)/rulesc check

typecheck: $(STAMP)
	$(BIN)/mypy --strict compiler generated/rulebook tests

lint: $(STAMP)
	$(BIN)/ruff check compiler tests generated/rulebook
	$(BIN)/ruff format --check compiler tests generated/rulebook

# Rebuild generated/ (the golden output) through the golden test itself.
update-goldens: $(STAMP)
	$(BIN)/pytest -q tests/test_goldens.py --update-goldens

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
