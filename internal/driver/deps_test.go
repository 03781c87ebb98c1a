package driver

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies guards docs/architecture.md's boundaries: the driver must not know
// which benchmark runs, so nothing it imports, directly or not, may be a
// workload (or an experiment, which knows them all).
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, bad := range []string{"/internal/workload", "/internal/experiment", "/internal/cli"} {
			if strings.Contains(p, "github.com/dbgauge/dbgauge"+bad) {
				t.Errorf("driver depends on %s", p)
			}
		}
	}
}
