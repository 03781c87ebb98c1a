package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The stored runs of the golden pages predate results naming their
// workload: as in the command (internal/cli), their titles come from the
// registered workloads (quickstart_test.go registers them).
func init() {
	results.SetTitler(workload.Title)
}
