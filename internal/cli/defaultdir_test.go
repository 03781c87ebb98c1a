package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// Two runs started in the same second without --out each get their own
// run directory (runs/<time>-wisconsin and runs/<time>-wisconsin-2), both
// succeed, and both are listed complete.
func TestRunsInTheSameSecondGetTheirOwnDirectories(t *testing.T) {
	t.Chdir(t.TempDir())
	// Start both just after a second begins: the directory names are to
	// the second.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 10*time.Millisecond)))
	var wg sync.WaitGroup
	var codes [2]int
	var stderrs [2]string
	for i := range 2 {
		wg.Go(func() {
			codes[i], _, stderrs[i] = run("wisconsin", "--size", "100", "--reps", "1", "--queries", "1", "--org", "heap")
		})
	}
	wg.Wait()
	for i := range 2 {
		if codes[i] != 0 {
			t.Errorf("run %d: exit %d: %s", i+1, codes[i], stderrs[i])
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(defaultRunsDir, "*-wisconsin*"))
	if len(dirs) != 2 {
		t.Fatalf("run directories %v, want two", dirs)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, results.ResultsFile)); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	entries, err := results.List(defaultRunsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Status() != "complete" {
			t.Errorf("%s: %s (%s)", e.Path, e.Status(), e.Error)
		}
	}
	if len(entries) != 2 {
		t.Errorf("listed %d runs, want 2", len(entries))
	}
}
