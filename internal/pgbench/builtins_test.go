package pgbench

import (
	"bytes"
	"testing"
)

// TestBuiltinsTextIsPgbenchs compares -b list and --show-script with the
// installed pgbench's output, byte for byte.
func TestBuiltinsTextIsPgbenchs(t *testing.T) {
	pgbench := lookPgbench(t)
	check := func(args []string, print func(*bytes.Buffer) error) {
		cmd := pgbenchCmd(pgbench, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pgbench %v: %v", args, err)
		}
		var got bytes.Buffer
		if err := print(&got); err != nil {
			t.Fatal(err)
		}
		if got.String() != stderr.String() {
			t.Errorf("pgbench %v:\n%q\nours:\n%q", args, stderr.String(), got.String())
		}
	}
	check([]string{"-b", "list"}, func(b *bytes.Buffer) error { return WriteBuiltinList(b) })
	for _, name := range []string{"tpcb-like", "simple-update", "select-only", "tpcb"} {
		check([]string{"--show-script", name}, func(b *bytes.Buffer) error { return WriteBuiltinScript(b, name) })
	}
}
