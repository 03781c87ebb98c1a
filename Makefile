# dbgauge: build, test, quickstart.
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/dbgauge/dbgauge/internal/cli.version=$(VERSION)

.PHONY: build test quickstart engines vet docs clean fuzz

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/dbgauge ./cmd/dbgauge

# Installs missing engine packages (as root), then runs every test against
# real engines: embedded SQLite and DuckDB, and private PostgreSQL, MariaDB
# and Firebird instances the tests start on loopback and remove afterwards.
test: engines
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 60m ./...

# Every fuzz target, one after another, each for FUZZTIME (one worker:
# the machine is shared). `make test` runs their seed corpora already.
# FUZZMINTIME bounds the minimizing of each new or failing input, in
# executions (Go's default, 60s per input, takes most of a short budget
# on the targets that write run directories).
FUZZTIME ?= 10s
FUZZMINTIME ?= 100x
FUZZ_TARGETS := \
	./internal/dbms:FuzzParseURL \
	./internal/cli:FuzzConfig \
	./internal/results:FuzzReadRun \
	./internal/results:FuzzReadJournal \
	./internal/results:FuzzReadHistogramLog \
	./internal/timing:FuzzParseProcStat \
	./internal/timing:FuzzProcStatRoundTrip \
	./internal/timing:FuzzParseProcStatusIO \
	./internal/timing:FuzzParseSchedstat \
	./internal/timing:FuzzParseProcStatCPU \
	./internal/timing:FuzzParseDiskTotals \
	./internal/timing:FuzzParsePressureSome \
	./internal/sysinfo:FuzzParseStat \
	./internal/sysinfo:FuzzParseDiskstats \
	./internal/sysinfo:FuzzParseNetDev

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t#*:}; \
		echo "fuzz $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINTIME) -parallel=1 $$pkg; \
	done

engines:
	./scripts/install-engines.sh

quickstart: build
	./bin/dbgauge quickstart

vet:
	gofmt -l . | (! grep .)
	$(GO) vet ./...

# The man pages (docs/man) and the Markdown command reference (docs/commands),
# generated from the command tree; internal/cli's TestDocsUpToDate fails when
# they are stale.
docs:
	$(GO) run ./cmd/dbgauge-docs -man docs/man -md docs/commands

clean:
	rm -rf bin
