# The two commands a new user needs: `make demo` and `make test`. Both set everything up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install demo test check lint bench clean pg-up

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	@mkdir -p out
	@rm -f out/demo.db out/demo.db-wal out/demo.db-shm
	$(VENV)/bin/newsloom analyze examples/corpus --db out/demo.db --json out/demo.json --quiet
	$(VENV)/bin/newsloom report --db out/demo.db --out out/report
	@echo "report: out/report/index.html (JSON export: out/demo.json; store: out/demo.db — try: $(VENV)/bin/newsloom stories --db out/demo.db)"

# Browser tests drive Debian's chromium through Playwright (never `playwright install`).
CHROMIUM := /usr/bin/chromium

# A failed install is not fatal: the browser tests then skip and say why.
$(CHROMIUM):
	-apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

# A throw-away PostgreSQL server (scripts/pg-up.sh): the store tests run on it as well as on
# SQLite. Not fatal either: without it the PostgreSQL tests skip and say why.
pg-up:
	-@sh scripts/pg-up.sh

# axe-core for the accessibility audit (tests/web/axe, pinned by its package-lock.json). Not
# fatal either: without node/npm or the registry the audit skips and says why.
AXE := tests/web/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/web/axe/package-lock.json
	-@command -v npm >/dev/null && npm ci --prefix tests/web/axe --no-audit --no-fund && touch $@ || echo "npm ci in tests/web/axe failed or npm is missing: the accessibility audit will skip"

test: $(STAMP) $(CHROMIUM) $(AXE) pg-up
	$(PY) -m pytest -q

# The fast local loop: unit tests only (markers in pyproject.toml); `make test` runs them all.
FAST := not slow and not browser and not postgres and not schemathesis and not multiprocess
check: $(STAMP)
	$(PY) -m pytest -q -m "$(FAST)"

lint: $(STAMP)
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

bench: $(STAMP)
	$(PY) bench/bench_throughput.py

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache .hypothesis
