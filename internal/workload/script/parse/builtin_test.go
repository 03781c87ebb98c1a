package parse

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestBuiltins parses the three built-in scripts.
func TestBuiltins(t *testing.T) {
	want := map[string]struct {
		desc  string
		shape string
	}{
		"tpcb-like":     {"<builtin: TPC-B (sort of)>", "set set set set SQL SQL SQL SQL SQL SQL SQL"},
		"simple-update": {"<builtin: simple update>", "set set set set SQL SQL SQL SQL SQL"},
		"select-only":   {"<builtin: select only>", "set SQL"},
	}
	if got := BuiltinNames(); !reflect.DeepEqual(got, []string{"tpcb-like", "simple-update", "select-only"}) {
		t.Errorf("BuiltinNames = %q", got)
	}
	for name, w := range want {
		s, err := Builtin(name, testOpts)
		if err != nil {
			t.Fatalf("Builtin(%s): %v", name, err)
		}
		if s.Name != w.desc || shape(s) != w.shape || s.Weight != 1 {
			t.Errorf("Builtin(%s): name %q shape %q weight %d", name, s.Name, shape(s), s.Weight)
		}
		if err := s.CheckExtended(nil); err != nil {
			t.Errorf("Builtin(%s) under the prepared protocol: %v", name, err)
		}
	}
	s, _ := Builtin("tpcb-like", testOpts)
	if got := s.Commands[0]; got.Var != "aid" || got.Expr != "random(1, 100000 * :scale)" {
		t.Errorf("tpcb-like's first command: %+v", got)
	}
	sql, args := s.Commands[5].SQL.Statements[0].Bind(QuestionPlaceholder)
	if sql != "UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?" || !reflect.DeepEqual(args, []string{"delta", "aid"}) {
		t.Errorf("tpcb-like's update: %q %q", sql, args)
	}
}

// TestBuiltinPrefixes checks -b's prefix matching, with pgbench's cases
// (t/002_pgbench_no_server.pl: "no builtin", "ambiguous builtin").
func TestBuiltinPrefixes(t *testing.T) {
	for prefix, want := range map[string]string{"t": "<builtin: TPC-B (sort of)>", "si": "<builtin: simple update>", "se": "<builtin: select only>"} {
		s, err := Builtin(prefix, testOpts)
		if err != nil || s.Name != want {
			t.Errorf("Builtin(%q): %v %v", prefix, s, err)
		}
	}
	if _, err := Builtin("no-such-builtin", testOpts); err == nil || !strings.Contains(err.Error(), `no builtin script found for name "no-such-builtin"`) {
		t.Errorf("unknown builtin: %v", err)
	}
	if _, err := Builtin("s", testOpts); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("ambiguous builtin: %v", err)
	}
}

// TestBuiltinsMatchPgbench compares the shipped files with what the
// installed pgbench prints for --show-script: the built-in scripts are the
// benchmark's definition, so they must be pgbench's text.
func TestBuiltinsMatchPgbench(t *testing.T) {
	pgbench := lookPgbench(t)
	for _, name := range BuiltinNames() {
		out, err := exec.Command(pgbench, "--show-script="+name).CombinedOutput()
		if err != nil {
			t.Fatalf("pgbench --show-script=%s: %v\n%s", name, err, out)
		}
		src, _, err := BuiltinSource(name)
		if err != nil {
			t.Fatal(err)
		}
		// pgbench prints the header line, the script, and an empty line.
		if got := string(out); got != src+"\n" {
			t.Errorf("builtin/%s.sql differs from pgbench --show-script:\nours:\n%s\npgbench's:\n%s", name, src, got)
		}
	}
}

// lookPgbench finds the peer; the tests need it (Debian ships it with the
// server, package postgresql, which make test installs).
func lookPgbench(t *testing.T) string { return servertest.Pgbench(t) }
