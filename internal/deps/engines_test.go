package deps

import (
	"regexp"
	"testing"
)

// engineName matches the engines' names (postgresql included) in an
// identifier or a string literal.
var engineName = regexp.MustCompile(`(?i)postgres|mysql|mariadb|sqlite|duckdb|firebird`)

// engineTrees may name engines: the engine layer (one package per engine,
// the registry import file internal/dbms/all among them), the private
// server instances (one file per engine), and the vendored Firebird driver,
// which is an engine's client library, not dbgauge's code.
var engineTrees = []string{"internal/dbms/", "internal/server/", "third_party/"}

// Reasons shared by several entries of engineNameAllowed.
const (
	help       = "the command's help text and messages: they describe the engines to the user and decide nothing"
	quickstart = "quickstart is defined as the Wisconsin suite on the two embedded engines side by side, in this order (its directories are named after them)"
)

// engineNameAllowed lists the few mentions outside engineTrees that are
// not engine knowledge. An entry allows, in file, either one exact token
// (an identifier, or a string literal with its quotes) or, with prose set,
// every string literal that holds a space: sentences of help text and
// messages, which describe engines to the user and decide nothing.
var engineNameAllowed = []allowance{
	{file: "internal/cli/abtest.go", prose: true, why: help},
	{file: "internal/pgbench/cmdline.go", prose: true, why: help},
	{file: "internal/pgbench/cmdline.go", token: `"postgres"`, why: "pgbench's -h, -p, -U and a plain database name mean a PostgreSQL server, as in pgbench itself"},
	{file: "internal/cli/clustersize.go", prose: true, why: help},
	{file: "internal/cli/pgbench.go", prose: true, why: help},
	{file: "internal/cli/dsbench.go", prose: true, why: help},
	{file: "internal/cli/sweep_flags.go", prose: true, why: help},
	{file: "internal/cli/enginetime_flag.go", prose: true, why: help},
	{file: "internal/cli/fault_flags.go", prose: true, why: help},
	{file: "internal/cli/list.go", prose: true, why: help},
	{file: "internal/cli/multiuser.go", prose: true, why: help},
	{file: "internal/cli/qac.go", prose: true, why: help},
	{file: "internal/cli/quickstart.go", prose: true, why: help},
	{file: "internal/cli/server.go", prose: true, why: help},
	{file: "internal/cli/spread_flags.go", prose: true, why: help},
	{file: "internal/cli/sizesweep.go", prose: true, why: help},
	{file: "internal/cli/speedup.go", prose: true, why: help},
	{file: "internal/cli/wisconsin.go", prose: true, why: help},
	{file: "internal/cli/quickstart.go", token: `"sqlite"`, why: quickstart},
	{file: "internal/cli/quickstart.go", token: `"duckdb"`, why: quickstart},
	{file: "internal/results/catalog_db.go", token: `"github.com/mattn/go-sqlite3"`, why: "the catalog of runs is itself an SQLite database (its storage, not an engine under test)"},
	{file: "internal/results/catalog_db.go", token: "sqlite3", why: "the catalog's driver package and its error codes"},
	{file: "internal/results/catalog_db.go", token: `"sqlite3"`, why: "the catalog's database/sql driver name"},
	{file: "internal/results/catalog_db.go", token: `"SELECT count(*) FROM sqlite_master"`, why: "the catalog's integrity probe"},
}

// TestNoEngineNamesOutsideEngines keeps engine knowledge in the engines: a
// non-test .go file outside engineTrees that names an engine in code (an
// identifier or a string literal; comments do not count) fails, unless
// engineNameAllowed lists it with a reason. Engine facts reach other
// packages through dbms's optional abilities (type assertions on an
// Engine) and the facts each adapter registers (dbms.Adapter).
func TestNoEngineNamesOutsideEngines(t *testing.T) {
	nameRule{what: "an engine", pattern: engineName, trees: engineTrees, allowed: engineNameAllowed, list: "engineNameAllowed",
		fix: "engine knowledge belongs in internal/dbms/<engine>, reached through an ability"}.check(t)
}
