// Package fuzzseed adds captured files as seeds of a fuzz target. Only
// tests import it.
package fuzzseed

import (
	"os"
	"path/filepath"
	"testing"
)

// Files adds every file matching pattern as a seed; no match fails the
// target (a seed corpus that silently vanished would fuzz from nothing).
func Files(f *testing.F, pattern string) {
	f.Helper()
	names, _ := filepath.Glob(pattern)
	if len(names) == 0 {
		f.Fatalf("no seed files %s", pattern)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}
