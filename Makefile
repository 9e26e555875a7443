# The two commands: `make serve` and `make test`. Both work on a fresh machine
# with Python 3.11, git and make: they create .venv and install what they need.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test check build locales vectors bench clean

$(BIN)/pravila: pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

# The site's own address (previews and the language switcher need it).
export PRAVILA_SITE_URL ?= http://$(HOST):$(PORT)/

serve: $(BIN)/pravila
	$(BIN)/pravila check --quiet
	$(BIN)/pravila build
	$(BIN)/pravila serve --host $(HOST) --port $(PORT) --watch

test: $(BIN)/pravila
	$(BIN)/python scripts/ensure_browser.py
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

check: $(BIN)/pravila
	$(BIN)/pravila check

build: $(BIN)/pravila
	$(BIN)/pravila build

# Extract UI strings, merge them into the catalogs (Babel), compile them into
# the package (src/pravila/locales/*.mo, committed: an installed pravila needs them).
# Domain `messages`: the site and CLI text of every module except the
# calculators', and of the site's templates. Domain `calculators`: the
# calculators' tables (answers.py), shared with the JavaScript widgets.
MESSAGES_SOURCES := $(filter-out src/pravila/calculators.py src/pravila/widgets.py,$(sort $(wildcard src/pravila/*.py))) \
	$(sort $(wildcard src/pravila/templates/*.html src/pravila/templates/*.md))

locales: $(BIN)/pravila
	$(BIN)/pybabel extract -F babel.cfg -o locales/messages.pot --no-location --sort-output --project Pravila --version 0.1.0 $(MESSAGES_SOURCES)
	$(BIN)/pybabel update -i locales/messages.pot -d locales -D messages --no-fuzzy-matching
	$(BIN)/python scripts/calculators_pot.py locales/calculators.pot
	$(BIN)/pybabel update -i locales/calculators.pot -d locales -D calculators --no-fuzzy-matching
	$(BIN)/python scripts/compile_catalogs.py

# After a content edit: the browser twins' contracts on the new content
# (the search answers of tests/vectors/search.json, the content's words of
# tests/vectors/stemmers.json); the tests say when they are stale.
vectors: $(BIN)/pravila
	$(BIN)/python scripts/search_vectors.py
	$(BIN)/python scripts/stemmer_vectors.py --content

bench: $(BIN)/pravila
	$(BIN)/python benchmarks/search.py

clean:
	rm -rf build site $(VENV)
