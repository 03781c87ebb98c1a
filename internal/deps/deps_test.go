// Package deps holds one test: the package boundaries of docs/architecture.md. It fails
// when a package imports what its row of the table says it must not.
package deps

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/dbgauge/dbgauge/internal/"

// forbidden: package (prefix, under internal/) -> imports it must not have.
var forbidden = map[string][]string{
	"dbms":     {"workload", "experiment", "driver", "timing", "report", "results", "cli", "stats"},
	"workload": {"driver", "timing", "experiment", "report", "results", "cli", "server"},
	"report":   {"dbms", "server", "driver", "timing", "workload", "experiment"},
	"stats":    {"dbms", "server", "results", "report", "experiment", "cli"},
	"server":   {"workload", "experiment", "report", "cli"},
	"results":  {"report", "experiment", "cli", "workload"},
	"cli":      {"dbms/postgres", "dbms/mysql", "dbms/sqlite", "dbms/duckdb", "dbms/firebird"},
	"sysinfo":  {"experiment", "report", "cli"},
	"progress": {"dbms", "experiment"},
	"nodes":    {"experiment", "workload", "report", "cli", "server"},
	"netns":    {"dbms", "server", "driver", "workload", "timing", "experiment", "results", "report", "cli"},
	"ui":       {"driver", "timing", "workload", "server", "cli"},
	// pgbench is pgbench's command line, report text and -i: the load
	// machinery runs what it parses, never the other way round.
	"pgbench": {"experiment", "cli", "report", "results", "server"},
	// live is the shared format of the stream and the requests: the run
	// and the web interface both import it, so it imports nothing of
	// dbgauge ("" bans every package).
	"live": {""},
}

func TestPackageBoundaries(t *testing.T) {
	root := filepath.Join("..")
	fset := token.NewFileSet()
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for owner, bans := range forbidden {
			if rel != owner && !strings.HasPrefix(rel, owner+"/") {
				continue
			}
			for _, imp := range f.Imports {
				p := strings.Trim(imp.Path.Value, `"`)
				for _, ban := range bans {
					if ban == "" && strings.HasPrefix(p, module) || p == module+ban || strings.HasPrefix(p, module+ban+"/") {
						t.Errorf("%s imports %s: docs/architecture.md says %s must not know %s", path, p, owner, ban)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
