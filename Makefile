# dbgauge: build, test, quickstart.
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/dbgauge/dbgauge/internal/cli.version=$(VERSION)

.PHONY: build test quickstart engines vet docs clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/dbgauge ./cmd/dbgauge

# Installs missing engine packages (as root), then runs every test against
# real engines: embedded SQLite and DuckDB, and private PostgreSQL, MariaDB
# and Firebird instances the tests start on loopback and remove afterwards.
test: engines
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 40m ./...

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
