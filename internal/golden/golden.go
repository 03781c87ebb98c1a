// Package golden compares test output with golden files, in the style of
// golang.org/x/perf's benchstat tests: `go test -update` rewrites them.
// Only tests import it.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Check compares got with the golden file (or rewrites it with -update); a
// mismatch prints the first differing lines.
func Check(t testing.TB, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update if the change is intended):\n%s", golden, lineDiff(want, got))
	}
}

// lineDiff is a short unified-ish diff: the first differing lines with
// their line numbers, "-" from the golden file, "+" from the output.
func lineDiff(want, got []byte) string {
	const maxLines = 20
	w := strings.Split(string(want), "\n")
	g := strings.Split(string(got), "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		wok, gok := i < len(w), i < len(g)
		if wok {
			wl = w[i]
		}
		if gok {
			gl = g[i]
		}
		if wok && gok && wl == gl {
			continue
		}
		if shown == maxLines {
			b.WriteString("...\n")
			break
		}
		if wok {
			fmt.Fprintf(&b, "-%d: %s\n", i+1, wl)
		}
		if gok {
			fmt.Fprintf(&b, "+%d: %s\n", i+1, gl)
		}
		shown++
	}
	fmt.Fprintf(&b, "(golden %d lines, output %d lines)\n", len(w), len(g))
	return b.String()
}
