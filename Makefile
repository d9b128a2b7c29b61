# clinetrail: two commands do all set-up on a fresh machine with Node 20 and npm.
#   make load                         load the demo fleet (fixtures/fleet) into warehouse/
#   make install [PREFIX=/usr/local]  the commands clinetrail and clinetrail-nightly in PREFIX/bin (deploy/install.sh)
#   make load FLEET=DIR OUT=DIR       load any fleet
#   make query Q="select ..."         query the warehouse (Q reaches DuckDB unchanged, $ and quotes too)
#   make export FORMAT=timesketch TO=FILE [WHERE="..." | Q="select ..."]   export a selection to a file
#   make hunt                         run the hunt pack on the warehouse (docs/HUNTS.md)
#   make check                        the inner loop: type-check, import rule, lint, the in-process unit suites (CONTRIBUTING.md)
#   make test                         install, build (tsc type-checks as it emits; only when a source changed), run every test suite
#   make real-corpus [MAJORS=3]       drive the released Cline CLIs into fixtures/real-producer (needs npm);
#                                     MAJORS=driven: the 3.x home of typed and bridge-driven sessions (corpus/README.md)
#   make interop [INTEROP_DIR=DIR]    open OUT/parquet/events and each export with pandas, pyarrow, polars and DuckDB (needs pip)
#   make report-screenshot            docs/report-demo.png: the demo fleet's report in headless Chromium (apt-get install chromium)
#   make warehouse-reference          docs/WAREHOUSE.md: the tables, views and columns, from the catalog's comments
FLEET ?= fixtures/fleet
OUT ?= warehouse
Q ?= select host, store, count(*) as rows from raw_events group by all order by all
FORMAT ?= table
PREFIX ?= /usr/local
CLI := node dist/src/cli/main.js

.PHONY: load query export check unit test build deps install bench clean imports lint format real-corpus interop report-screenshot hunt warehouse-reference

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.installed

# `clinetrail` on PATH: two small scripts in PREFIX/bin that run this checkout's build (README "Setting up: two commands").
install: build
	sh deploy/install.sh "$(PREFIX)"

# tsc runs only when a TypeScript source, the compiler settings or the installed packages changed
# (dist/.built stamps the last build), so an unchanged nightly `make load` costs what the load costs.
TS_SOURCES := $(shell find src test bench corpus tools -name '*.ts') vitest.config.ts vitest.unit.config.ts tsconfig.json
dist/.built: node_modules/.installed $(TS_SOURCES)
	npx tsc -p tsconfig.json
	@touch $@

build: dist/.built

# The table comes from the partition manifests (load --rows-table), not from a query: an unchanged nightly
# re-run then costs what the load costs (two summary queries cost more than the load itself).
# Two malloc arenas: the memory the ended worker threads freed is reused by the model build instead of
# kept beside it (docs/CLI.md, docs/BENCHMARKS.md: the full load's peak 406-415 -> 368-384 MB).
load: build
	MALLOC_ARENA_MAX=$${MALLOC_ARENA_MAX:-2} $(CLI) load --fleet "$(FLEET)" --out "$(OUT)" --rows-table
	@echo
	@echo 'Your own SQL: make query Q="..."; e.g. every command Cline ran, per host:'
	@echo '  make query Q="select host, timestamp_utc, session_id, approval, command from commands order by host, timestamp_utc limit 20"'

# The SQL goes to the CLI through the environment, as given: $(value ...) keeps make from expanding the
# `$` of a JSON path (`'$.a'`), and "$$CLINETRAIL_Q" keeps the shell from reading the text.
export CLINETRAIL_Q := $(value Q)
export CLINETRAIL_WHERE := $(value WHERE)

query: build
	@$(CLI) query --out "$(OUT)" --format "$(FORMAT)" "$$CLINETRAIL_Q"

# make export FORMAT=timesketch|jsonl|csv|parquet TO=FILE: the events view, or WHERE="..." a part of it,
# or Q="select ..." any query (FORCE=1 replaces TO).
export: build
	@$(CLI) export --out "$(OUT)" --format "$(FORMAT)" --to "$(TO)" $(if $(FORCE),--force,) \
		$(if $(value WHERE),--where "$$CLINETRAIL_WHERE",) $(if $(filter command line,$(origin Q)),--sql "$$CLINETRAIL_Q",)

# make hunt [OUT=DIR] [FORMAT=csv]: run the hunt pack (hunts/*.sql) on the warehouse; findings go to its table findings.
hunt: build
	$(CLI) hunt --out "$(OUT)" --format "$(FORMAT)"

# The import rule of src/ (docs/ARCHITECTURE.md): imports point downstream, no cycles. The cache
# (node_modules/.cache, keyed on each file's content) skips the files that did not change.
imports: deps
	npx depcruise src --config .dependency-cruiser.cjs --cache node_modules/.cache/dependency-cruiser --cache-strategy content

# Formatting and lint rules (biome.json); `make format` rewrites the files to the format. knip (knip.json)
# fails on an export, a file or a package that nothing uses: its entries are the worker, the scripts of
# bench/, corpus/ and tools/, the regenerating fixture script and the test files; its cache (node_modules/.cache/knip)
# skips the files that did not change. The SQL lint (tools/sql-lint/, CONTRIBUTING.md) parses and runs
# sql/ and hunts/ on an empty DuckDB and checks the house rules, one `file:line: rule: message` per problem;
# it runs from dist/, so it waits for the build.
lint: deps build
	npx biome ci .
	npx knip --cache
	node dist/tools/sql-lint/main.js

format: deps
	npx biome format --write .

# `build` is the one tsc run: it type-checks src/, test/, bench/ and tools/ as it emits dist/ (incrementally:
# tsconfig.json keeps what it checked in dist/.tsbuildinfo).
# make check: the inner loop (CONTRIBUTING.md): type-check, import rule, lint and the in-process unit
# suites of vitest.unit.config.ts, which spawn no CLI and build no warehouse. They run side by side (lint
# after the build, whose dist/ holds the SQL lint), each one's output printed whole when it ends; make
# check fails when any of them fails.
# make test: all of it and every suite (what .ci/run runs).
check: deps
	@$(MAKE) --no-print-directory --output-sync=target -j4 build imports lint unit

unit: deps
	TZ=UTC npx vitest run --config vitest.unit.config.ts

test: build imports lint
	TZ=UTC npx vitest run

bench: build
	node dist/bench/run.js $(if $(SMALL),--small,) $(if $(SCALE_HOSTS),--scale-hosts $(SCALE_HOSTS),)

# The real-producer corpus (issue 11, corpus/README.md): installs the latest release of each major of the npm
# package `cline`, drives it against a scripted local model server and rewrites fixtures/real-producer/.
# Needs the npm registry and a few minutes; not part of `make test`. MAJORS="3" drives one generation only.
real-corpus: build
	node dist/corpus/drive.js $(MAJORS)

# Interop (issues 13, 28): a private virtualenv (interop/.venv, git-ignored) with the engines of
# interop/requirements.txt, a fleet with numeric host names loaded by the CLI, and each engine's default
# call checked against the warehouse, on OUT/parquet/events (interop/check.py) and on every export format
# (interop/check_exports.py): one PASS/FAIL line each, exit 1 on any FAIL.
# Not part of `make test`: it needs pip and about 200 MB under INTEROP_DIR.
INTEROP_DIR ?= /tmp/clinetrail-interop
interop/.venv/.installed: interop/requirements.txt
	python3 -m venv interop/.venv
	interop/.venv/bin/pip install --quiet --disable-pip-version-check -r interop/requirements.txt
	@touch $@

interop: build interop/.venv/.installed
	interop/make-fleet.sh "$(INTEROP_DIR)"
	$(CLI) load --fleet "$(INTEROP_DIR)/fleet" --out "$(INTEROP_DIR)/out" --quiet
	interop/.venv/bin/python interop/check.py "$(INTEROP_DIR)/out" $(CLI)
	interop/.venv/bin/python interop/check_exports.py "$(INTEROP_DIR)/out" "$(INTEROP_DIR)/exports" $(CLI)

clean:
	rm -rf dist warehouse

# The fleet report's picture in the README (issue 15): the demo fleet loaded into a temporary OUT, its report
# made by the CLI and shot in headless Chromium (Debian's chromium) with the network blocked.
report-screenshot: build
	TZ=UTC node dist/bench/report-screenshot.js

# The warehouse reference (issue 28): docs/WAREHOUSE.md written from the catalog of the demo fleet's warehouse
# (every `comment on` of sql/ and the record shapes); test/docs/warehouse-reference.test.ts fails when it differs.
warehouse-reference: build
	TZ=UTC node dist/bench/warehouse-reference.js
