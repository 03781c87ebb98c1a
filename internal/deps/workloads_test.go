package deps

import (
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// workloadName matches the shipped load workloads' names where a test of
// one would hide ("tpcb", "TPC-B", modeTPCB): "select" is every SQL
// statement's word, so the select workload is kept out by the same
// imports rule instead (TestNoWorkloadImportedOutside).
var workloadName = regexp.MustCompile(`(?i)tpc-?b`)

// workloadNameAllowed lists the mentions outside internal/workload that
// decide nothing.
var workloadNameAllowed = []allowance{
	{file: "internal/cli/dsbench.go", prose: true, why: help},
	{file: "internal/cli/clustersize.go", prose: true, why: help},
	{file: "internal/pgbench/cmdline.go", token: `"tpcb-like"`, why: "pgbench's own name of the built-in script it runs when given none: the command line it parses"},
}

// TestNoWorkloadNamesOutsideWorkloads keeps workload knowledge in the
// workloads: the sweep, its agents, the reports and the forms ask the
// registry and the workload (internal/workload), never test for a name.
func TestNoWorkloadNamesOutsideWorkloads(t *testing.T) {
	nameRule{what: "a workload", pattern: workloadName, trees: []string{"internal/workload/"}, allowed: workloadNameAllowed,
		list: "workloadNameAllowed", fix: "workload knowledge belongs in internal/workload/<workload>, reached through the Workload interface or an ability"}.check(t)
}

// workloadImportAllowed are the packages of internal/workload that others
// may import, with the reason; every other one is a load workload, found
// through the registry only.
var workloadImportAllowed = map[string]string{
	"wisconsin":    "the Wisconsin relations and queries that the Wisconsin experiments time one by one: a benchmark's data, not a load of the registry",
	"script/parse": "pgbench's script files, which the pgbench front-end (internal/pgbench) reads and checks as pgbench does: a language, not a load of the registry",
	"script":       "pgbench's script runtime, which dbgauge pgbench (internal/experiment/pgbench*.go) runs directly with pgbench's own seeding, counts and report, as pgbench runs its scripts: one command line's scripts, not a load of the registry",
	"script/expr":  "pgbench's expression language, with which the pgbench front-end checks scripts' expressions and -D names: a language, not a load of the registry",
}

// TestNoWorkloadImportedOutside: outside internal/workload, no non-test
// file imports a load workload's package, and only the commands' main
// packages import internal/workload/all (the one import line a new
// workload adds).
func TestNoWorkloadImportedOutside(t *testing.T) {
	fset := token.NewFileSet()
	err := walkGo(func(rel string) bool { return rel == "internal/workload" }, func(rel, path string) error {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			sub, ok := strings.CutPrefix(strings.Trim(imp.Path.Value, `"`), module+"workload/")
			if !ok {
				continue
			}
			full := sub
			sub, _, _ = strings.Cut(sub, "/")
			switch {
			case sub == "all" && strings.HasPrefix(rel, "cmd/"):
			case workloadImportAllowed[full] != "", workloadImportAllowed[sub] != "":
			default:
				t.Errorf("%s imports internal/workload/%s: a workload is found by name in the registry (workload.New); only a command's main imports internal/workload/all", rel, sub)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
